"""Builds span-labelled question sets from real text, none drawn by a chunker's rules.

    python benches/labelled_docs.py [--cache ~/.cache/ferrochunk-corpora] [--questions 1000]

Sets (written as span JSONL to ``CACHE/labelled/<set>/{questions,docs}.jsonl``, which
``ferrochunk eval --data .../questions.jsonl --docs .../docs.jsonl`` reads):

- ``docs-rst``: Python's own documentation sources (Debian's ``python3.11-doc``, pinned,
  ``_sources/*.rst.txt`` of the tutorial, HOWTOs, FAQ, reference, using, extending, renamed
  ``.rst``) and the RST docs ``benches/fetch_corpora.py`` fetched, if there; answers are
  blocks docutils finds (paragraphs, list items, definition-list items, table rows);
- ``docs-md``: the shared corpus's English Markdown (``../shared/corpus/en-markdown``, read
  in place), blocks markdown-it-py finds;
- ``prose-plain``, ``prose-wikitext``, ``prose-chat``, ``prose-pdf``: the prose paragraphs
  of Python's What's New, tutorial and HOWTOs (docutils), or of the shared Markdown when
  those were not fetched, rewritten (``ferrochunk.eval.variants``); answers are 1-3 pysbd
  sentences, a third across a paragraph seam.

Everything fetched goes to the cache, outside the repository; nothing here is committed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # corpus.py
sys.path.insert(0, str(Path(__file__).resolve().parent))  # fetch_corpora.py

import corpus
import fetch_corpora
from ferrochunk.eval import (
    Dataset,
    answered_only,
    labelled_questions,
    load_span_questions,
    paragraphs_of,
    prose_variants,
    write_spans,
)

PYTHON_DOC = ("python3.11-doc", "3.11.2-6+deb12u9")
SOURCES = "usr/share/doc/python3.11/html/_sources"
LABELLED = ("tutorial", "howto", "faq", "reference", "using", "extending")
PROSE = ("whatsnew", "tutorial", "howto")
SETS = ("docs-rst", "docs-md", "prose-plain", "prose-wikitext", "prose-chat", "prose-pdf")
DEFAULT_CACHE = Path.home() / ".cache" / "ferrochunk-corpora"


def python_docs(cache: Path) -> Path:
    """``CACHE/rst/python``: Python's documentation sources, fetched once."""
    out = cache / "rst" / "python"
    if not out.exists():
        name, version = PYTHON_DOC
        with tempfile.TemporaryDirectory() as tmp_name:
            root = fetch_corpora.deb(name, version, Path(tmp_name)) / SOURCES
            part = out.with_name("python.part")
            for f in sorted(root.rglob("*.rst.txt")):
                target = part / f.relative_to(root).as_posix().removesuffix(".txt")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, target)
            part.rename(out)
        print(f"fetched {name} {version} into {out}", file=sys.stderr)
    return out


def read(root: Path, folders: tuple[str, ...], suffix: str) -> dict[str, str]:
    """The ``suffix`` files under ``root/<folder>`` (id: path relative to ``root``)."""
    files = sorted(p for f in folders for p in (root / f).rglob(f"*{suffix}"))
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in files}


def rst_documents(cache: Path) -> dict[str, str]:
    docs = {f"python/{k}": v for k, v in read(python_docs(cache), LABELLED, ".rst").items()}
    for package in ("sphinx", "docutils", "sqlalchemy"):  # benches/fetch_corpora.py's
        if (cache / "rst" / package).is_dir():
            docs.update(
                {f"{package}/{k}": v for k, v in read(cache / "rst", (package,), ".rst").items()}
            )
    return docs


def markdown_documents() -> dict[str, str]:
    root = corpus.CORPUS / "en-markdown"
    if not root.is_dir():
        sys.exit(f"labelled_docs: {corpus.MISSING}")
    return read(corpus.CORPUS, ("en-markdown",), ".md")


def prose_source(cache: Path, offline: bool) -> tuple[str, dict[str, list[str]]]:
    """Where the prose variants' paragraphs come from, and the paragraphs."""
    if not offline:
        docs = read(python_docs(cache), PROSE, ".rst")
        return f"Python {PYTHON_DOC[1]} docs ({', '.join(PROSE)})", paragraphs_of(docs)
    return "shared en-markdown", paragraphs_of(markdown_documents())


def build(cache: Path, n: int, seed: int, offline: bool = False) -> dict[str, Dataset]:
    """Every set (``offline``: without fetching, so without ``docs-rst``)."""
    sets = {}
    if not offline:
        sets["docs-rst"] = labelled_questions(rst_documents(cache), n, seed=seed, name="docs-rst")
    sets["docs-md"] = labelled_questions(markdown_documents(), n, seed=seed, name="docs-md")
    source, paragraphs = prose_source(cache, offline)
    for data in prose_variants(paragraphs, n, seed=seed).values():
        data.notes["prose from"] = source
        sets[data.name] = data
    return {k: answered_only(v) for k, v in sets.items()}


def load(cache: Path) -> dict[str, Dataset]:
    """The sets written before, by name (those there)."""
    out = {}
    for name in SETS:
        folder = cache / "labelled" / name
        if (folder / "questions.jsonl").is_file():
            data = load_span_questions(folder / "questions.jsonl", folder / "docs.jsonl")
            data.name = name
            notes = folder / "notes.json"
            if notes.is_file():
                data.notes.update(json.loads(notes.read_text(encoding="utf-8")))
            out[name] = data
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    p.add_argument("--questions", type=int, default=1000, help="questions per set (at most)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--offline", action="store_true", help="fetch nothing (no docs-rst)")
    args = p.parse_args()
    cache = args.cache.expanduser()
    for name, data in build(cache, args.questions, args.seed, args.offline).items():
        questions, _ = write_spans(data, cache / "labelled" / name)
        print(
            f"{name}: {len(data.questions)} questions over {len(data.documents)} documents -> "
            f"{questions}"
        )
        for key, value in data.notes.items():
            print(f"    {key}: {value}")


if __name__ == "__main__":
    main()
