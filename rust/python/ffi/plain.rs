//! Instances of a plain Python class made without its `__init__` or `__setattr__` (see the
//! invariants in [`super`]).

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple, PyType};

/// A Python class whose instances may be made by `object.__new__` and filled by
/// `object.__setattr__` (see the module's invariants), both called without argument tuples:
/// how `Document`s are laid out fast without running pydantic's validation.
pub struct PlainClass {
    cls: Py<PyType>,
}

impl PlainClass {
    /// `cls`, if its first base that is not a heap type is `object`.
    pub fn new(cls: &Bound<'_, PyType>) -> PyResult<Self> {
        const HEAPTYPE: u64 = 1 << 9; // Py_TPFLAGS_HEAPTYPE
        let py = cls.py();
        let mut base = cls.clone();
        loop {
            let flags: u64 = base.getattr("__flags__")?.extract()?;
            if flags & HEAPTYPE == 0 {
                break;
            }
            base = base.getattr("__base__")?.cast_into::<PyType>()?;
        }
        if !base.is(py.get_type::<PyAny>()) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{} is not laid out like a plain Python class",
                cls.name()?
            )));
        }
        Ok(Self {
            cls: cls.clone().unbind(),
        })
    }

    /// `object.__new__(cls)`, then `object.__setattr__(it, name, value)` for each attribute.
    pub fn instance<'py>(
        &self,
        py: Python<'py>,
        attrs: &[(&Bound<'py, PyString>, &Bound<'py, PyAny>)],
    ) -> PyResult<Bound<'py, PyAny>> {
        let args = PyTuple::empty(py);
        let cls = self.cls.bind(py);
        // SAFETY: `object`'s `tp_new` is `object_new`, which every type object has; we call
        // it as `object.__new__(cls)` does (no arguments, a valid class and tuple), and it
        // returns a new reference or NULL with an exception set. `cls` passed the check of
        // `new`, so `object.__new__` would accept it (module invariants).
        let obj = unsafe {
            let new = (*std::ptr::addr_of!(pyo3::ffi::PyBaseObject_Type))
                .tp_new
                .ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("no object.__new__"))?;
            let ptr = new(cls.as_ptr().cast(), args.as_ptr(), std::ptr::null_mut());
            Bound::from_owned_ptr_or_err(py, ptr)?
        };
        for (name, value) in attrs {
            // SAFETY: three live objects; `obj` is an instance of a plain class, for which
            // `object.__setattr__` is exactly this call (module invariants). It returns 0,
            // or -1 with an exception set.
            let rc = unsafe {
                pyo3::ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr())
            };
            if rc != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}
