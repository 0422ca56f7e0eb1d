"""What reading the recognition grid's stored fits saves the length curve and the f3 importance
(punctstyle.experiments.fit_store), on a finished corpus, without Snakemake.

    python benchmarks/bench_model_store.py CORPUS_DIR SEQUENCES_DIR OUT_DIR [--size 10] [--seed 0]
        [--lengths 50 400 3200] [--threads 1]

One author row (class size, seed) with the schema's MLP (hidden 2000, the paper's stopping rule):

1. the recognition row's MLPs on ``all`` and ``f3`` (the views the default config stores), written to
   ``OUT_DIR/seed{seed}_fitted.npz`` (:func:`punctstyle.jobs.recognition.recognition_job`);
2. the length-curve row (``mlp: [all]``, training ``whole``, ``--lengths``), once training its
   network (as before) and once reading it from the store;
3. the f3 importance row, once training and once reading its test-split MLP.

Prints the CPU seconds of each, the ratio trained / read, and whether the results are equal
(they must be: the same network, value for value). The recognition row is paid once by the
grid either way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from punctstyle.classifiers.options import classifier_params, options_by_classifier  # noqa: E402
from punctstyle.jobs.importance import importance_job  # noqa: E402
from punctstyle.jobs.length_curve import LengthCurveSettings, length_curve_job  # noqa: E402
from punctstyle.jobs.recognition import RecognitionSettings, recognition_job  # noqa: E402
from punctstyle.marks import FEATURES  # noqa: E402
from punctstyle.settings import schema_defaults  # noqa: E402


def cpu_of(call):
    start = time.process_time()
    value = call()
    return value, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("sequences", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lengths", type=int, nargs="+", default=[50, 400, 3200])
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    config = schema_defaults()
    config["recognition"]["mlp"]["device"] = "cpu"
    options = options_by_classifier(config, classifier_params(config, ["kl", "mlp"]), args.threads)
    test_fraction = config["recognition"]["test_fraction"]
    importance = config["beyond"]["importance"]
    args.out.mkdir(parents=True, exist_ok=True)
    tables = {name: pd.read_parquet(args.corpus / f"{name}.parquet") for name in FEATURES}
    fitted = args.out / f"seed{args.seed}_fitted.npz"
    n_books = len(tables["f1"])
    _, recognition_s = cpu_of(lambda: recognition_job(
        tables, "author", args.size, args.seed, {"fitted": fitted},
        RecognitionSettings(methods={"mlp": ["all", "f3"]}, test_fraction=test_fraction, classifier_options=options,
                            all_configured=False, store_views=["all", "f3"], store_class_sizes=[args.size]),
    ))
    print(f"corpus: {n_books} books; row: author, {args.size} classes, seed {args.seed}, {args.threads} thread(s)")
    print(f"recognition row, MLPs on all and f3, stored: {recognition_s:.1f} CPU s, {fitted.stat().st_size:,} bytes")
    sequences = [str(p) for p in sorted(args.sequences.glob("*.parquet"))]

    def length(tag, files):
        stem = args.out / f"length_{tag}"
        return length_curve_job(
            tables["f1"], sequences, {"results": f"{stem}_results.csv", "excerpts": f"{stem}_excerpts.csv"},
            LengthCurveSettings(test_fraction=test_fraction, lengths=args.lengths, methods={"mlp": ["all"]},
                                training=["whole"], short_documents="whole", classifier_options=options),
            n_classes=args.size, seed=args.seed, fitted=files,
        ).results

    def f3(tag, files):
        path = args.out / f"importance_{tag}.json"
        importance_job(
            tables["f3"], path, class_size=args.size, seed=args.seed, test_fraction=test_fraction,
            top_k=importance["top_k"], repeats=importance["repeats"],
            holdout_fraction=importance["holdout_fraction"], classifier_options=options, fitted=files,
        )
        return json.loads(path.read_text())

    for name, run in (("length-curve row (mlp all, whole)", length), ("f3 importance row", f3)):
        trained, trained_s = cpu_of(lambda run=run: run("trained", []))
        read, read_s = cpu_of(lambda run=run: run("read", [fitted]))
        equal = trained.equals(read) if isinstance(trained, pd.DataFrame) else trained == read
        print(f"{name}: trained {trained_s:.1f} CPU s, read from the store {read_s:.1f} CPU s, "
              f"trained / read {trained_s / read_s:.2f}; results equal: {equal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
