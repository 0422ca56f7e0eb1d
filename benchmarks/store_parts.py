"""Store the paired comparisons behind results.md's parts and f3-importance sections (issue 35
item 2): each difference that the text claims, computed on the same units.

    python benchmarks/store_parts.py RESULTS --parts docs/evidence/parts_paired \
        --importance docs/evidence/parts_importance_top_k [--draws 1000 --seed 0]

RESULTS: a finished run's outdir (read only): its ``analysis/beyond/parts.csv`` (one row per
part, feature and number of parts ``p``) and ``analysis/beyond/f3_importance/*.json`` (one per
class size and seed).

``parts_paired.csv``: for two indicators ``a_i, b_i`` of the same parts ``i`` (the same book,
``p`` and part), the shares ``mean(a)``, ``mean(b)``, their difference ``mean(a - b)``, the parts
where only one holds, and a 95% interval of the difference from ``--draws`` bootstrap resamples
of the books (a book's parts stay together: ``sum_books d / sum_books n`` over books drawn with
replacement). Compared: "closer to own book" (KL to the rest of the book below KL to the nearest
other author's mean) against "closer to own author" (KL to the author's other books' mean below
the same), and ``KL rest < KL own author``, per feature and ``p``; and features against each
other on each indicator (f3 against f1 and f5).

``importance_top_k_paired.csv``: per class size, method and ``k``, the accuracy on the top-k
entries minus the accuracy on every entry, paired by seed: mean, sd over seeds (``ddof = 1``) and
the seeds in which the top-k accuracy is lower.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402

KEY = ["book_id", "n_parts", "part"]
FEATURE_PAIRS = (("f3", "f1"), ("f3", "f5"))


def bootstrap_interval(diff: np.ndarray, books: np.ndarray, draws: int, rng: np.random.Generator) -> tuple[float, float]:
    """2.5% and 97.5% quantiles of ``sum d / sum n`` over books drawn with replacement (``d``:
    a book's summed differences, ``n``: its parts)."""
    codes, _ = pd.factorize(books)
    d = np.bincount(codes, weights=diff.astype(float))
    n = np.bincount(codes).astype(float)
    picks = rng.integers(0, d.size, size=(draws, d.size))
    stats = d[picks].sum(axis=1) / n[picks].sum(axis=1)
    low, high = np.quantile(stats, [0.025, 0.975])
    return float(low), float(high)


def paired_row(a: np.ndarray, b: np.ndarray, books: np.ndarray, draws: int, rng: np.random.Generator) -> dict:
    """Shares of ``a`` and ``b``, ``mean(a - b)``, parts with only ``a`` / only ``b``, and the
    bootstrap interval of the difference over books."""
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    diff = a.astype(int) - b.astype(int)
    low, high = bootstrap_interval(diff, books, draws, rng)
    return {"n_parts_total": a.size, "n_books": int(pd.unique(books).size), "share_a": a.mean(),
            "share_b": b.mean(), "difference": diff.mean(), "only_a": int((a & ~b).sum()),
            "only_b": int((b & ~a).sum()), "ci_low": low, "ci_high": high}


def parts_comparisons(parts: pd.DataFrame, draws: int, seed: int) -> pd.DataFrame:
    """The comparisons of the module docstring, one row each."""
    rng = np.random.default_rng(seed)
    parts = parts.assign(kl_rest_below_own_author=parts["kl_rest"] < parts["kl_own_author"])
    rows = []
    for (feature, p), group in parts.groupby(["feature", "n_parts"]):
        books = group["book_id"].to_numpy()
        for a, b in (("closer_to_own_book", "closer_to_own_author"),):
            rows.append({"comparison": f"{a} - {b}", "feature": feature, "n_parts": p,
                         **paired_row(group[a], group[b], books, draws, rng)})
        rows.append({"comparison": "kl_rest_below_own_author", "feature": feature, "n_parts": p,
                     **paired_row(group["kl_rest_below_own_author"], np.zeros(len(group), bool), books, draws, rng)})
    indicators = ("closer_to_own_book", "closer_to_own_author")
    wide = parts.pivot_table(index=KEY, columns="feature", values=list(indicators), aggfunc="first").dropna()
    for p, group in wide.groupby(level="n_parts"):
        books = group.index.get_level_values("book_id").to_numpy()
        for indicator in indicators:
            for a, b in FEATURE_PAIRS:
                rows.append({"comparison": f"{indicator}: {a} - {b}", "feature": f"{a} - {b}", "n_parts": p,
                             **paired_row(group[(indicator, a)], group[(indicator, b)], books, draws, rng)})
    return pd.DataFrame(rows)


def importance_paired(folder: Path) -> pd.DataFrame:
    """Top-k accuracy minus all-entries accuracy, paired by seed (module docstring)."""
    rows = [r for path in sorted(folder.glob("*_classes_seed*.json"))
            for r in json.loads(path.read_text(encoding="utf-8")).get("top_k", [])]
    frame = pd.DataFrame(rows)
    full = frame.groupby(["n_classes", "method", "seed"])["k"].transform("max")
    everything = frame[frame["k"] == full][["n_classes", "method", "seed", "accuracy"]]
    both = frame.merge(everything, on=["n_classes", "method", "seed"], suffixes=("", "_all"))
    both["difference"] = both["accuracy"] - both["accuracy_all"]
    both["lower"] = both["difference"] < 0
    return (both.groupby(["n_classes", "method", "k"])
            .agg(mean_accuracy=("accuracy", "mean"), mean_accuracy_all=("accuracy_all", "mean"),
                 mean_difference=("difference", "mean"), sd_difference=("difference", "std"),
                 min_difference=("difference", "min"), max_difference=("difference", "max"),
                 seeds_lower=("lower", "sum"), n_seeds=("seed", "nunique"))
            .reset_index())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--parts", type=Path, required=True, help="evidence folder of the parts comparisons")
    parser.add_argument("--importance", type=Path, required=True, help="evidence folder of the top-k differences")
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    revision = commit()
    started = time.process_time()
    beyond = args.results / "analysis" / "beyond"
    paired = parts_comparisons(pd.read_csv(beyond / "parts.csv"), args.draws, args.seed)
    top_k = importance_paired(beyond / "f3_importance")
    command = (f"python benchmarks/store_parts.py RESULTS --parts {args.parts} --importance {args.importance} "
               f"--draws {args.draws} --seed {args.seed}")
    run = {"command": command, "commit": revision, "results": "RESULTS: the default run's outdir (docs/evidence/default_run/)",
           "draws": args.draws, "seed": args.seed, "corpus": corpus_fingerprint(args.results),
           "cpu_s": round(time.process_time() - started, 1)}
    write_evidence(args.parts, {"parts_paired.csv": paired}, {**run, "source": "analysis/beyond/parts.csv"})
    write_evidence(args.importance, {"importance_top_k_paired.csv": top_k},
                   {**run, "source": "analysis/beyond/f3_importance/*.json"})
    print(paired.to_string(), top_k.to_string(), sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
