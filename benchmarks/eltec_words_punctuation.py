"""Punctuation against words per ELTeC language, on whole novels (issue 34): from the stored
whole-novel runs (``docs/evidence/eltec_<lang>_whole/``, written by ``store_default_run.py``), one
table per (language, task) of each method's accuracy (mean and sd over seeds) and the paired
difference of the best punctuation network and the best word method, seed by seed (the same
split: the word baselines run beside the punctuation rows).

    python benchmarks/eltec_words_punctuation.py docs/evidence/eltec_fra_whole ... \\
        --out docs/evidence/eltec_words_punctuation
    python benchmarks/eltec_words_punctuation.py docs/evidence/eltec_fra_authors_words --tasks author \\
        --each --out docs/evidence/eltec_fra_authors_paired

``--tasks``: the recognition tasks compared (default: time_slot and gender; ``author`` for a run
of the author rows with their word baselines, e.g. the three-novel authors' excerpts).
``--each``: also the best punctuation network against each word-only method, seed by seed
(``best_punctuation_minus_each_words.csv``). A task with several class rows (e.g. 10 of a
collection's 33 three-novel authors, then all 33) gives one set of rows per row
(``n_classes``); seeds are paired within a row only.

Methods compared: KL nearest class on f3, the network on {f1,f3,f4,f5} and on all features
(punctuation); Burrows' Delta and the network on the 500 most frequent training words, the
network on words and all punctuation features (words). The paired difference of two methods is
``d_s = acc_a(s) - acc_b(s)`` per seed ``s``; reported as the mean and sd (ddof 1) of ``d_s`` and
the seeds where ``d_s > 0``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

METHODS: tuple[tuple[str, str, str, str], ...] = (
    ("punctuation", "KL nearest class, f3", "kl", "f3"),
    ("punctuation", "network, {f1,f3,f4,f5}", "mlp", "f1+f3+f4+f5"),
    ("punctuation", "network, all features", "mlp", "all"),
    ("words", "Delta, 500 words", "delta", "words500"),
    ("words", "network, 500 words", "mlp", "words500"),
    ("words", "network, 500 words + all features", "mlp", "all+words500"),
)
TASKS = ("time_slot", "gender")


def class_rows(folder: Path, task: str) -> list[int]:
    """The class counts of one task's rows in a stored run (one per row of its Tables 2-3)."""
    return sorted(int(n) for n in pd.read_csv(folder / f"{task}_results.csv")["n_classes"].unique())


def per_seed(folder: Path, task: str, n_classes: int) -> pd.DataFrame:
    """Accuracy per seed (rows) and method label (columns) of the ``n_classes`` row of one task of
    a stored run."""
    frames = [pd.read_csv(folder / f"{task}_results.csv"), pd.read_csv(folder / f"{task}_words_results.csv")]
    rows = pd.concat(frames, ignore_index=True)
    rows = rows[rows["n_classes"] == n_classes]
    columns = {}
    for _, label, method, feature_set in METHODS:
        chosen = rows[(rows["method"] == method) & (rows["feature_set"] == feature_set)]
        columns[label] = chosen.set_index("seed")["accuracy"]
    return pd.DataFrame(columns).sort_index()


def paired(a: pd.Series, b: pd.Series) -> dict[str, float]:
    """Mean and sd (ddof 1) over seeds of ``a - b``, and the seeds where it is positive."""
    d = a - b
    return {"difference": float(d.mean()), "difference_sd": float(d.std(ddof=1)), "seeds_above": int((d > 0).sum()),
            "seeds": int(d.size)}


def language_rows(folder: Path, tasks: tuple[str, ...] = TASKS) -> tuple[list[dict], list[dict], list[dict]]:
    """(method rows, best-against-best rows, best punctuation against each word-only method) of
    the ``tasks`` of one stored run."""
    language = json.loads((folder / "run.json").read_text(encoding="utf-8"))["config"]["my.yaml"]["tei"]["path"]
    language = Path(language).name
    methods, comparisons, each = [], [], []
    for task, n_classes in [(task, n) for task in tasks for n in class_rows(folder, task)]:
        table = per_seed(folder, task, n_classes)
        summary = pd.read_csv(folder / f"{task}_summary.csv")
        baseline = float(summary.loc[summary["n_classes"] == n_classes, "baseline"].iloc[0])
        for kind, label, _, _ in METHODS:
            methods.append({"collection": language, "task": task, "n_classes": n_classes, "kind": kind, "method": label,
                            "accuracy": float(table[label].mean()), "accuracy_sd": float(table[label].std(ddof=1)),
                            "baseline": baseline})
        punctuation = [label for kind, label, _, _ in METHODS if kind == "punctuation"]
        words = [label for kind, label, _, _ in METHODS if kind == "words" and "+" not in label]
        best_p = max(punctuation, key=lambda m: table[m].mean())
        best_w = max(words, key=lambda m: table[m].mean())
        comparisons.append({"collection": language, "task": task, "n_classes": n_classes, "best_punctuation": best_p, "best_words": best_w,
                            **paired(table[best_p], table[best_w])})
        each += [{"collection": language, "task": task, "n_classes": n_classes, "best_punctuation": best_p, "words": label,
                  **paired(table[best_p], table[label])} for label in words]
    return methods, comparisons, each


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tasks", nargs="+", default=list(TASKS))
    parser.add_argument("--each", action="store_true")
    args = parser.parse_args()
    own = commit()
    methods, comparisons, each = [], [], []
    for folder in args.folders:
        m, c, e = language_rows(folder, tuple(args.tasks))
        methods += m
        comparisons += c
        each += e
    methods_table, comparison_table = pd.DataFrame(methods), pd.DataFrame(comparisons)
    tables = {"methods.csv": methods_table, "best_punctuation_minus_best_words.csv": comparison_table}
    if args.each:
        tables["best_punctuation_minus_each_words.csv"] = pd.DataFrame(each)
    for table in tables.values():
        print(table.round(3).to_string(index=False))
    write_evidence(args.out, tables,
                   {"command": "python benchmarks/eltec_words_punctuation.py "
                    + " ".join(f"docs/evidence/{f.name}" for f in args.folders)
                    + ("" if tuple(args.tasks) == TASKS else " --tasks " + " ".join(args.tasks))
                    + (" --each" if args.each else "") + f" --out docs/evidence/{args.out.name}",
                    "commit": own, "sources": [f"docs/evidence/{f.name}/" for f in args.folders]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
