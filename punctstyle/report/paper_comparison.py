"""Our recognition tables beside the paper's printed values (Tables 2-4 of Darmon et al.):
for each cell, the difference to the paper in absolute terms and in standard deviations over
our seeds (the paper reports single runs).

    python -m punctstyle.report.paper_comparison results/analysis/recognition/author_summary.csv ...

prints one markdown table per (task, method) for the rows whose number of classes the paper
also has (the corpus decides which: 10 and 50 authors on a small mirror).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable

import pandas as pd

from punctstyle.report.render import markdown_table

PAPER_SETS: tuple[str, ...] = ("f1", "f3", "f4", "f5", "f1+f3+f4+f5", "all")

PAPER_ACCURACY: dict[tuple[str, str, int], dict[str, float]] = {
    # Table 2: KL nearest class (authors)
    ("author", "kl", 10): {"f1": 0.69, "f3": 0.74, "f4": 0.52, "f5": 0.63, "baseline": 0.21},
    ("author", "kl", 50): {"f1": 0.54, "f3": 0.66, "f4": 0.30, "f5": 0.31, "baseline": 0.029},
    ("author", "kl", 100): {"f1": 0.37, "f3": 0.49, "f4": 0.25, "f5": 0.23, "baseline": 0.019},
    ("author", "kl", 200): {"f1": 0.30, "f3": 0.47, "f4": 0.16, "f5": 0.20, "baseline": 0.0079},
    ("author", "kl", 400): {"f1": 0.27, "f3": 0.41, "f4": 0.15, "f5": 0.16, "baseline": 0.0047},
    # Table 3: the network (authors)
    ("author", "mlp", 10): dict(zip((*PAPER_SETS, "baseline"), (0.89, 0.93, 0.64, 0.80, 0.89, 0.87, 0.21), strict=True)),
    ("author", "mlp", 50): dict(zip((*PAPER_SETS, "baseline"), (0.65, 0.81, 0.44, 0.49, 0.81, 0.82, 0.029), strict=True)),
    ("author", "mlp", 100): dict(zip((*PAPER_SETS, "baseline"), (0.55, 0.79, 0.37, 0.39, 0.79, 0.80, 0.019), strict=True)),
    ("author", "mlp", 200): dict(zip((*PAPER_SETS, "baseline"), (0.46, 0.71, 0.23, 0.32, 0.71, 0.75, 0.0079), strict=True)),
    ("author", "mlp", 400): dict(zip((*PAPER_SETS, "baseline"), (0.39, 0.70, 0.23, 0.27, 0.71, 0.73, 0.0047), strict=True)),
    ("author", "mlp", 600): dict(zip((*PAPER_SETS, "baseline"), (0.37, 0.70, 0.21, 0.25, 0.61, 0.74, 0.0029), strict=True)),
    ("author", "mlp", 651): dict(zip((*PAPER_SETS, "baseline"), (0.36, 0.62, 0.20, 0.23, 0.67, 0.72, 0.0024), strict=True)),
    # Table 4: the network (genres)
    ("genre", "mlp", 32): dict(zip((*PAPER_SETS, "baseline"), (0.56, 0.65, 0.37, 0.40, 0.61, 0.64, 0.094), strict=True)),
}
"""The paper's accuracies (and baselines) by (task, method, number of classes), as printed."""


def difference_in_sd(ours: float, sd: float, paper: float) -> float:
    """``(ours - paper) / sd``: the gap in standard deviations over seeds (NaN without a spread)."""
    if sd is None or math.isnan(sd) or sd <= 0:
        return math.nan
    return (ours - paper) / sd


def comparison_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per cell that the paper also reports: task, method, classes, feature set, paper,
    ours (mean and sd over seeds), seeds, difference and difference / sd."""
    rows = []
    for _, line in summary.iterrows():
        paper = PAPER_ACCURACY.get((line["task"], line["method"], int(line["n_classes"])))
        if paper is None:
            continue
        for name, value in paper.items():
            mean_column = "baseline" if name == "baseline" else f"accuracy[{name}]"
            sd_column = "baseline_std" if name == "baseline" else f"accuracy_std[{name}]"
            if mean_column not in line or pd.isna(line[mean_column]):
                continue
            ours, sd = float(line[mean_column]), float(line[sd_column])
            rows.append({
                "task": line["task"], "method": line["method"], "classes": int(line["n_classes"]),
                "feature set": name, "paper": value, "ours": ours, "sd": sd, "seeds": int(line["n_seeds"]),
                "difference": ours - value, "difference / sd": difference_in_sd(ours, sd, value),
            })
    return pd.DataFrame(rows)


def comparison_markdown(summaries: Iterable[pd.DataFrame]) -> str:
    """Markdown of :func:`comparison_rows` for several ``{task}_summary.csv`` frames."""
    frames = [comparison_rows(summary) for summary in summaries]
    table = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else None
    if table is None:
        return "No row of the paper's tables has the same number of classes.\n"
    formats = {"paper": ".3g", "ours": ".3f", "sd": ".3f", "difference": "+.3f", "difference / sd": "+.1f"}
    return markdown_table(table, formats)


if __name__ == "__main__":
    sys.stdout.write(comparison_markdown(pd.read_csv(path) for path in sys.argv[1:]))
