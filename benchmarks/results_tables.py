"""Tables 2-4, the word-baseline table and the validation hold-out tables of docs/results.md from
a stored run (docs/evidence/default_run/, and docs/evidence/protocol_rows/ beside it): the
markdown rows that the page quotes, printed
(``punctstyle.report.results_tables``; tests/unit/test_results_tables.py fails when the page's
tables differ from these, tests/unit/test_evidence.py when a decimal is not stored).

    python benchmarks/results_tables.py docs/evidence/default_run

Reads ``author_summary.csv``, ``author_words_summary.csv``, ``genre_summary.csv`` (mean and sd over
seeds), ``paper_comparison.csv`` (difference to the paper, and in sd over seeds) and
``paper_tables.csv`` (the paper's values); from protocol_rows/ ``author_validation_summary.csv``,
``genre_validation_summary.csv`` and ``protocol_effect.csv`` (paired by seed).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from punctstyle.report.results_tables import results_tables


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("evidence", type=Path)
    args = parser.parse_args()
    for name, lines in results_tables(args.evidence).items():
        print(f"{name}\n")
        print("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
