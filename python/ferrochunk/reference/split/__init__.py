"""Recursive separator splitting in pure Python (mirrors ``rust/split/``): :mod:`.scan`,
:mod:`.merge`, :mod:`.recursive`, and the public classes on this engine in
:mod:`.splitter` and :mod:`.textsplitter`."""
