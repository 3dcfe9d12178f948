"""The native API, ``Splitter`` and ``split``, bound to the reference engine: ``ferrochunk``'s
own ``Splitter`` with ``_stack = REFERENCE`` (see :mod:`.classes`)."""

from __future__ import annotations

from ..engines.common import REFERENCE
from ..split import splitter


class Splitter(splitter.Splitter):
    __doc__ = splitter.Splitter.__doc__
    _stack = REFERENCE


split = splitter.one_off_split(Splitter)

__all__ = ["Splitter", "split"]
