"""How much accuracy at a fixed number of classes depends on which authors are drawn.

Reads a results folder's corpus tables (``OUTDIR/corpus/f1.parquet`` ...) and, for ``--draws``
seeded draws of ``--classes`` authors among the corpus's authors, runs ``--splits`` train/test
splits of those authors' books (the rules' own row code, :func:`punctstyle.analyses.paper.recognition_run`,
on the drawn authors' rows with class size ``all``, the split seed varying; the schema's
defaults otherwise). Per method and feature set it prints the mean accuracy, the sd over every
(draw, split), the sd of the draws' means (authors) and the mean sd over splits within a draw
(split noise with the authors fixed), each with its n.

    python benchmarks/author_population.py results [--draws 30 --splits 3] [--methods kl:f1,f3 mlp:f3] \
        [--out DIR]

The network is costly: give it fewer draws with ``--mlp-draws`` (default 10). ``--out DIR``
writes every run (``DIR/author_population_<classes><tag>_runs.csv``: method, feature_set,
accuracy, split, draw, authors; rewritten after each draw) and the printed table
(``..._spread.csv``). ``--scale-to K N`` adds the authors' sd scaled to K authors of N
(:func:`scale_factor`, a model: accuracy as the mean of per-author effects).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.analyses.paper import recognition_run, task_column
from punctstyle.classifiers.options import classifier_params, options_by_classifier
from punctstyle.io import atomic_open
from punctstyle.marks import FEATURES
from punctstyle.settings import coerce_config_types, schema_defaults


def author_draws(authors: np.ndarray, n_classes: int, n_draws: int, seed: int) -> list[np.ndarray]:
    """``n_draws`` seeded samples of ``n_classes`` distinct authors (sorted), draw d from
    ``default_rng([seed, d])``."""
    authors = np.sort(np.asarray(authors, dtype=object))
    return [np.sort(np.random.default_rng([seed, d]).choice(authors, n_classes, replace=False)) for d in range(n_draws)]


def one_draw(
    tables: dict[str, pd.DataFrame],
    authors: np.ndarray,
    splits: int,
    methods: dict[str, list[str]],
    test_fraction: float,
    options: dict,
) -> pd.DataFrame:
    """Accuracy of each method and feature set for ``splits`` splits of the ``authors``' books
    (columns method, feature_set, split, accuracy). The one call into the package's row code."""
    column = task_column("author")
    keep = tables["f1"][column].isin(authors).to_numpy()
    subset = {name: table[keep].reset_index(drop=True) for name, table in tables.items()}
    frames = []
    for split in range(splits):
        run = recognition_run(
            subset, "author", "all", split, methods=methods, test_fraction=test_fraction, classifier_options=options
        )
        results = run.results[["method", "feature_set", "accuracy"]].copy()
        results["split"] = split
        frames.append(results)
    return pd.concat(frames, ignore_index=True)


def authors_sd_net(draw_means: np.ndarray, within_variances: np.ndarray, splits: np.ndarray) -> float:
    """The sd that the authors alone give, the split noise taken out of the draws' means:
    ``sqrt(max(0, var(draw means) - mean(within-draw variance / splits)))`` (a draw's mean over
    ``s`` splits carries ``sigma_split^2 / s`` of split variance)."""
    noise = float(np.mean(np.asarray(within_variances, float) / np.asarray(splits, float)))
    return float(np.sqrt(max(0.0, np.var(np.asarray(draw_means, float), ddof=1) - noise)))


def scale_factor(k: int, n: int, k_target: int, n_target: int) -> float:
    """How the sd of a mean over ``k`` authors drawn without replacement from ``n`` scales to
    ``k_target`` of ``n_target``, if accuracy were the mean of per-author effects:
    ``sd(k, n) = sigma / sqrt(k) * sqrt((n - k) / (n - 1))``, so the factor is
    ``sqrt(k / k_target) * sqrt(((n_target - k_target) / (n_target - 1)) / ((n - k) / (n - 1)))``."""
    return float(np.sqrt(k / k_target) * np.sqrt(((n_target - k_target) / (n_target - 1)) / ((n - k) / (n - 1))))


