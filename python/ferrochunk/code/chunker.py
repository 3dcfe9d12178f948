"""``ferrochunk.CodeChunker``: source code chunked along its tree-sitter syntax tree.

One class holding one engine, which :func:`ferrochunk.engines.code_engine` chooses: the
Rust chunker (``rust/code/``), with the pure-Python reference (py-tree-sitter, the same
grammar) for lengths that are not counts; the reference alone on
:mod:`ferrochunk.reference`'s ``CodeChunker``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Callable, Optional

from .. import _native
from ..engines.code import code_batch, code_engine
from ..engines.common import NATIVE
from ..frontend.batch import check_texts, check_threads, documents
from ..frontend.checks import check_encodable, metadata_dict
from ..frontend.cuts import Cut

Chunk = _native.Chunk  # (the reference's `Chunk` on the reference stack)

# Keys every chunk's metadata gets from the chunker.
RESERVED_KEYS = frozenset({"language", "scope_path", "embedding_text"})


class CodeChunker:
    """Chunks of source code that follow its syntax tree.

    A definition (function, method, class) or statement that fits in ``chunk_size`` is
    never cut; one that does not is opened at its children (the statements of its body),
    and what has no children to cut at (a long string, a syntax error) is cut by lines,
    then characters. Comments on the lines just above a definition or statement stay with
    it; small neighbours are merged up to the size. Chunks cover every non-whitespace
    character of the text, in order; only whitespace between chunks is left out.
    Each chunk carries ``metadata["language"]`` and ``metadata["scope_path"]``, the
    definitions all its code lies in (``("class Parser", "def parse")``), and with
    ``embedding_text`` the signatures of those that start before it, then its text.
    Sizes are in code points, or in what ``length_function`` counts.
    ``language`` is one of :attr:`languages` (or an alias, like ``"py"``).

    >>> from ferrochunk import CodeChunker
    >>> code = "class A:\\n    def f(self):\\n        return 1\\n\\n"
    >>> code += "    def g(self):\\n        return 2\\n"
    >>> chunks = CodeChunker(50, language="python").split(code)
    >>> [c.metadata["scope_path"] for c in chunks]
    [('class A',), ('class A', 'def g')]
    >>> chunks[1].text
    '    def g(self):\\n        return 2'
    """

    _stack = NATIVE  # the stack ferrochunk.engines builds this class's engine on
    languages: tuple[str, ...] = tuple(_native.CodeChunker.languages())

    def __init__(
        self,
        chunk_size: int = 1000,
        *,
        language: str,
        length_function: Optional[Callable[[str], int]] = None,
        embedding_text: bool = False,
    ) -> None:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
            raise TypeError(f"chunk_size must be an int, got {type(chunk_size).__name__}")
        if chunk_size <= 0:
            raise ValueError(f"chunk_size must be > 0, got {chunk_size}")
        if not isinstance(language, str):
            raise TypeError(f"language must be a str, got {type(language).__name__}")
        if length_function is not None and not callable(length_function):
            raise TypeError(f"length_function must be callable, got {length_function!r}")
        try:
            self._native_chunker = _native.CodeChunker(language, min(chunk_size, 2**63))
        except ValueError:
            raise ValueError(
                f"language must be one of {list(self.languages)}, got {language!r}"
            ) from None
        self.chunk_size = chunk_size
        self.language = language
        self.length_function = length_function
        self.embedding_text = bool(embedding_text)
        self._engine = code_engine(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles (and deep-copies) by arguments: the engine is rebuilt in the worker.
        return (_rebuild, (type(self), self._arguments()))

    def _arguments(self) -> dict[str, Any]:
        return {
            "chunk_size": self.chunk_size,
            "language": self.language,
            "length_function": self.length_function,
            "embedding_text": self.embedding_text,
        }

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[Chunk]:
        """The chunks of one source file, in order."""
        chunks: list[Chunk] = self._engine.split(
            text, self._checked(text, metadata), self.embedding_text
        )
        return chunks

    def cuts(self, text: str) -> list[Cut]:
        r"""Why each chunk of ``split(text)`` ends where it does, one :class:`Cut` per chunk,
        as the packer decided it: after a whole ``definition`` or ``statement``, a ``line``
        or a run of ``character``\ s (of what is too big for one chunk and has nothing to
        open), or at the ``end``.

        >>> from ferrochunk import CodeChunker
        >>> code = "import os\n\ndef f():\n    return 1\n"
        >>> [c.reason for c in CodeChunker(24, language="python").cuts(code)]
        ['definition', 'end']
        """
        self._checked(text, None)
        return [Cut(reason) for reason in self._engine.cuts(text)]

    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> list[list[Chunk]]:
        """``[self.split(text, metadata) for ...]``, in input order (see :meth:`split_iter`)."""
        return list(self.split_iter(texts, metadatas, threads=threads))

    def split_iter(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> Iterator[list[Chunk]]:
        """Each document's chunks, in input order; an invalid document raises naming its
        index (``texts[3]: ...``). Sized in code points or by a native token counter, the
        documents are chunked on ``threads`` threads with the GIL released (``None``:
        ``FERROCHUNK_NUM_THREADS``, else ``RAYON_NUM_THREADS``, else the CPUs this process
        may use); with another ``length_function``, one at a time."""
        check_threads(threads)
        check_texts(texts)
        rows = documents(texts, metadatas, names=("metadatas",))
        return code_batch(self, rows, threads)

    def _checked(self, text: str, metadata: Optional[Mapping[str, Any]]) -> dict[str, Any]:
        """The user's metadata of one document, after the checks of :meth:`split`."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        user = metadata_dict(metadata)
        clash = sorted(k for k in user if k in RESERVED_KEYS)
        if clash:
            raise ValueError(f"metadata keys {clash} are set by the chunker; rename them")
        check_encodable(text)  # a lone surrogate has no UTF-8, which the parser reads
        return user


def _rebuild(cls: type[CodeChunker], args: dict[str, Any]) -> CodeChunker:
    args = dict(args)
    return cls(args.pop("chunk_size"), **args)


__all__ = ["CodeChunker"]
