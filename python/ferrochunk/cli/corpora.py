"""The corpora ``ferrochunk bench`` measures, and the line saying which and why.

Each sub-folder of the folder is a corpus, and the files beside them one more; files are
taken as ``ferrochunk chunk`` takes text files (its suffixes, each also ``.gz``). Without
``--corpus``: ``../shared/corpus`` when it is there, else the bundled sample.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional

from .inputs import TEXT_GLOBS, matches

SHARED = Path("..", "shared", "corpus")


@dataclass
class Corpora:
    """``texts``: corpus name -> its files' texts, read from ``where`` (chosen because
    ``why``)."""

    where: str
    why: str
    texts: dict[str, list[str]]

    def line(self) -> str:
        """``corpus: WHERE (WHY; NAME: N files, X MB, ...)``."""
        listing = ", ".join(
            f"{name}: {len(texts)} files, {sum(len(t.encode()) for t in texts) / 1e6:.2f} MB"
            for name, texts in self.texts.items()
        )
        return f"corpus: {self.where} ({self.why}; {listing})"


def load_corpora(folder: Optional[str]) -> Corpora:
    """The corpora of ``folder`` (``--corpus``), else of ../shared/corpus, else the sample.
    ``ValueError`` (a message for the command line) for a ``folder`` that is none, holds no
    text file, or holds one that cannot be read as UTF-8."""
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
    groups = {sub.name: sorted(f for f in sub.rglob("*") if _wanted(f)) for sub in subs}
    beside = sorted(f for f in root.iterdir() if _wanted(f))
    if beside:  # the files beside the sub-folders (or of a folder without any)
        name = root.resolve().name
        groups = {f"{name} (top level)" if name in groups else name: beside, **groups}
    texts = {name: [_text(f) for f in files] for name, files in groups.items() if files}
    if not texts:
        suffixes = " ".join(g.lstrip("*") for g in TEXT_GLOBS)
        raise ValueError(f"--corpus {root}: no text file in it ({suffixes}, each also .gz)")
    return Corpora(where, why, texts)


def _wanted(path: Path) -> bool:
    return matches(path.name, TEXT_GLOBS) and path.is_file()


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
