"""Type stubs for the Rust extension module (``rust/python/``)."""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Literal, final, overload

__all__ = [
    "BatchIter",
    "Chunk",
    "CodeChunker",
    "CorpusJob",
    "DocumentMaker",
    "Encoder",
    "FileSplitter",
    "HeaderSplitter",
    "HfTokenCounter",
    "MarkdownChunker",
    "Splitter",
    "TextEngine",
    "TokenCounter",
    "Unsupported",
    "after_fork",
    "chunk_arrow",
    "clear_token_caches",
    "decode_tokens_bytes",
    "encode_batch",
    "encode_bytes",
    "encode_single_piece",
    "encode_with_unstable",
    "encoding_name_for_model",
    "encoding_names",
    "lossy_iter",
    "markdown_iter",
    "markdown_spans",
    "markdown_spans_batch",
    "max_rank",
    "mergeable_bytes",
    "resolve_threads",
    "sentence_ends",
    "sentence_spans",
    "special_counter",
    "split_iter",
    "split_text_iter",
    "splitter_spans",
    "splitter_spans_batch",
    "token_rank",
    "window_spans",
    "window_spans_batch",
    "windows_iter",
]

class Unsupported(Exception):
    """An input the native engine does not reproduce exactly; callers fall back to Python."""

@final
class Splitter:
    """The core splitter: recursive over ``separators`` or a single separator."""

    def __new__(
        cls,
        chunk_size: int,
        chunk_overlap: int,
        separators: list[tuple[str, bool, str]],
        keep: Literal["drop", "start", "end"],
        strip_whitespace: bool,
        recursive: bool,
    ) -> Splitter: ...
    def split_text(
        self,
        text: str,
        length: Callable[[str], int] | None = None,
        warn: Callable[[int, int], object] | None = None,
    ) -> list[str]:
        """Chunk texts as LangChain returns them; ``warn(size, chunk_size)`` per oversize chunk."""
    def split(
        self, text: str, metadata: Mapping[str, Any], length: Callable[[str], int] | None = None
    ) -> tuple[list[Chunk], list[int]]:
        """Chunks with offsets and metadata, and the sizes it would warn about."""
    def cut_levels(self, text: str, length: Callable[[str], int] | None = None) -> list[int]:
        """Per chunk of ``split``: the index of the separator it was cut at, -1 at the end."""

@final
class TextEngine:
    """A drop-in splitter's engine: ``native``, and ``fallback`` (the pure-Python engine) for
    texts it cannot reproduce exactly."""

    def __new__(cls, native: Splitter, fallback: Any) -> TextEngine: ...
    @property
    def native(self) -> Splitter: ...
    def split_text(
        self, text: str, length: Callable[[str], int], warn: Callable[[int, int], object]
    ) -> list[str]:
        """LangChain's chunks; ``len`` is counted natively, other inputs go to ``fallback``."""

@final
class Chunk:
    """A chunk of a source text: ``text == source[start:end]``, UTF-8 offsets alongside."""

    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def index(self) -> int: ...
    @property
    def metadata(self) -> Mapping[str, Any]: ...
    @property
    def token_count(self) -> int | None: ...
    def __new__(
        cls,
        text: str,
        start: int,
        end: int,
        byte_start: int,
        byte_end: int,
        index: int,
        metadata: Mapping[str, Any],
        token_count: int | None = None,
    ) -> Chunk: ...
    def __len__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def sentence_ends(text: str, utf8: bool) -> list[int]:
    """Where the sentences of ``text`` end, in code points or (``utf8``) UTF-8 bytes
    (``rust/sentences/``)."""

def sentence_spans(text: str, strip: bool, metadata: Mapping[str, Any]) -> list[Chunk]:
    """The sentences as chunks; ``strip`` trims whitespace and drops empty ones."""

def chunk_arrow(
    data: Any,
    chunker: Splitter | MarkdownChunker,
    length: TokenCounter | HfTokenCounter | None,
    settings: str,
    text_column: str,
    id_column: str | None,
    keep_columns: list[str],
    threads: int | None = None,
    parent_size: int | None = None,
    chunk_ids: bool = True,
) -> tuple[Any, tuple[int, int, int, int]]:
    """Chunk Arrow data row by row: (pyarrow.Table, (rows, null_texts, chunks, oversized))."""

