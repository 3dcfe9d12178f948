//! The cyclic garbage collector kept out of the way of building many chunk objects (see
//! the invariants in [`super`]).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::PyClass;

/// Takes a chunk record out of the cyclic garbage collector's lists. Splitting a large text
/// makes hundreds of thousands of them; tracked, each few hundred would start a collection
/// that walks every tracked object, which on a 100 MB text was a third of the time (the
/// old remedy, switching the collector off around a split, was process-wide and raced
/// between threads). A chunk holds no `__traverse__`, so the collector never looks inside
/// one: untracked, nothing changes but the time.
pub fn untrack<T: PyClass>(chunk: &Bound<'_, T>) {
    // SAFETY: `chunk` is a live object of a PyO3 class, which PyO3 always creates with
    // `Py_TPFLAGS_HAVE_GC`; `PyObject_GC_UnTrack` may be called on such an object at any
    // time (it does nothing if the object is untracked already, as PyO3's deallocator
    // relies on).
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(chunk.as_ptr().cast()) }
}

/// Runs `build` (which makes a document's chunk objects) with the cyclic collector paused,
/// and restores it after, even if `build` panics. An untracked chunk still counts as an
/// allocation towards the next collection, so building a batch's hundreds of thousands set
/// off hundreds of collections, each walking the live lists of chunks kept so far: about a
/// tenth of the calling thread's time in `split_batch`, the part that does not run in
/// parallel. Nothing made in `build` can be garbage, so pausing changes no collection's
/// outcome, only when it happens (the next allocation after `build`).
pub fn collector_paused<T>(py: Python<'_>, build: impl FnOnce() -> T) -> T {
    /// Re-enables the collector when dropped, if it was enabled before.
    struct Resume(bool);
    impl Drop for Resume {
        fn drop(&mut self) {
            if self.0 {
                // SAFETY: as below; the guard lives inside the GIL-holding call.
                unsafe { pyo3::ffi::PyGC_Enable() };
            }
        }
    }
    if !has_gil(py) {
        return build();
    }
    // SAFETY: the GIL is held (`py`); `PyGC_Disable` flips the interpreter's flag and
    // returns whether it was on. `build` makes objects and runs no Python code (at most a
    // finalizer of something it drops last), so other threads do not see the flag off.
    let _resume = Resume(unsafe { pyo3::ffi::PyGC_Disable() } == 1);
    build()
}

/// Whether the interpreter runs with a GIL. Without one (free-threaded CPython) the
/// collector's switch would be seen, and could be flipped, by threads running at the same
/// time, so [`collector_paused`] leaves it alone there.
fn has_gil(py: Python<'_>) -> bool {
    static HAS_GIL: PyOnceLock<bool> = PyOnceLock::new();
    *HAS_GIL.get_or_init(py, || {
        // `sys._is_gil_enabled` exists from 3.13 on; before, there is always a GIL.
        py.import("sys")
            .and_then(|sys| sys.getattr("_is_gil_enabled"))
            .and_then(|enabled| enabled.call0()?.extract::<bool>())
            .unwrap_or(true)
    })
}
