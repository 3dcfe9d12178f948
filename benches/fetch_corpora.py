"""Fetches reStructuredText and AsciiDoc documentation into a cache outside the repository.

    python benches/fetch_corpora.py [--dest ~/.cache/ferrochunk-corpora]

The quality benchmark (benches/quality.py) measures the text chunkers on real documents
of the formats they read; none of them may be committed, so they come from the package
registries the project can reach, through their ordinary clients:

- reStructuredText: the documentation sources in the sdists of Sphinx (``doc/``),
  docutils (``docs/``) and SQLAlchemy (``doc/``) (``pip download --no-binary :all:
  --no-deps``), every ``*.rst`` file;
- AsciiDoc: Git's documentation sources (Debian's ``git-doc``, ``apt-get download``;
  AsciiDoc in ``*.txt`` files, release notes left out) and AsciiDoc.py's own manual pages
  (its sdist, ``doc/*.txt``), renamed
  ``*.adoc`` so that the suffix says the format.

Layout: ``DEST/rst/<package>/...`` and ``DEST/asciidoc/<package>/...``; a package already
there is not fetched again. Versions are pinned so that every run measures the same text
(a pin the registry no longer serves is an error that names it). Tests never read this
cache; the benchmark uses it when it is there.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

# name: (version, the folder of its documentation sources)
RST_SDISTS = {
    "sphinx": ("9.0.4", "doc"),
    "docutils": ("0.23", "docs"),
    "sqlalchemy": ("2.0.36", "doc"),
}
ASCIIDOC_SDISTS = {"asciidoc": ("10.2.1", "doc")}
ASCIIDOC_DEBS = {"git-doc": "1:2.39.5-0+deb12u3"}


def run(cmd: list[str], cwd: Path) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"fetch_corpora: {' '.join(cmd)} failed:\n{done.stderr.strip()[-2000:]}")


def sdist(name: str, version: str, tmp: Path) -> Path:
    """The unpacked sdist of ``name==version``."""
    run(["pip", "download", "--no-binary", ":all:", "--no-deps", "-q", f"{name}=={version}"], tmp)
    archive = next(tmp.glob(f"{name}-*.tar.gz"), None) or next(tmp.glob("*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(tmp / "x", filter="data")
    return next((tmp / "x").iterdir())


def deb(name: str, version: str, tmp: Path) -> Path:
    """The unpacked Debian package ``name=version``."""
    run(["apt-get", "download", "-q", f"{name}={version}"], tmp)
    package = next(tmp.glob(f"{name}_*.deb"))
    run(["dpkg-deb", "-x", str(package), "x"], tmp)
    return tmp / "x"


def copy(files: list[Path], root: Path, dest: Path, suffix: str) -> int:
    """Copies ``files`` (relative to ``root``) under ``dest`` with ``suffix``; their count."""
    for f in files:
        target = (dest / f.relative_to(root)).with_suffix(suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
    return len(files)


def fetch(dest: Path) -> None:
    jobs = [("rst", n, v, d, "sdist") for n, (v, d) in RST_SDISTS.items()]
    jobs += [("asciidoc", n, v, d, "sdist") for n, (v, d) in ASCIIDOC_SDISTS.items()]
    jobs += [("asciidoc", n, v, f"usr/share/doc/{n}", "deb") for n, v in ASCIIDOC_DEBS.items()]
    for fmt, name, version, folder, kind in jobs:
        out = dest / fmt / name
        if out.exists():
            print(f"{fmt}/{name}: already there")
            continue
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            root = sdist(name, version, tmp) if kind == "sdist" else deb(name, version, tmp)
            docs = root / folder
            pattern = "*.rst" if fmt == "rst" else "*.txt"
            files = sorted(p for p in docs.rglob(pattern) if "RelNotes" not in p.parts)
            n = copy(
                files, docs, out.with_name(name + ".part"), "." + fmt.replace("asciidoc", "adoc")
            )
            out.with_name(name + ".part").rename(out)
        print(f"{fmt}/{name} {version}: {n} files")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = Path.home() / ".cache" / "ferrochunk-corpora"
    parser.add_argument("--dest", type=Path, default=default)
    fetch(parser.parse_args().dest.expanduser())


if __name__ == "__main__":
    main()
