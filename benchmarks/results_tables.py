"""Tables 2-4 of docs/results.md from a stored run (docs/evidence/default_run/): the markdown
that the page quotes, printed, so that the page's tables are the stored values at the page's
precision (tests/unit/test_evidence.py checks them).

    python benchmarks/results_tables.py docs/evidence/default_run [--validation docs/evidence/protocol_rows]

Reads ``author_summary.csv``, ``genre_summary.csv`` (mean and sd over seeds), ``paper_comparison.csv``
(difference to the paper, and in sd over seeds) and ``paper_tables.csv`` (the paper's values).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pandas as pd

SETS = ("f1", "f3", "f4", "f5", "f1+f3+f4+f5", "all", "f7")


def cell(line: pd.Series, name: str) -> str:
    mean, sd = line.get(f"accuracy[{name}]"), line.get(f"accuracy_std[{name}]")
    if mean is None or pd.isna(mean):
        return ""
    return f"{mean:.3f}" + ("" if sd is None or pd.isna(sd) else f" ± {sd:.3f}")


def row(summary: pd.DataFrame, task: str, method: str, classes: int) -> pd.Series:
    found = summary[(summary["task"] == task) & (summary["method"] == method) & (summary["n_classes"] == classes)]
    if len(found) != 1:
        raise SystemExit(f"no single {task} {method} {classes}-class row")
    return found.iloc[0]


def paper_cells(paper: pd.DataFrame, task: str, method: str, classes: int, sets) -> list[str]:
    cells = paper[(paper["task"] == task) & (paper["method"] == method) & (paper["classes"] == classes)]
    values = dict(zip(cells["feature set"], cells["paper"], strict=True))
    return [paper_number(values[s]) if s in values else "" for s in sets]


def paper_number(value: float) -> str:
    """A paper value as printed there: at least two decimals (0.30, 0.094, 0.0079)."""
    text = format(value, "g")
    return f"{value:.2f}" if len(text.split(".")[-1]) < 2 or "." not in text else text


def difference_cells(comparison: pd.DataFrame, task: str, method: str, classes: int, sets) -> list[str]:
    found = comparison[(comparison["task"] == task) & (comparison["method"] == method) & (comparison["classes"] == classes)]
    out = []
    for s in sets:
        line = found[found["feature set"] == s]
        if len(line) != 1:
            out.append("")
            continue
        diff, in_sd = float(line["difference"].iloc[0]), float(line["difference / sd"].iloc[0])
        out.append(f"{diff:+.3f}" + ("" if math.isnan(in_sd) else f" ({in_sd:+.1f})"))
    return out


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("evidence", type=Path)
    args = parser.parse_args()
    paper = pd.read_csv(args.evidence / "paper_tables.csv")
    if (args.evidence / "author_summary.csv").is_file():
        author_tables(pd.read_csv(args.evidence / "author_summary.csv"),
                      pd.read_csv(args.evidence / "paper_comparison.csv"), paper)
    if (args.evidence / "genre_summary.csv").is_file():
        genre_table(pd.read_csv(args.evidence / "genre_summary.csv"), paper)
    return 0


def author_tables(author: pd.DataFrame, comparison: pd.DataFrame, paper: pd.DataFrame) -> None:
    n_authors = int(author["n_classes"].max())

    kl_sets = ("f1", "f3", "f4", "f5")
    rows = []
    for classes in (10, 50, n_authors):
        line = row(author, "author", "kl", classes)
        label = f"{classes} (all)" if classes == n_authors else str(classes)
        if classes != n_authors:
            rows.append([label, "", "", "paper", *paper_cells(paper, "author", "kl", classes, (*kl_sets, "baseline"))[:4], "",
                         paper_cells(paper, "author", "kl", classes, ("baseline",))[0]])
        rows.append([label, f"{line['n_train']:.0f}", f"{line['n_test']:.0f}", "ours", *[cell(line, s) for s in (*kl_sets, "f7")],
                     f"{line['baseline']:.3f}"])
        if classes != n_authors:
            rows.append([label, "", "", "difference (sd over seeds)", *difference_cells(comparison, "author", "kl", classes, kl_sets), "", ""])
    print("Table 2\n")
    print(table(["authors", "train", "test", "", "f1", "f3", "f4", "f5", "f7 (beyond the paper)", "baseline"], rows))

    mlp_sets = SETS[:6]
    rows = []
    for classes in (10, 50, n_authors):
        line = row(author, "author", "mlp", classes)
        label = f"{classes} (all)" if classes == n_authors else str(classes)
        if classes != n_authors:
            rows.append([label, "paper", *paper_cells(paper, "author", "mlp", classes, mlp_sets), "",
                         paper_cells(paper, "author", "mlp", classes, ("baseline",))[0]])
        rows.append([label, "ours, paper's protocol", *[cell(line, s) for s in SETS], f"{line['baseline']:.3f}"])
        if classes != n_authors:
            rows.append([label, "difference (sd over seeds)", *difference_cells(comparison, "author", "mlp", classes, mlp_sets), "", ""])
    print("\nTable 3\n")
    print(table(["authors", "", "f1", "f3", "f4", "f5", "{f1,f3,f4,f5}", "all", "f7", "baseline"], rows))


def genre_table(genre: pd.DataFrame, paper: pd.DataFrame) -> None:
    n_genres = int(genre["n_classes"].max())
    mlp_sets = SETS[:6]
    rows = [["32", "paper (network)", "1930", "483", *paper_cells(paper, "genre", "mlp", 32, mlp_sets), "",
             paper_cells(paper, "genre", "mlp", 32, ("baseline",))[0]]]
    for classes in (n_genres, 10):
        label = f"{classes} (all)" if classes == n_genres else str(classes)
        for method, name in (("mlp", "ours, network, paper's protocol"), ("kl", "ours, KL nearest class")):
            line = row(genre, "genre", method, classes)
            rows.append([label, name, f"{line['n_train']:.0f}", f"{line['n_test']:.0f}", *[cell(line, s) for s in SETS],
                         f"{line['baseline']:.3f}" if method == "mlp" else ""])
    print("\nTable 4\n")
    print(table(["genres", "", "train", "test", "f1", "f3", "f4", "f5", "{f1,f3,f4,f5}", "all", "f7", "baseline"], rows))


if __name__ == "__main__":
    raise SystemExit(main())