def spread_table(results: pd.DataFrame) -> pd.DataFrame:
    """Per (method, feature_set): mean, sd over all runs, sd of draw means, mean within-draw sd,
    and the draw means' sd without the split noise (:func:`authors_sd_net`)."""
    rows = []
    for (method, feature_set), group in results.groupby(["method", "feature_set"], sort=False):
        per_draw = group.groupby("draw")["accuracy"]
        rows.append(
            {
                "method": method,
                "feature_set": feature_set,
                "draws": int(per_draw.ngroups),
                "splits_per_draw": int(per_draw.size().iloc[0]),
                "mean": group["accuracy"].mean(),
                "sd_all": group["accuracy"].std(ddof=1),
                "sd_authors": per_draw.mean().std(ddof=1),
                "sd_splits": per_draw.std(ddof=1).mean(),
                "sd_authors_net": authors_sd_net(
                    per_draw.mean().to_numpy(), per_draw.var(ddof=1).to_numpy(), per_draw.size().to_numpy()
                ),
            }
        )
    return pd.DataFrame(rows)


def parse_methods(items: list[str]) -> dict[str, list[str]]:
    """``["kl:f1,f3", "mlp:f3"]`` -> ``{"kl": ["f1", "f3"], "mlp": ["f3"]}``."""
    return {item.split(":", 1)[0]: item.split(":", 1)[1].split(",") for item in items}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, help="a results folder with corpus/f1.parquet ...")
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--draws", type=int, default=30)
    parser.add_argument("--mlp-draws", type=int, default=10)
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--methods", nargs="+", default=["kl:f1,f3", "mlp:f3"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, help="a folder for the runs and the spread table (CSV)")
    parser.add_argument(
        "--scale-to", nargs=2, type=int, metavar=("K", "N"), help="also the authors' sd scaled to K of N"
    )
    parser.add_argument("--tag", default="", help="appended to the output names")
    args = parser.parse_args()
    stem = f"author_population_{args.classes}{args.tag}"
    tables = {name: pd.read_parquet(args.outdir / "corpus" / f"{name}.parquet") for name in FEATURES}
    config = coerce_config_types(schema_defaults())
    config["recognition"]["mlp"]["device"] = "cpu"
    methods = parse_methods(args.methods)
    options = options_by_classifier(config, classifier_params(config, methods), args.threads)
    test_fraction = config["recognition"]["test_fraction"]
    authors = tables["f1"][task_column("author")].dropna().unique()
    draws = author_draws(authors, args.classes, args.draws, args.seed)
    frames = []
    start = time.perf_counter()
    for method, feature_sets in methods.items():
        n_draws = args.mlp_draws if method == "mlp" else args.draws
        for d, drawn in enumerate(draws[:n_draws]):
            frame = one_draw(tables, drawn, args.splits, {method: feature_sets}, test_fraction, options)
            frame["draw"] = d
            frame["authors"] = "; ".join(drawn)
            frames.append(frame)
            if args.out is not None:  # every finished draw kept, so that a stopped run loses none
                write_csv(pd.concat(frames, ignore_index=True), args.out / f"{stem}_runs.csv")
        print(f"{method}: {n_draws} draws x {args.splits} splits in {time.perf_counter() - start:.0f} s", flush=True)
    table = spread_table(pd.concat(frames, ignore_index=True))
    if args.scale_to is not None:
        k, n = args.scale_to
        table[f"sd_authors_net_{k}_of_{n}"] = table["sd_authors_net"] * scale_factor(args.classes, len(authors), k, n)
    print(f"{len(authors)} authors in the corpus, {args.classes} drawn per draw")
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if args.out is not None:
        write_csv(table, args.out / f"{stem}_spread.csv")


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path) as handle:
        frame.to_csv(handle, index=False)


if __name__ == "__main__":
    main()
