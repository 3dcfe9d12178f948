"""Turn a pytest-benchmark JSON file into tables like docs/benchmarks.md (MB/s, ratios).

pytest benches --benchmark-enable --benchmark-json=bench.json && python benches/report.py bench.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def main(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    groups: dict[str, list[dict]] = defaultdict(list)
    for bench in data["benchmarks"]:
        groups[bench["group"]].append(bench)
    for group, benches in sorted(groups.items()):
        base = next(
            (b for b in benches if b["extra_info"].get("implementation") == "langchain"), None
        )
        print(f"\n### {group}\n")
        print("| implementation | size | MB/s (median) | vs LangChain | identical |")
        print("|---|---|---:|---:|---|")
        for b in sorted(benches, key=lambda b: b["stats"]["median"]):
            info = b["extra_info"]
            rate = info.get("megabytes", 0) / b["stats"]["median"]
            ratio = ""
            if base is not None:
                base_rate = base["extra_info"]["megabytes"] / base["stats"]["median"]
                ratio = f"{rate / base_rate:.1f}x"
            same = {True: "yes", False: "NO"}.get(info.get("identical"), "n/a")
            print(
                f"| {info.get('implementation')} | {info.get('size', '')} | {rate:.1f} | "
                f"{ratio} | {same} |"
            )


if __name__ == "__main__":
    main(sys.argv[1])
