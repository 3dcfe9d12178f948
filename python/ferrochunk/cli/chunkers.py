"""The options that choose a chunker, shared by ``ferrochunk chunk`` and ``ferrochunk
view``, and the public chunker they name (``view`` runs it; ``chunk`` hands its native core
to the job)."""

from __future__ import annotations

import argparse
from typing import Any, Optional

from .options import non_negative, positive

# text: structure by file suffix (.md Markdown, .rst reStructuredText, .adoc AsciiDoc, else
# plain text), as TextChunker(format=...) reads them, with TextChunker's ids. auto (``chunk``
# only): text's, and HTML, PDF, CSV and TSV files by their own chunkers, each row with its
# type (cli/auto.py).
CHUNKERS = ("recursive", "markdown", "text", "tokens")


def add_chunker_options(
    parser: argparse.ArgumentParser, default: str = "recursive", auto: bool = False
) -> None:
    """``--chunker`` and the sizes and separators that go with it."""
    text = "algorithm"
    if auto:
        text += " (auto: each file by its type: Markdown, RST, AsciiDoc, text, HTML, PDF, CSV;"
        text += " a type field in each row)"
    choices = (*CHUNKERS, "auto") if auto else CHUNKERS
    parser.add_argument("--chunker", choices=choices, default=default, help=text)
    parser.add_argument(
        "--chunk-size",
        type=positive,
        help="max chunk size (default: 1000 characters; 512 tokens with --encoding or "
        "--chunker tokens)",
    )
    parser.add_argument(
        "--chunk-overlap",
        type=non_negative,
        help="overlap (default: a fifth of the chunk size; 0 for markdown and text)",
    )
    parser.add_argument(
        "--min-size", type=non_negative, help="markdown, text: merge chunks under this (size/4)"
    )
    parser.add_argument(
        "--encoding", help="measure sizes in tokens of this encoding (e.g. cl100k_base, o200k_base)"
    )
    parser.add_argument("--language", help="recursive: separators for a language (python, ...)")
    parser.add_argument("--cjk", action="store_true", help="Chinese/Japanese sentence separators")


def chunk_size(args: argparse.Namespace) -> int:
    """``--chunk-size``, else 512 tokens or 1000 characters."""
    tokens = args.chunker == "tokens" or args.encoding is not None
    return int(args.chunk_size or (512 if tokens else 1000))


def counter(encoding: Optional[str]) -> Any:
    """The token length of ``--encoding``, or ``None`` (code points)."""
    if encoding is None:
        return None
    from ..tokens.tokenizer import get_encoding

    return get_encoding(encoding).length_function()


def recursive_splitter(args: argparse.Namespace, size: int, length: Any) -> Any:
    """The ``Splitter`` of ``--chunker recursive`` (``--language``, ``--cjk``)."""
    from ..language import Language, get_separators_for_language
    from ..presets import CJK_SEPARATORS
    from ..split.splitter import Splitter

    overlap = size // 5 if args.chunk_overlap is None else args.chunk_overlap
    options: dict[str, Any] = {}
    if args.language and args.cjk:
        raise ValueError("choose --language or --cjk, not both")
    if args.language:
        seps = get_separators_for_language(_language(args.language, Language))
        options = {"separators": seps, "is_separator_regex": True}
    elif args.cjk:
        options = {
            "separators": CJK_SEPARATORS,
            "is_separator_regex": True,
            "keep_separator": "end",
        }
    return Splitter(size, chunk_overlap=overlap, length_function=length, **options)


def markdown_chunker(args: argparse.Namespace, size: int, length: Any, path: Optional[str]) -> Any:
    """The ``MarkdownChunker`` of ``--chunker markdown``, or with ``--chunker text`` the
    ``TextChunker`` of ``path``'s format (by suffix; plain text without a path)."""
    options = {
        "min_size": args.min_size,
        "separators": "cjk" if args.cjk else "default",
        "length_function": length,
        "chunk_overlap": args.chunk_overlap or 0,
    }
    if args.chunker == "text":
        from ..frontend.structure import format_for_path
        from ..structure import TextChunker

        form = format_for_path(path, "plain") if path else "plain"
        return TextChunker(size, format=form or "plain", **options)
    from ..markdown.chunker import MarkdownChunker

    return MarkdownChunker(size, **options)


def public_chunker(args: argparse.Namespace, path: Optional[str] = None) -> Any:
    """The public chunker the options name, for the file at ``path``."""
    size = chunk_size(args)
    if args.chunker == "tokens":
        from ..tokens.windows import TokenSplitter

        return TokenSplitter(
            size, chunk_overlap=args.chunk_overlap, encoding=args.encoding or "cl100k_base"
        )
    length = counter(args.encoding)
    if args.chunker in ("markdown", "text"):
        return markdown_chunker(args, size, length, path)
    return recursive_splitter(args, size, length)


def _language(name: str, languages: Any) -> Any:
    """The ``Language`` named, or a message listing them all."""
    try:
        return languages(name.lower())
    except ValueError:
        valid = ", ".join(language.value for language in languages)
        raise ValueError(f"{name!r} is not a valid Language (--language: {valid})") from None


__all__ = [
    "CHUNKERS",
    "add_chunker_options",
    "chunk_size",
    "counter",
    "markdown_chunker",
    "public_chunker",
    "recursive_splitter",
]