@final
class HeaderSplitter:
    """The line scan behind ``MarkdownHeaderTextSplitter``."""

    def __new__(
        cls,
        rules: list[tuple[str, int | None, int, bool]],
        return_each_line: bool,
        strip_headers: bool,
    ) -> HeaderSplitter: ...
    @overload
    def split(
        self, text: str, names: list[Any], make: None = None
    ) -> list[tuple[str, dict[Any, str]]]:
        """``[(content, {names[name_id]: header text, ...}), ...]``."""
    @overload
    def split(self, text: str, names: list[Any], make: DocumentMaker) -> list[Any]:
        """``[make(content, {names[name_id]: header text, ...}), ...]``."""

@final
class DocumentMaker:
    """LangChain ``Document`` objects laid out as the pydantic constructor lays them out."""

    def __new__(cls, document: type, kind: Any) -> DocumentMaker: ...
    def __call__(self, page_content: str, metadata: dict[Any, Any]) -> Any:
        """``document(page_content=page_content, metadata=metadata)``."""
    def many(
        self, texts: list[str], metadata: dict[Any, Any], starts: list[int] | None = None
    ) -> list[Any]:
        """A document per text, each with its own copy of a plain ``metadata`` dict (and
        ``start_index`` from ``starts``), made with the cyclic collector paused."""
    @staticmethod
    def plain(metadatas: list[Any], count: int) -> bool:
        """Whether the first ``count`` metadatas are ``dict``s of atomic keys and values."""
    def batch(
        self,
        chunk_lists: list[list[str]],
        metadatas: list[dict[Any, Any]],
        starts: list[list[int]] | None = None,
    ) -> list[Any]:
        """``many`` over every text's chunks and metadata, in one call."""

@final
class MarkdownChunker:
    """The structure-aware Markdown chunker of the core."""

    def __new__(
        cls,
        chunk_size: int,
        min_size: int,
        separators: list[str],
        settings: str,
        chunk_overlap: int = 0,
        format: str = "markdown",
        sentence_cuts: bool = False,
    ) -> MarkdownChunker: ...
    def cut_reasons(
        self, text: str, length: Callable[[str], int] | None = None
    ) -> list[tuple[str, int]]:
        """Per chunk of ``split``: why it ends there, and its separator's index (else -1)."""
    def split(
        self,
        text: str,
        metadata: dict[str, Any],
        document_id: str | None = None,
        length: Callable[[str], int] | None = None,
        embedding_text: bool = False,
        parent_size: int | None = None,
    ) -> tuple[list[Chunk], list[Chunk]]:
        """``(chunks, parents)`` with their metadata; parents only with ``parent_size``."""

@final
class CodeChunker:
    """Source code chunked along its tree-sitter syntax tree (``rust/code/``)."""

    def __new__(cls, language: str, chunk_size: int) -> CodeChunker: ...
    @staticmethod
    def languages() -> list[str]:
        """The main name of every supported language."""
    def split(
        self,
        text: str,
        metadata: dict[str, Any],
        length: Callable[[str], int] | None,
        embedding_text: bool,
    ) -> list[Chunk]:
        """The chunks, with ``language`` and ``scope_path`` added to ``metadata``."""
    def cut_reasons(self, text: str, length: Callable[[str], int] | None = None) -> list[str]:
        """Why each chunk of ``split`` ends where it does: ``definition``, ``statement``,
        ``line``, ``character`` or ``end``."""
    def split_batch(
        self,
        texts: list[str],
        metadatas: list[dict[str, Any]],
        length: TokenCounter | HfTokenCounter | None,
        embedding_text: bool,
        threads: int | None,
    ) -> list[list[Chunk]]:
        """``split`` of each text, on ``threads`` threads with the GIL released."""

@final
class Encoder:
    """One of tiktoken's encodings, ranks bundled in the binary (``rust/python/tokens.rs``)."""

    def __new__(cls, name: str) -> Encoder: ...
    @property
    def name(self) -> str: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def pattern(self) -> str: ...
    @property
    def explicit_n_vocab(self) -> int | None: ...
    def special_tokens(self) -> dict[str, int]: ...
    def mergeable_ranks(self) -> dict[bytes, int]: ...
    def encode_ordinary(self, text: str) -> list[int]: ...
    def encode(self, text: str, allowed: list[str], disallowed: list[str]) -> list[int]: ...
    def count(self, text: str, allowed: list[str], disallowed: list[str]) -> int: ...
    def count_batch(
        self, texts: list[str], allowed: list[str], disallowed: list[str]
    ) -> list[int]: ...
    def decode_bytes(self, ids: Sequence[int]) -> bytes: ...
    def split_lossy(
        self,
        text: str,
        size: int,
        overlap: int,
        allowed: list[str],
        disallowed: list[str],
    ) -> list[str]: ...
    def windows(
        self, text: str, size: int, overlap: int, metadata: Mapping[str, Any]
    ) -> list[Chunk]: ...

