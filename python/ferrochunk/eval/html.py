"""``ferrochunk eval --html``: the tables, the chart and, per configuration, the questions
missed, each answer shown with the chunk boundaries that cut it (one offline page: the chart
inlined as a ``data:`` URI, no script)."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from .._atomic import write_text

STYLE = """body{font-family:system-ui,sans-serif;margin:1rem 2rem;max-width:70rem}
pre{background:#f6f6f6;padding:.5rem;overflow:auto}
.answer{font:0.85rem/1.5 ui-monospace,monospace;white-space:pre-wrap;background:#fff3c4}
.cut{color:#fff;background:#d62828;font-weight:700;padding:0 .15rem}
li{margin-bottom:.6rem}"""


def answer_html(text: str, start: int, end: int, cuts: list[int]) -> str:
    """The answer ``text[start:end]`` with a marker at every chunk boundary inside it."""
    parts, pos = [], start
    for cut in cuts:
        parts.append(html.escape(text[pos:cut]))
        parts.append('<span class="cut" title="chunk boundary">|</span>')
        pos = cut
    parts.append(html.escape(text[pos:end]))
    return "".join(parts)


def write_html(
    report: dict[str, Any], tables: str, chart: Path, documents: dict[str, str], path: Path
) -> None:
    """The page, written to ``path``."""
    png = base64.b64encode(chart.read_bytes()).decode("ascii") if chart.is_file() else ""
    out = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        '<link rel="icon" href="data:,"><title>ferrochunk eval</title>',
        f"<style>{STYLE}</style></head><body><h1>ferrochunk eval</h1>",
        f"<pre>{html.escape(tables)}</pre>",
    ]
    if png:
        out.append(f'<img alt="recall against context" src="data:image/png;base64,{png}">')
    for label, missed in report.get("missed", {}).items():
        out.append(f"<h2>{html.escape(label)}: questions missed</h2>")
        if not missed:
            out.append("<p>None of the questions with answer spans was missed.</p>")
            continue
        out.append("<ol>")
        for m in missed:
            text = documents.get(m["doc"], "")
            cuts = len(m["cuts"])
            why = (
                f"cut {cuts} time{'s' * (cuts != 1)}" if cuts else "whole in a chunk not retrieved"
            )
            answer = answer_html(text, m["start"], m["end"], m["cuts"])
            out.append(
                f'<li data-qid="{html.escape(m["qid"])}" data-cuts="{cuts}">'
                f"<b>{html.escape(m['query'])}</b> ({html.escape(m['doc'])}; answer {why})"
                f'<div class="answer">{answer}</div></li>'
            )
        out.append("</ol>")
    out.append("</body></html>\n")
    write_text(path, "\n".join(out))  # whole or not at all


__all__ = ["answer_html", "write_html"]
