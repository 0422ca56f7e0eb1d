"""What reading the recognition grid's stored fits saves the length curve and the f3 importance
(punctstyle.experiments.fit_store), on a finished corpus, without Snakemake.

    python benchmarks/bench_model_store.py CORPUS_DIR SEQUENCES_DIR OUT_DIR [--size 10 [50 ...]] [--seed 0]
        [--lengths 50 400 3200] [--threads 1] [--evidence docs/evidence/perf_model_store]

Per author row (each class size of ``--size``, one seed) with the schema's MLP (hidden 2000, the
paper's stopping rule):

1. the recognition row's MLPs on ``all`` and ``f3`` (the views the default config stores), written to
   ``OUT_DIR/seed{seed}_fitted.npz`` (:func:`punctstyle.jobs.recognition.recognition_job`);
2. the length-curve row (``mlp: [all]``, training ``whole``, ``--lengths``), once training its
   network (as before) and once reading it from the store;
3. the f3 importance row, once training and once reading its test-split MLP.

Prints the CPU seconds of each, the ratio trained / read, and whether the results are equal
(they must be: the same network, value for value). The recognition row is paid once by the
grid either way. ``--evidence OUT`` stores the figures: ``rows.csv`` (one line per class size and
analysis) and ``run.json`` (command, commit, settings, corpus fingerprint; benchmarks/evidence_run.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_tables_fingerprint, write_evidence  # noqa: E402
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


def measure_row(tables, sequences, out: Path, size: int, args, config) -> list[dict]:
    """One author row of ``size`` classes: the recognition row's stored MLPs, then the length-curve
    and f3 importance rows once training and once reading the store; one dict per analysis."""
    options = options_by_classifier(config, classifier_params(config, ["kl", "mlp"]), args.threads)
    test_fraction = config["recognition"]["test_fraction"]
    importance = config["beyond"]["importance"]
    fitted = out / f"seed{args.seed}_{size}_fitted.npz"
    _, recognition_s = cpu_of(lambda: recognition_job(
        tables, "author", size, args.seed, {"fitted": fitted},
        RecognitionSettings(methods={"mlp": ["all", "f3"]}, test_fraction=test_fraction, classifier_options=options,
                            all_configured=False, store_views=["all", "f3"], store_class_sizes=[size]),
    ))
    print(f"row: author, {size} classes, seed {args.seed}, {args.threads} thread(s)")
    print(f"recognition row, MLPs on all and f3, stored: {recognition_s:.1f} CPU s, {fitted.stat().st_size:,} bytes")
    rows = [{"classes": size, "analysis": "recognition row (mlp all, f3), stored", "trained_cpu_s": recognition_s,
             "read_cpu_s": None, "trained_over_read": None, "results_equal": None,
             "store_mb": fitted.stat().st_size / 1e6}]

    def length(tag, files):
        stem = out / f"length_{size}_{tag}"
        return length_curve_job(
            tables["f1"], sequences, {"results": f"{stem}_results.csv", "excerpts": f"{stem}_excerpts.csv"},
            LengthCurveSettings(test_fraction=test_fraction, lengths=args.lengths, methods={"mlp": ["all"]},
                                training=["whole"], short_documents="whole", classifier_options=options),
            n_classes=size, seed=args.seed, fitted=files,
        ).results

    def f3(tag, files):
        path = out / f"importance_{size}_{tag}.json"
        importance_job(
            tables["f3"], path, class_size=size, seed=args.seed, test_fraction=test_fraction,
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
        rows.append({"classes": size, "analysis": name, "trained_cpu_s": trained_s, "read_cpu_s": read_s,
                     "trained_over_read": trained_s / read_s, "results_equal": bool(equal), "store_mb": None})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("sequences", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=int, nargs="+", default=[10])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lengths", type=int, nargs="+", default=[50, 400, 3200])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--evidence", type=Path, help="store rows.csv and run.json in this folder")
    args = parser.parse_args()
    revision = commit()
    config = schema_defaults()
    config["recognition"]["mlp"]["device"] = "cpu"
    args.out.mkdir(parents=True, exist_ok=True)
    tables = {name: pd.read_parquet(args.corpus / f"{name}.parquet") for name in FEATURES}
    sequences = [str(p) for p in sorted(args.sequences.glob("*.parquet"))]
    print(f"corpus: {len(tables['f1'])} books")
    load = os.getloadavg()
    rows = [row for size in args.size for row in measure_row(tables, sequences, args.out, size, args, config)]
    if args.evidence:
        write_evidence(args.evidence, {"rows.csv": pd.DataFrame(rows)}, {
            "command": "python benchmarks/bench_model_store.py CORPUS SEQUENCES OUT " + " ".join(sys.argv[4:]),
            "commit": revision, "clock": "time.process_time of the benchmark's process (CPU s)",
            "settings": {"sizes": args.size, "seed": args.seed, "lengths": args.lengths, "threads": args.threads},
            "load_1min_at_start": round(load[0], 2), "load_1min_at_end": round(os.getloadavg()[0], 2),
            "corpus": corpus_tables_fingerprint(args.corpus),
        })
    return 0


if __name__ == "__main__":
    sys.exit(main())
