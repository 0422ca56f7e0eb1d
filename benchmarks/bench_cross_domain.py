"""Issue 25 on a finished corpus, without Snakemake: across genres and forms (cross-group
recognition), through translators, and the discrete Weibull shape of the gaps, with the
functions the rule `cross_analyses` calls and the schema's defaults.

    nice -n 10 python benchmarks/bench_cross_domain.py RESULTS_DIR OUT_DIR [--seeds 0 1 2 3 4]
        [--parts cross translators weibull] [--methods '{"kl": ["f3"], ...}'] [--threads 1]
        [--min-authors N]

RESULTS_DIR is a run's output folder (corpus/, sequences/, books/ for dv_ma and dv_sa,
catalog/pg_catalog.csv), read only;
OUT_DIR gets the tables (CSV) and prints the CPU seconds of each part.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


from punctstyle.classifiers.options import classifier_params
from punctstyle.settings import schema_defaults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, nargs="+", default=None)
    parser.add_argument("--parts", nargs="+", default=["cross", "translators", "weibull"])
    parser.add_argument("--methods", type=json.loads, default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--min-authors", type=int, default=None, help="cross.genres.min_authors (default: the schema's)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    config = schema_defaults()
    config["recognition"]["mlp"]["device"] = "cpu"
    cross = config["cross"]
    if args.min_authors is not None:
        cross["genres"]["min_authors"] = args.min_authors
    seeds = args.seeds if args.seeds is not None else cross["seeds"]
    test_fraction = float(config["recognition"]["test_fraction"])  # the grid's split (Tables 2-3)
    from punctstyle.training import cross_report

    corpus = args.results / "corpus"
    if "cross" in args.parts:
        t0 = time.process_time()
        methods = args.methods if args.methods is not None else cross["genres"]["methods"]
        records = cross_report.run_cross_domain(
            corpus_dir=corpus, cross=cross, methods=methods, seeds=seeds,
            classifiers=classifier_params(config, [name for name, inputs in methods.items() if inputs]),
            config=config, threads=args.threads,
            texts=sorted((args.results / "books").glob("*.txt.gz")),
        )  # fmt: skip
        records.to_csv(args.out / "cross_domain_records.csv", index=False)
        from punctstyle.training.cross_domain import cross_domain_pair_table, cross_domain_summary

        cross_domain_pair_table(records).to_csv(args.out / "cross_domain_pairs.csv", index=False)
        summary = cross_domain_summary(records)
        summary.to_csv(args.out / "cross_domain_summary.csv", index=False)
        print(summary.to_string())
        print(f"cross: {time.process_time() - t0:.1f} CPU s")
    if "weibull" in args.parts:
        t0 = time.process_time()
        sequences = cross_report.sequence_paths(sorted((args.results / "sequences").glob("*.parquet")))
        fits = cross_report.run_gap_weibull(corpus / "f1.parquet", sequences)
        cross_report.gap_examples(fits, sequences).to_csv(args.out / "gap_weibull_examples.csv", index=False)
        cross_report.weibull_by_era(fits).to_csv(args.out / "gap_weibull_era.csv", index=False)
        fits.to_csv(args.out / "gap_weibull.csv", index=False)
        consistency = cross_report.weibull_consistency(fits)
        consistency.to_csv(args.out / "gap_weibull_consistency.csv", index=False)
        recognition = cross_report.weibull_recognition(fits, corpus, seeds, test_fraction=test_fraction)
        recognition.to_csv(args.out / "gap_weibull_recognition.csv", index=False)
        print(consistency.to_string())
        print(recognition.groupby("input")["accuracy"].agg(["mean", "std", "size"]).to_string())
        print(fits.describe().to_string())
        print(f"weibull: {time.process_time() - t0:.1f} CPU s")
    if "translators" in args.parts:
        t0 = time.process_time()
        tables = cross_report.run_translators(corpus, args.results / "catalog" / "pg_catalog.csv", cross, seeds,
                                              test_fraction=test_fraction)
        for name, frame in tables.items():
            frame.to_csv(args.out / f"translators_{name}.csv", index=False)
            print(name)
            print(frame.to_string())
        print(f"translators: {time.process_time() - t0:.1f} CPU s")


if __name__ == "__main__":
    main()
