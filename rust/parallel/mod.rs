//! Parallelism the caller sizes: how many threads (`threads`), and pools that survive `fork`.
//!
//! - [`threads`]: `threads=None` read as `FERROCHUNK_NUM_THREADS`, then `RAYON_NUM_THREADS`,
//!   then the CPUs this process may use (affinity mask and cgroup quota).
//! - [`pools`]: one rayon pool per size, kept for reuse, rebuilt in a forked child (whose
//!   copy of the parent's pool has no threads behind it and would hang).
//!
//! Every parallel entry point (batches, the corpus job, token counts) goes through [`run`],
//! never through rayon's global pool, so the fork rule holds everywhere.

pub mod pools;
pub mod threads;

#[cfg_attr(not(feature = "python"), allow(unused_imports))] // used by the binding
pub use pools::{pool, run};
pub use threads::resolve;
