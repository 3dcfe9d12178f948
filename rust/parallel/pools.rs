//! Reusable rayon pools, one per size, that a forked child never inherits.
//!
//! `fork` copies a process with only the calling thread: a pool built before it is, in the
//! child, a queue that no thread serves, and the first job sent to it waits forever (the
//! hang `multiprocessing`'s default start method on Linux runs into). Hugging Face
//! tokenizers answers with a `pthread_atfork` handler that turns parallelism off in the
//! child. We keep it on: every cached pool remembers the process id that built it, and a
//! lookup from another process (a child) forgets the inherited pools, leaking them on
//! purpose (dropping one would signal threads that do not exist, behind locks a dead
//! thread may hold), and builds fresh ones. The check costs one `getpid` per parallel call
//! and needs no `unsafe` hook, and it covers every way of forking (`os.fork`,
//! `multiprocessing`, a C library's `fork`).
//!
//! The cache's own lock is taken only for a lookup. In the child it is taken with
//! `try_lock`: if the parent forked while another of its threads held it, the child builds
//! an uncached pool for the call instead of waiting on a lock nobody will release.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, TryLockError};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::{Error, Result};

/// Pools by size, and the process that built them.
static POOLS: Mutex<Option<HashMap<usize, Arc<ThreadPool>>>> = Mutex::new(None);
/// The process id the cached pools belong to (0: none built yet).
static OWNER: AtomicU32 = AtomicU32::new(0);

/// Forgets the cached pools at the next lookup, whatever the process id says: the Python
/// binding calls it from `os.register_at_fork(after_in_child=...)`, which also covers a
/// child whose id happens to equal that of an ancestor that built pools and has exited.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub fn after_fork() {
    OWNER.store(0, Ordering::Release);
}

/// A pool of `threads` worker threads, reused across calls in this process.
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    let me = std::process::id();
    let forked = OWNER.load(Ordering::Acquire) != me;
    let mut guard = match POOLS.try_lock() {
        Ok(guard) => guard,
        Err(TryLockError::WouldBlock) if forked => return build(threads),
        Err(TryLockError::WouldBlock) => POOLS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
        Err(TryLockError::Poisoned(e)) => e.into_inner(),
    };
    if forked {
        // The parent's pools have no threads here: leak them, never touch them again.
        std::mem::forget(guard.take());
        OWNER.store(me, Ordering::Release);
    }
    let pools = guard.get_or_insert_with(HashMap::new);
    if let Some(pool) = pools.get(&threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = build(threads)?;
    pools.insert(threads, Arc::clone(&pool));
    Ok(pool)
}

fn build(threads: usize) -> Result<Arc<ThreadPool>> {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ferrochunk-{i}"))
        .build()
        .map(Arc::new)
        .map_err(|e| Error::Threads(format!("cannot start {threads} threads: {e}")))
}

/// Runs `work` on `threads` threads: on the calling thread when `threads` is 1 (no pool, no
/// hand-off), else inside a pool of that size (rayon's parallel iterators in `work` use it).
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub fn run<R: Send>(threads: usize, work: impl FnOnce() -> R + Send) -> Result<R> {
    if threads <= 1 {
        return Ok(work());
    }
    Ok(pool(threads)?.install(work))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn pools_are_reused_and_sized() {
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.current_num_threads(), 3);
        let total: u64 = run(2, || (0..1000u64).into_par_iter().sum()).unwrap();
        assert_eq!(total, 499_500);
    }

    #[test]
    fn one_thread_runs_on_the_caller() {
        let caller = std::thread::current().id();
        assert_eq!(run(1, || std::thread::current().id()).unwrap(), caller);
        let other = run(2, || std::thread::current().id()).unwrap();
        assert_ne!(other, caller);
    }
}
