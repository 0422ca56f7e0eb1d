"""Counts and settings that stored evidence folders hold only implicitly, stored beside them so that
every whole number of the record is traced (issue 35): each row ``quantity,value,source``, the
source naming the stored CSV, the run folder or the ``config/config.yaml`` key it comes from.

    python benchmarks/store_counts.py --results RESULTS [--evidence docs/evidence]

RESULTS is the default run's results folder (docs/evidence/default_run/, its ``run.json`` gives
the command: the defaults of ``config/config.yaml`` with a mirror block only). Writes, and changes
no other file of the folders:

- ``length_curve/settings.csv``: the excerpt lengths n (the ``length`` column of ``results.csv``),
  the word methods' vocabulary sizes k (its ``words<k>`` feature sets), and per n the corpus books
  with fewer than n marks and their share (``n_marks`` of RESULTS' ``corpus/f1.parquet``);
- ``protocol_rows/counts.csv``: per task and class size the cells of ``protocol_effect.csv``, those
  whose mean effect is at least 0, those whose mean effect exceeds its sd over seeds (|effect| >
  effect_sd) and the others, and the networks' ``recognition.mlp`` settings of the rows (the
  schema's defaults, which ``benchmarks/recognition_rows.py`` starts from);
- ``authors_code/counts.csv``: each mark's total over ``books.csv``, ours and theirs;
- ``default_run/settings.csv``: ``recognition.words.pool_per_book`` of the config;
- ``default_run/paper.csv``: the paper's Table 4 training and test documents of its 32-genre row
  (``punctstyle.report.results_tables.PAPER_GENRE_SIZES``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from punctstyle.io import atomic_open
from punctstyle.report.results_tables import PAPER_GENRE_SIZES
from punctstyle.settings import schema_defaults

REPO = Path(__file__).resolve().parents[1]
COLUMNS = ["quantity", "value", "source"]


def config_value(config: dict, key: str) -> float:
    """The value of a dotted ``key`` (``recognition.mlp.max_epochs``) of a parsed configuration."""
    value = config
    for part in key.split("."):
        value = value[part]
    return value


def length_settings(results_csv: pd.DataFrame, n_marks: np.ndarray) -> pd.DataFrame:
    """The curve's lengths n, its vocabulary sizes k, and per n the books with ``n_marks < n``
    (count, and share = count / books)."""
    lengths = sorted({int(n) for n in results_csv["length"].astype(str) if n.isdigit()})
    sizes = sorted({int(m.group(1)) for m in map(re.compile(r"words(\d+)$").match, results_csv["feature_set"]) if m})
    rows = [("length_marks", n, "length column of results.csv (config length_curve.lengths)") for n in lengths]
    rows += [("word_vocabulary_k", k, "feature sets words<k> of results.csv (config length_curve.methods)")
             for k in sizes]  # fmt: skip
    for n in lengths:
        shorter = int((n_marks < n).sum())
        source = f"corpus/f1.parquet of the run: books with n_marks < {n} (of {len(n_marks)})"
        rows += [(f"books_shorter_than_{n}", shorter, source),
                 (f"share_shorter_than_{n}", shorter / len(n_marks), source)]  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def protocol_counts(effect: pd.DataFrame, defaults: dict) -> pd.DataFrame:
    """Per task and class size of ``protocol_effect.csv``: its cells, the cells with effect >= 0,
    with |effect| > effect_sd and with |effect| <= effect_sd; per task the same over its class
    sizes; the schema's ``recognition.mlp`` defaults the rows ran with (``recognition_rows.py``
    starts from them)."""
    rows = []
    groups = [(task, classes, part) for (task, classes), part in effect.groupby(["task", "n_classes"])]
    groups += [(task, "all", part) for task, part in effect.groupby("task")]
    for task, classes, part in groups:
        beyond_sd = part["effect"].abs() > part["effect_sd"]
        source = f"protocol_effect.csv, task {task}, n_classes {classes}"
        rows += [(f"{task}_{classes}_cells", len(part), source),
                 (f"{task}_{classes}_cells_effect_at_least_0", int((part["effect"] >= 0).sum()), source),
                 (f"{task}_{classes}_cells_effect_beyond_sd", int(beyond_sd.sum()), source),
                 (f"{task}_{classes}_cells_within_sd", int((~beyond_sd).sum()), source)]  # fmt: skip
    for key in ("max_epochs", "patience", "validation_fraction"):
        rows.append((key, config_value(defaults, f"recognition.mlp.{key}"), f"schema default recognition.mlp.{key}"))
    return pd.DataFrame(rows, columns=COLUMNS)


def mark_totals(books: pd.DataFrame) -> pd.DataFrame:
    """Each ``ours <mark>`` and ``theirs <mark>`` column of ``books.csv`` summed over its books."""
    marked = [c for c in books.columns if c.startswith(("ours ", "theirs "))]
    return pd.DataFrame([(f"total {c}", int(books[c].sum()), "books.csv: sum of the column") for c in marked],
                        columns=COLUMNS)  # fmt: skip


def write_table(path: Path, frame: pd.DataFrame) -> None:
    """``frame`` as CSV (6 significant digits), written atomically."""
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False, float_format="%.6g")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="the default run's results folder")
    parser.add_argument("--evidence", type=Path, default=REPO / "docs" / "evidence")
    args = parser.parse_args()
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    ev = args.evidence
    n_marks = pd.read_parquet(args.results / "corpus" / "f1.parquet", columns=["n_marks"])["n_marks"].to_numpy()
    curve = pd.read_csv(ev / "length_curve" / "results.csv", dtype={"length": str})
    write_table(ev / "length_curve" / "settings.csv", length_settings(curve, n_marks))
    effect = pd.read_csv(ev / "protocol_rows" / "protocol_effect.csv")
    write_table(ev / "protocol_rows" / "counts.csv", protocol_counts(effect, schema_defaults()))
    write_table(ev / "authors_code" / "counts.csv", mark_totals(pd.read_csv(ev / "authors_code" / "books.csv")))
    key = "recognition.words.pool_per_book"
    write_table(ev / "default_run" / "settings.csv",
                pd.DataFrame([(key, config_value(config, key), f"config/config.yaml {key}")], columns=COLUMNS))  # fmt: skip
    paper = pd.DataFrame({"table": ["Table 4", "Table 4"], "row": ["32 genres, network"] * 2,
                          "quantity": ["train", "test"], "paper": list(PAPER_GENRE_SIZES)})  # fmt: skip
    write_table(ev / "default_run" / "paper.csv", paper)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
