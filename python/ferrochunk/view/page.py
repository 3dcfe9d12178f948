"""One self-contained HTML page: the data as JSON, the style sheet and script inlined.

Nothing is fetched: no CDN, no font, not even a favicon (a ``data:`` one), so the page
opens offline and a browser logs no failed request.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page(docs: list[dict[str, Any]], title: str) -> str:
    """The HTML of ``docs``: each ``{"name", "text", "length", "views"}``, a view
    ``{"label", "chunks"}`` (see ``page.js`` for a chunk's fields)."""
    # `</` inside the JSON would end the script element: escaped as JSON allows.
    data = json.dumps({"docs": docs}, ensure_ascii=False).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{html.escape(title)}</title>
<style>{_asset("page.css")}</style></head>
<body><main id="main"></main>
<aside id="panel"><div id="summaries"></div><div id="detail"><h2>Click a chunk</h2>
<p>Bands are chunks (striped where two overlap); each badge is where a chunk ends and why.</p>
</div></aside>
<script id="data" type="application/json">{data}</script>
<script>{_asset("page.js")}</script>
</body></html>
"""


__all__ = ["page"]
