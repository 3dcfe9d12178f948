//! How many threads a parallel call uses when the caller does not say.
//!
//! The order follows what users of data engines expect: our own variable, then rayon's
//! (which other Rust-backed libraries honour too), then what the operating system grants
//! this process. `std::thread::available_parallelism` reads the affinity mask
//! (`sched_getaffinity`: `taskset`, Ray's and Dask's CPU pinning) and the cgroup CPU quota
//! (`cpu.max`, a container's `--cpus`), so a worker given one core gets one thread.

use crate::error::{Error, Result};

/// Our environment variable; takes precedence over [`RAYON_VAR`].
pub const OWN_VAR: &str = "FERROCHUNK_NUM_THREADS";
/// rayon's environment variable; `0` means "unset" there, and so here.
pub const RAYON_VAR: &str = "RAYON_NUM_THREADS";

/// The most threads a call may ask for. Threads never change the output, only the speed,
/// and past the CPUs they cost a stack and scheduling each; an absurd value (`2**40`) spawned
/// threads until the OS refused. This is above the hardware threads of any machine we know
/// of, so a real setting is never refused; a larger one is refused, not lowered, so that a
/// typo is told.
pub const MAX_THREADS: usize = 1024;

/// The thread count for `threads` (`None`: the environment, else the CPUs available).
pub fn resolve(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => Err(Error::Threads(
            "threads must be a positive int, or None for all the CPUs this process may use; got 0"
                .to_owned(),
        )),
        Some(n) if n > MAX_THREADS => Err(Error::Threads(format!(
            "threads must be at most {MAX_THREADS}, got {n}"
        ))),
        Some(n) => Ok(n),
        None => from_env(|name| std::env::var(name).ok()),
    }
}

/// [`resolve`]`(None)` with the environment read through `var` (tests pass their own).
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<usize> {
    if let Some(value) = var(OWN_VAR) {
        return match parse(&value) {
            Some(n) if n > 0 && n <= MAX_THREADS => Ok(n),
            _ => Err(Error::Threads(format!(
                "{OWN_VAR} must be a positive integer up to {MAX_THREADS}, got {value:?}"
            ))),
        };
    }
    if let Some(value) = var(RAYON_VAR) {
        match parse(&value) {
            Some(0) => {}
            Some(n) if n <= MAX_THREADS => return Ok(n),
            _ => {
                return Err(Error::Threads(format!(
                    "{RAYON_VAR} must be a non-negative integer up to {MAX_THREADS}, got {value:?}"
                )))
            }
        }
    }
    Ok(available())
}

/// The CPUs this process may run on (affinity and cgroup quota), at least 1.
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

fn parse(value: &str) -> Option<usize> {
    value.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn with(vars: &[(&str, &str)]) -> Result<usize> {
        from_env(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn own_variable_wins_then_rayon_then_cpus() {
        assert_eq!(with(&[(OWN_VAR, "3"), (RAYON_VAR, "5")]), Ok(3));
        assert_eq!(with(&[(RAYON_VAR, " 5 ")]), Ok(5));
        assert_eq!(with(&[(RAYON_VAR, "0")]), Ok(available()));
        assert_eq!(with(&[]), Ok(available()));
        assert!(available() >= 1);
    }

    #[test]
    fn bad_values_say_which_variable() {
        for (var, value) in [(OWN_VAR, "0"), (OWN_VAR, "two"), (RAYON_VAR, "-1")] {
            let err = with(&[(var, value)]).unwrap_err().to_string();
            assert!(err.contains(var) && err.contains(value), "{err}");
        }
        assert!(resolve(Some(0))
            .unwrap_err()
            .to_string()
            .contains("positive"));
        assert_eq!(resolve(Some(7)), Ok(7));
    }

    #[test]
    fn absurd_counts_are_refused() {
        assert_eq!(resolve(Some(MAX_THREADS)), Ok(MAX_THREADS));
        let err = resolve(Some(1 << 40)).unwrap_err().to_string();
        assert!(
            err.contains("at most 1024") && err.contains("1099511627776"),
            "{err}"
        );
        for var in [OWN_VAR, RAYON_VAR] {
            let err = with(&[(var, "1025")]).unwrap_err().to_string();
            assert!(err.contains(var) && err.contains("1024"), "{err}");
        }
    }
}