@final
class TokenCounter:
    """An encoding plus a special-token policy: a length the native splitter runs in Rust."""

    def __new__(
        cls, encoder: Encoder, allowed: list[str], disallowed: list[str]
    ) -> TokenCounter: ...
    def __call__(self, text: str) -> int: ...
    def encode(self, text: str) -> list[int]: ...
    def count(self, text: str) -> int: ...
    def split_lossy(self, text: str, size: int, overlap: int) -> list[str]: ...
    @property
    def name(self) -> str: ...
    def __copy__(self) -> TokenCounter: ...
    def __deepcopy__(self, memo: object, /) -> TokenCounter: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    counts_tokens: ClassVar[bool]

@final
class HfTokenCounter:
    """A Hugging Face tokenizer (``tokenizer.json`` contents) counting tokens in Rust."""

    def __new__(
        cls,
        json: str,
        add_special_tokens: bool,
        split_special_tokens: bool = False,
        fallback: Callable[[str], int] | None = None,
    ) -> HfTokenCounter: ...
    def __call__(self, text: str) -> int: ...
    def __copy__(self) -> HfTokenCounter: ...
    def __deepcopy__(self, memo: object, /) -> HfTokenCounter: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    counts_tokens: ClassVar[bool]

def encoding_name_for_model(model: str) -> str: ...

# ferrochunk.tiktoken's engine (rust/python/tokens/dropin.rs).
def encode_batch(counter: TokenCounter, texts: list[str], threads: int) -> list[list[int]]:
    """tiktoken's ``encode_batch`` under the counter's policy, the GIL released."""

def encode_bytes(encoder: Encoder, data: bytes) -> list[int]:
    """tiktoken's ``_encode_bytes``: bytes that need not be UTF-8."""

def encode_single_piece(encoder: Encoder, data: bytes) -> list[int]:
    """BPE of ``data`` as one piece (tiktoken's ``_encode_single_piece``)."""

def decode_tokens_bytes(encoder: Encoder, ids: Sequence[int]) -> list[bytes]:
    """Each token's bytes, the encoding's special tokens included."""

def special_counter(
    encoder: Encoder, allowed: list[tuple[str, int]], disallowed: list[str]
) -> TokenCounter:
    """A counter with special tokens of the caller's choosing (``(text, id)`` pairs)."""

def token_rank(encoder: Encoder, data: bytes) -> int | None:
    """The rank of ``data`` if it is a mergeable token."""

def mergeable_bytes(encoder: Encoder, id: int) -> bytes | None:
    """The bytes of mergeable token ``id``, if it is one."""

def max_rank(encoder: Encoder) -> int:
    """The highest mergeable rank."""

def encode_with_unstable(counter: TokenCounter, text: str) -> tuple[list[int], list[list[int]]]:
    """tiktoken's ``encode_with_unstable``: stable tokens, sorted possible completions."""

def encoding_names() -> list[str]: ...
def clear_token_caches() -> None: ...

@final
class BatchIter:
    """One document's result per item, in input order (see ``rust/python/batch.rs``)."""

    def __iter__(self) -> BatchIter: ...
    def __next__(self) -> Any: ...

def split_iter(
    splitter: Splitter,
    texts: Iterable[Any],
    metadatas: Iterable[Mapping[str, Any]] | None,
    length: Callable[[str], int] | None = None,
    threads: int | None = None,
) -> Iterator[tuple[list[Chunk], list[int]]]:
    """``Splitter.split`` over many documents on a thread pool: ``(chunks, oversized)``."""

def split_text_iter(
    splitter: Splitter,
    texts: Iterable[Any],
    fallback: Callable[[Any], tuple[list[str], list[int]]],
    length: Callable[[str], int] | None = None,
    threads: int | None = None,
) -> Iterator[tuple[list[str], list[int]]]:
    """The drop-ins' ``split_text`` over many texts: ``(strings, oversized)``."""

def markdown_iter(
    chunker: MarkdownChunker,
    texts: Iterable[Any],
    metadatas: Iterable[dict[str, Any]] | None,
    document_ids: Iterable[str | None] | None,
    fallback: Callable[[str, Any, Any], list[Chunk]],
    length: Callable[[str], int] | None = None,
    embedding_text: bool = False,
    parent_size: int | None = None,
    threads: int | None = None,
) -> Iterator[list[Chunk]]:
    """``MarkdownChunker.split`` over many documents on a thread pool."""

