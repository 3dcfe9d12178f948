"""NLTK data made here, offline: a Punkt sentence model (``punkt_tab``) trained on the
package's bundled English samples, and a small English stopword list. NLTK's own data would
be a download; the splitters only need *a* model, and LangChain's classes and ours are
compared on the same one."""

from __future__ import annotations

from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "python" / "ferrochunk" / "sample"
STOPWORDS = ["a", "an", "and", "is", "of", "the", "this", "to", "with"]


def make_nltk_data(root: Path) -> Path:
    """Write ``tokenizers/punkt_tab/english`` and ``corpora/stopwords/english`` under
    ``root`` (returned, for ``NLTK_DATA`` or ``nltk.data.path``)."""
    import nltk
    from nltk.tokenize.punkt import PunktTrainer, save_punkt_params

    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.iterdir())]
    trainer = PunktTrainer()
    trainer.train("\n\n".join(t for t in texts if t.isascii()), finalize=True)
    if str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))  # NLTK writes only inside its data roots
    punkt = root / "tokenizers" / "punkt_tab" / "english"
    punkt.parent.mkdir(parents=True, exist_ok=True)
    save_punkt_params(trainer.get_params(), dir=str(punkt))
    stopwords = root / "corpora" / "stopwords"
    stopwords.mkdir(parents=True, exist_ok=True)
    (stopwords / "english").write_text("\n".join(STOPWORDS) + "\n", encoding="utf-8")
    return root


def offline_download(resource: str, *args: object, **kwargs: object) -> bool:
    """Stands in for ``nltk.download``: succeeds for data already installed, refuses to
    fetch anything (no network here)."""
    import nltk

    paths = {"punkt_tab": "tokenizers/punkt_tab", "stopwords": "corpora/stopwords"}
    try:
        nltk.data.find(paths.get(resource, resource))
    except LookupError:
        raise RuntimeError(f"nltk.download({resource!r}) would download; no network") from None
    return True
