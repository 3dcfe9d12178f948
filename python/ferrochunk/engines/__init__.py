"""Where every public class gets its engine: the Rust core or the pure-Python reference.

Each public class (``Splitter``, the LangChain drop-ins, ``MarkdownChunker``,
``TextChunker``, ``MarkdownHeaderTextSplitter``) is one class holding one engine object,
which it asks of its subsystem's function in this package (:mod:`.split`, :mod:`.tokens`,
:mod:`.markdown`); its ``_stack`` class attribute says
which stack it is bound to: ``NATIVE`` (``ferrochunk``'s classes) or ``REFERENCE``
(:mod:`ferrochunk.reference`: the same classes, bound to the reference). On the native
stack these functions own the whole fallback table: the Rust engine reproduces the
reference exactly on what it takes, and anything else runs on the reference, so the answer
never differs, only the speed.

The fallback table (native stack; each row with the function that decides it):

- a subclass overriding a LangChain hook (``_merge_splits``, ``_join_docs``, ``_split_text``;
  ``_is_custom_header``, ``aggregate_lines_to_chunks``): the reference calling those hooks,
  ``HookedEngine`` / ``HookedHeaderEngine``, in both stacks (:func:`text_engine`,
  :func:`header_engine`);
- separators that are no ``str``, or a regex outside the subset both engines share
  (``frontend.patterns.to_rust``): the reference (:func:`rust_separators`, read by
  :func:`text_engine`, :func:`splitter_engine`, :func:`markdown_engine`);
- drop-in sizes that are no ``int``, or a kept regex that does not compile inside
  LangChain's ``(...)`` (LangChain raises there, so the reference must): the reference
  (:func:`text_engine`);
- a pattern over the regex crate's size limit, a separator naming a lone surrogate, sizes
  beyond i64 (``Splitter``: ``chunk_size >= 2**63``): the native constructor raises and
  the reference runs (:func:`text_engine`, :func:`splitter_engine`, :func:`markdown_engine`);
- a ``length_function`` returning anything but a non-negative int: the core raises
  ``_native.Unsupported`` mid-call and that call reruns on the reference (below);
- a drop-in's text that is no ``str`` or has lone surrogates: that call on the reference
  (below); ``Splitter`` refuses lone surrogates with a ``ValueError`` naming the index
  instead (its UTF-8 offsets would not exist);
- a ``MarkdownChunker`` document id with lone surrogates, or a ``parent_size`` beyond
  ``usize``: that call on the reference (:meth:`NativeMarkdownEngine.split`);
- header levels that are no machine integers, markers that are no ``str``: the Python line
  scan (:func:`header_engine`);
- ``TokenTextSplitter`` sizes that are no ``int``, a size not above the overlap, or sizes
  beyond the native integers: windows cut in Python, LangChain's errors first
  (:func:`token_windows`);
- a tiktoken special policy tiktoken refuses: a counter that raises as LangChain's does
  when it counts (:func:`tiktoken_length`); a ``transformers`` tokenizer whose
  ``tokenize()`` is not its fast backend's: called from Python (:func:`huggingface_length`);
- a ``CodeChunker`` ``length_function`` returning anything but a non-negative int: that
  call on the reference (:class:`NativeCodeEngine`, which :func:`code_engine` builds);
- batches with a Python ``length_function``, a subclass's own ``split_text`` or a reference
  engine: one text at a time, each by the rows above (:func:`text_batch`,
  :func:`splitter_batch`, :func:`markdown_batch`, :func:`token_batch`).

Per call, for speed, two rows are caught where the core raises, not here: a drop-in's
``split_text`` goes straight to ``_native.TextEngine`` (``rust/python/dropin.rs``), which
reruns a text that is no ``str``, has lone surrogates or gets ``Unsupported`` on the
reference engine :func:`text_engine` handed it (a Python frame there cost a few per cent of
a typical document's split); ``Splitter.split`` catches ``Unsupported`` and reruns on
:func:`splitter_fallback`. The batch functions (``rust/python/batch.rs``) hand a text they
cannot take to the one-text path these functions pass them, which takes the rows above.
Nothing here runs at import: the reference and the token modules load on first use.
"""

from .code import NativeCodeEngine, code_engine
from .common import NATIVE, REFERENCE, chunk_type, counted, is_native_length, rust_separators
from .markdown import NativeHeaderEngine, NativeMarkdownEngine, header_engine, markdown_engine
from .split import splitter_engine, text_engine
from .tokens import huggingface_length, tiktoken_length, token_encoder, token_windows

__all__ = [
    "NATIVE",
    "REFERENCE",
    "NativeCodeEngine",
    "NativeHeaderEngine",
    "NativeMarkdownEngine",
    "chunk_type",
    "code_engine",
    "counted",
    "header_engine",
    "huggingface_length",
    "is_native_length",
    "markdown_engine",
    "rust_separators",
    "splitter_engine",
    "text_engine",
    "tiktoken_length",
    "token_encoder",
    "token_windows",
]