def windows_iter(
    encoder: Encoder,
    texts: Iterable[Any],
    metadatas: Iterable[Mapping[str, Any]] | None,
    size: int,
    overlap: int,
    threads: int | None = None,
) -> Iterator[list[Chunk]]:
    """Token windows over many documents on a thread pool."""

def lossy_iter(
    encoder: Encoder,
    texts: Iterable[Any],
    size: int,
    overlap: int,
    allowed: list[str],
    disallowed: list[str],
    fallback: Callable[[Any], list[str]],
    threads: int | None = None,
) -> Iterator[list[str]]:
    """The ``TokenTextSplitter`` drop-in's ``split_text`` over many texts."""

def resolve_threads(threads: int | None = None) -> int:
    """The thread count ``threads`` stands for (``None``: environment, else CPUs)."""

def after_fork() -> None:
    """Forget the thread pools (registered with ``os.register_at_fork``)."""

@final
class FileSplitter:
    """``Splitter.split_file``'s engine: fed bytes twice (choose, then split)."""

    def __new__(
        cls,
        chunk_size: int,
        chunk_overlap: int,
        separators: list[tuple[str, bool]],
        keep: Literal["start", "end"],
        strip_whitespace: bool,
    ) -> FileSplitter: ...
    def choose(self, data: bytes) -> bool: ...
    def start(self) -> int: ...
    def feed(
        self, data: bytes, metadata: Mapping[str, Any], length: Callable[[str], int] | None = None
    ) -> tuple[list[Chunk], list[int]]: ...
    def finish(
        self, metadata: Mapping[str, Any], length: Callable[[str], int] | None = None
    ) -> tuple[list[Chunk], list[int]]: ...

@final
class CorpusJob:
    """The CLI's corpus job: inputs from an iterator, outputs in input order."""

    def __new__(
        cls,
        engine: Splitter | MarkdownChunker | Encoder,
        inputs: Iterable[tuple[Any, ...]],
        *,
        settings: str,
        format: Literal["jsonl", "columns"] = "jsonl",
        threads: int | None = None,
        separators: list[tuple[str, bool]] | None = None,
        length: TokenCounter | None = None,
        size: int = 0,
        overlap: int = 0,
        text_field: str = ...,
        id_field: str | None = None,
        stream_above: int = ...,
        output: str | None = None,
        parts: bool = False,
        group_bytes: int = ...,
    ) -> CorpusJob: ...
    def __iter__(self) -> CorpusJob: ...
    def __next__(
        self,
    ) -> tuple[
        Any,
        int,
        int,
        int,
        int,
        list[tuple[str, str]],
        tuple[list[tuple[str, int, int, int, int]], bytes] | None,
    ]: ...

# The spans functions (rust/python/spans.rs): numpy int64 arrays, ``(n, 2)`` spans and, for
# a batch, ``n_docs + 1`` row offsets; ``unit`` is "char" or "byte"; the last item is the
# sizes of the chunks ``split`` warns about.
_Spans = tuple[Any, list[int]]
_SpansBatch = tuple[Any, Any, list[int]]
_NativeLength = TokenCounter | HfTokenCounter | None

def splitter_spans(splitter: Splitter, length: _NativeLength, text: str, unit: str) -> _Spans:
    """``Splitter.split``'s spans of one text."""

def splitter_spans_batch(
    splitter: Splitter, length: _NativeLength, texts: list[str], unit: str, threads: int | None
) -> _SpansBatch:
    """``splitter_spans`` of every text, flat, with row offsets; the GIL released."""

def markdown_spans(
    chunker: MarkdownChunker,
    length: _NativeLength,
    parent_size: int | None,
    text: str,
    unit: str,
) -> _Spans:
    """``MarkdownChunker.split``'s chunk spans of one text."""

def markdown_spans_batch(
    chunker: MarkdownChunker,
    length: _NativeLength,
    parent_size: int | None,
    texts: list[str],
    unit: str,
    threads: int | None,
) -> _SpansBatch:
    """``markdown_spans`` of every text, flat, with row offsets; the GIL released."""

def window_spans(encoder: Encoder, size: int, overlap: int, text: str, unit: str) -> _Spans:
    """``TokenSplitter.split``'s window spans of one text."""

def window_spans_batch(
    encoder: Encoder, size: int, overlap: int, texts: list[str], unit: str, threads: int | None
) -> _SpansBatch:
    """``window_spans`` of every text, flat, with row offsets; the GIL released."""
