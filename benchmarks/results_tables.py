"""The generated tables of docs/results.md and docs/performance.md: Tables 2-4, the word-baseline
table and the validation hold-out tables of docs/results.md from a stored run
(docs/evidence/default_run/, and docs/evidence/protocol_rows/ beside it), and every table either
page marks with a ``<!-- table: CSV | ... -->`` comment (``punctstyle.report.table_spec``) from
its stored CSVs (or ``run.json``). tests/unit/test_results_tables.py fails when a table of either
page differs from these, tests/unit/test_evidence.py when a decimal is not stored.

    python benchmarks/results_tables.py docs/evidence/default_run                           # print
    python benchmarks/results_tables.py docs/evidence/default_run --write docs/results.md docs/performance.md

Reads ``author_summary.csv``, ``author_words_summary.csv``, ``genre_summary.csv`` (mean and sd over
seeds), ``paper_comparison.csv`` (difference to the paper, and in sd over seeds) and
``paper_tables.csv`` (the paper's values); from protocol_rows/ ``author_validation_summary.csv``,
``genre_validation_summary.csv`` and ``protocol_effect.csv`` (paired by seed). With ``--write``
each page's tables are replaced in place (atomically), the rest of the page unchanged: on
docs/results.md the tables above and the marked ones, on another page (docs/performance.md) its
marked tables only; the marked tables' CSV paths are relative to the repository root (the current
folder). Each page is reported ``rewritten`` or ``unchanged``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from punctstyle.io import atomic_open
from punctstyle.report.results_tables import results_tables, rewrite_docs_page


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("evidence", type=Path)
    parser.add_argument("--write", type=Path, nargs="+",
                        help="the pages (docs/results.md docs/performance.md) whose tables are rewritten in place")  # fmt: skip
    args = parser.parse_args()
    if args.write:
        for page in args.write:
            text = page.read_text(encoding="utf-8")
            new = rewrite_docs_page(text, args.evidence, Path.cwd(), str(page))
            with atomic_open(page, "w", encoding="utf-8", newline="") as handle:
                handle.write(new)
            print(f"{page}: {'rewritten' if new != text else 'unchanged'}")
        return 0
    for name, lines in results_tables(args.evidence).items():
        print(f"{name}\n")
        print("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
