"""A drop-in for tiktoken: ``Encoding`` and its registry, on the Rust BPE, offline.

The same names, arguments, results and errors as tiktoken 0.14 (its own test suite passes
against this package), the ranks bundled in the extension (nothing is downloaded), and
batches encoded in Rust with the GIL released. ``import ferrochunk.tiktoken as tiktoken``.

>>> import ferrochunk.tiktoken as tiktoken
>>> enc = tiktoken.encoding_for_model("gpt-4o")
>>> enc.name, enc.encode("hello world"), enc.decode(enc.encode("hello world"))
('o200k_base', [24912, 2375], 'hello world')
"""

from .core import Encoding
from .registry import encoding_for_model, encoding_name_for_model, get_encoding, list_encoding_names

__all__ = [
    "Encoding",
    "encoding_for_model",
    "encoding_name_for_model",
    "get_encoding",
    "list_encoding_names",
]
