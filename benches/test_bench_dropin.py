"""Cold speed of ``ferrochunk.langchain``'s drop-ins and of ``MarkdownChunker`` against
LangChain: every round splits freshly made ``str`` objects (made outside the timed region);
the output must equal LangChain's. Paired ratios: ``python benches/dropin_ratios.py``."""

from __future__ import annotations

import pytest

from dropin_cases import CASES, COMPARED, fl, fresh, lc

_LANGCHAIN_OUTPUT: dict[str, list] = {}  # each case's LangChain output, made once


@pytest.mark.parametrize("impl", ["langchain", "ferrochunk"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_dropin_cold(benchmark, case: str, impl: str) -> None:
    items = CASES[case].inputs()
    split = CASES[case].make(fl if impl == "ferrochunk" else lc)
    benchmark.group = case
    benchmark.extra_info["bytes"] = sum(len(t.encode("utf-8")) for t in items)

    def run(batch: list[str]) -> list:
        return [split(text) for text in batch]

    out = benchmark.pedantic(run, setup=lambda: ((fresh(items),), {}), rounds=3)
    if impl == "langchain":
        _LANGCHAIN_OUTPUT[case] = out
    elif case in COMPARED:
        theirs = CASES[case].make(lc)
        expected = _LANGCHAIN_OUTPUT.get(case) or [theirs(text) for text in items]
        benchmark.extra_info["identical"] = out == expected
        assert out == expected
