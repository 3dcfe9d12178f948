"""The report of a run: tables for the terminal (Markdown pipe tables, so they paste into
docs), the JSON file, and a PNG chart of recall against context tokens."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._atomic import replaced
from .whole import DEFINED


def _size(row: dict[str, Any]) -> str:
    return f"{row['size']} {'tok' if row['unit'] == 'tokens' else 'ch'}"


def _whole(row: dict[str, Any]) -> str:
    value = row.get("answers_whole")
    return "n/a" if value is None else f"{100 * value:.1f}"


def _table(head: Sequence[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def tables(report: dict[str, Any]) -> str:
    """The retrieval table (with answers whole, ``n/a`` without spans), the boundary table
    and the skipped configurations, as text."""
    k = report["k"]
    done = [r for r in report["results"] if "skipped" not in r]
    retrieval = [
        [
            r["chunker"],
            _size(r),
            str(r["overlap"]),
            str(r["boundaries"]["chunks"]),
            _whole(r),
            f"{r['context_tokens']:.0f}",
            f"{100 * r['recall_strict']:.1f}",
            f"{100 * r['recall_lenient']:.1f}",
            f"{r['mrr_strict']:.3f}",
            f"{r['ndcg_strict']:.3f}",
            f"{r['span_precision']:.3f}",
            f"{r['span_recall']:.3f}",
            f"{r['span_iou']:.3f}",
            f"{r['timing']['chunk_s'] + r['timing']['index_s']:.2f}",
            f"{r['timing']['ms_per_query']:.2f}",
        ]
        for r in done
    ]
    head = ["chunker", "size", "overlap", "chunks", "whole %", "tokens/query", f"R@{k} strict %"]
    head += [f"R@{k} lenient %", f"MRR@{k}", f"nDCG@{k}", "span P", "span R", "IoU"]
    head += ["chunk+index s", "ms/query"]
    boundary = [
        [r["chunker"], _size(r), str(r["overlap"])]
        + [f"{r['boundaries'][key]:.1f}" for key in _BOUNDARY_KEYS]
        for r in done
    ]
    bhead = ["chunker", "size", "overlap", "mid-sentence %", "cut blocks %", "tiny %"]
    bhead += ["oversize %", "coverage %", "dangling %"]
    data = report["dataset"]
    drawn = f"; answers drawn by {data['segmenter']}" if data.get("segmenter") else ""
    parts = [
        f"{data['kind']} questions: {data['questions']} over {data['documents']} documents "
        f"({data['name']}{drawn}); retriever {report['retriever']}, k = {k}",
        _table(head, retrieval),
        f"whole %: {report.get('answers_whole', DEFINED)}",
        _table(bhead, boundary),
    ]
    skipped = [r for r in report["results"] if "skipped" in r]
    if skipped:
        parts.append(
            "skipped:\n"
            + "\n".join(
                f"  {r['chunker']} {_size(r)}/{r['overlap']}: {r['skipped']}" for r in skipped
            )
        )
    return "\n\n".join(parts)


_BOUNDARY_KEYS = (
    "mid_sentence_pct",
    "cut_blocks_pct",
    "tiny_pct",
    "oversize_pct",
    "coverage_pct",
    "dangling_headings_pct",
)


def write_json(report: dict[str, Any], path: Path) -> None:
    """The report as indented JSON (keys in a fixed order)."""
    text = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
    with replaced(str(path)) as temp:  # whole or not at all (ferrochunk/_atomic.py)
        Path(temp).write_text(text, encoding="utf-8")


def write_chart(report: dict[str, Any], path: Path) -> None:
    """Strict (solid) and lenient (dashed) Recall@K against context tokens per query; one
    line per chunker (and overlap and unit), through its sizes."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("the chart needs matplotlib: pip install 'ferrochunk[eval]'") from None
    lines: dict[str, list[dict[str, Any]]] = {}
    for r in report["results"]:
        if "skipped" not in r:
            name = f"{r['chunker']} ({r['unit']}, overlap {r['overlap']})"
            lines.setdefault(name, []).append(r)
    fig = Figure(figsize=(8, 5), dpi=110)
    ax = fig.add_subplot()
    for n, (name, rows) in enumerate(sorted(lines.items())):
        rows = sorted(rows, key=lambda r: r["context_tokens"])
        x = [r["context_tokens"] for r in rows]
        color = f"C{n % 10}"
        ax.plot(x, [100 * r["recall_strict"] for r in rows], "o-", color=color, label=name)
        ax.plot(x, [100 * r["recall_lenient"] for r in rows], "--", color=color, alpha=0.4)
        for r in rows:
            ax.annotate(
                str(r["size"]),
                (r["context_tokens"], 100 * r["recall_strict"]),
                fontsize=7,
                xytext=(3, -9),
                textcoords="offset points",
            )
    k, data = report["k"], report["dataset"]
    ax.set_xlabel("context tokens per query (cl100k, top-k chunks)")
    ax.set_ylabel(f"Recall@{k} % (solid: strict, dashed: lenient)")
    ax.set_title(
        f"{data['name']}: {data['questions']} {data['kind']} questions, {report['retriever']}",
        fontsize=10,
    )
    ax.grid(alpha=0.3)
    if lines:
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    with replaced(str(path)) as temp:
        fig.savefig(temp, format="png")
