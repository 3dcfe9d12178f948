"""The corpora ``ferrochunk bench`` measures, and the line saying which and why.

Each sub-folder of the folder is a corpus (the files beside them, such as a README, are left
out and named), a folder without sub-folders one; files are
taken as ``ferrochunk chunk`` takes them with its default options (its suffixes, each also
``.gz``; a JSON Lines row's ``text`` field, a Parquet file's ``text`` column). Without
``--corpus``: ``../shared/corpus`` when it is there, else the bundled sample.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional

from .inputs import DEFAULT_GLOBS, kind_of, matches
from .progress import plural

SHARED = Path("..", "shared", "corpus")


@dataclass
class Corpora:
    """``texts``: corpus name -> its documents, from ``files[name]`` files read from
    ``where`` (chosen because ``why``)."""

    where: str
    why: str
    texts: dict[str, list[str]]
    files: dict[str, int]
    left_out: list[str]

    def line(self) -> str:
        """``corpus: WHERE (WHY; NAME: N files, X MB, ...[; left out: FILE ...])``."""
        listing = ", ".join(
            f"{name}: {plural(self.files[name], 'file')}, "
            f"{sum(len(t.encode()) for t in texts) / 1e6:.2f} MB"
            for name, texts in self.texts.items()
        )
        left = " ".join(self.left_out)
        left = f"; left out, beside the sub-folders: {left}" if left else ""
        return f"corpus: {self.where} ({self.why}; {listing}{left})"


def load_corpora(folder: Optional[str]) -> Corpora:
    """The corpora of ``folder`` (``--corpus``), else of ../shared/corpus, else the sample.
    ``ValueError`` (a message for the command line) for a ``folder`` that is none, holds no
    file to measure, or holds one that cannot be read (not UTF-8, a row without text)."""
    if folder is not None:
        if not Path(folder).is_dir():
            raise ValueError(f"--corpus {folder}: not a folder")
        return _read(Path(folder), folder, "--corpus")
    if SHARED.is_dir():
        return _read(SHARED, str(SHARED), "no --corpus; found beside the current folder")
    with resources.as_file(resources.files("ferrochunk") / "sample") as sample:
        why = f"no --corpus, and no {SHARED} beside the current folder"
        return _read(Path(sample), "the bundled sample", why)


def _read(root: Path, where: str, why: str) -> Corpora:
    subs = sorted(p for p in root.iterdir() if p.is_dir())
    beside = sorted(f for f in root.iterdir() if _wanted(f))
    groups = {sub.name: sorted(f for f in sub.rglob("*") if _wanted(f)) for sub in subs}
    groups = {name: files for name, files in groups.items() if files}
    if not subs:
        groups = {root.resolve().name: beside}
    if not groups:
        suffixes = " ".join(g.lstrip("*") for g in DEFAULT_GLOBS)
        raise ValueError(f"--corpus {root}: no file to measure in it ({suffixes}, each also .gz)")
    texts = {name: [t for f in files for t in _documents(f)] for name, files in groups.items()}
    left_out = [f.name for f in beside] if subs else []
    files = {name: len(files) for name, files in groups.items()}
    return Corpora(where, why, texts, files, left_out)


def _wanted(path: Path) -> bool:
    return matches(path.name, DEFAULT_GLOBS) and path.is_file()


def _documents(path: Path) -> list[str]:
    """The documents of a file, as ``chunk`` reads them by default."""
    kind = kind_of(path.name, "auto")
    if kind == "parquet":
        return _parquet(path)
    text = _text(path)
    return _jsonl(path, text) if kind == "jsonl" else [text]


def _jsonl(path: Path, text: str) -> list[str]:
    """Every row's ``text`` field; ``ValueError`` naming a row without one."""
    out = []
    for k, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            raise ValueError(f"{path}:{k}: not a JSON object") from None
        field = value.get("text") if isinstance(value, dict) else None
        if not isinstance(field, str):
            raise ValueError(f'{path}:{k}: no string field "text"')
        out.append(field)
    return out


def _parquet(path: Path) -> list[str]:
    """The non-null texts of the ``text`` column."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError(
            f'{path}: Parquet needs pyarrow: pip install "ferrochunk[arrow]"'
        ) from None
    try:
        column = pq.read_table(path, columns=["text"]).column("text").to_pylist()
    except (OSError, ValueError, KeyError) as err:  # ArrowInvalid is a ValueError
        raise ValueError(f"{path}: cannot read Parquet ({err})") from None
    return [t for t in column if t is not None]


def _text(path: Path) -> str:
    """The file's text; ``ValueError`` naming it if it cannot be read as UTF-8."""
    data = path.read_bytes()
    try:
        if path.name.endswith(".gz"):
            data = gzip.decompress(data)
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not UTF-8 ({err.reason} at byte {err.start})") from None
    except (OSError, EOFError) as err:  # gzip.BadGzipFile is an OSError
        raise ValueError(f"{path}: cannot decompress ({err})") from None
