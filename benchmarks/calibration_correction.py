"""What the cross-fitted temperature changes (issue 35 item 3): the attribution bundle's
calibration as it was (one network on the 80/20 split, its held-out predictions fit the
temperature and judge it) against the bundle's present one (cross-fitted predictions of the
deployed recipe, the table after out of sample), on a finished run's corpus, for several seeds.

    python benchmarks/calibration_correction.py OUTDIR [--configfile config/config.yaml] --seeds 0 1 2 3 4 [--out docs/evidence/calibration]

OUTDIR: a run's outdir with its corpus (``corpus/f1..f6.parquet``, ``sequences/``); the
``attribution`` block and the network's hyper-parameters (``recognition.mlp``) of the config
file (schema defaults for keys it leaves out), with each seed in place of ``attribution.seed``.
Torch on one thread. Writes ``calibration.csv``
(one row per seed and method: ``split_in_sample``, the former calibration; ``cross_fitted``, the
present one, whose ``ece_after`` and ``nll_after`` are out of sample), ``summary.csv`` (mean and sd over seeds) and
``paired.csv`` (cross-fitted minus former, seed by seed), with ``run.json`` (:mod:`evidence_run`).
``--summarise FOLDER`` rewrites ``summary.csv`` and ``paired.csv`` from a stored ``calibration.csv``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def split_in_sample(sequences, labels, full_features, settings, trainer, groups) -> dict:
    """The former calibration: the curve's network (trained on :func:`attribution_split`'s
    training texts) predicts the held-out texts; their temperature is fitted and the table after
    is computed on the same predictions."""
    from punctstyle.attribution.calibration import (
        fit_temperature,
        held_out_predictions,
        mean_nll,
        reliability,
        scaled_probabilities,
    )
    from punctstyle.attribution.length import attribution_split

    train, test = attribution_split(labels, settings.test_fraction, settings.seed, groups)
    model = trainer.train(full_features[train], labels[train])
    proba, truth = held_out_predictions(model, sequences, labels, test, full_features, trainer.inputs_of,
                                        settings.mark_grid)
    temperature = fit_temperature(proba, truth)
    after = scaled_probabilities(proba, temperature)
    return {"temperature": temperature, "n_predictions": int(truth.size), "nll_before": mean_nll(proba, truth),
            "nll_after": mean_nll(after, truth), "ece_before": reliability(proba, truth)["ece"],
            "ece_after": reliability(after, truth)["ece"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, nargs="?")
    parser.add_argument("--summarise", type=Path, default=None, help="rewrite the summaries of a stored folder")
    parser.add_argument("--configfile", type=Path, default=Path("config/config.yaml"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--out", type=Path, default=None, help="evidence folder (docs/evidence/calibration)")
    args = parser.parse_args(argv)
    if args.summarise is not None:
        frame = pd.read_csv(args.summarise / "calibration.csv")
        for name, table in (("summary.csv", summarise(frame)), ("paired.csv", paired(frame))):
            table.to_csv(args.summarise / name, index=False, float_format="%.6g")
        run_json = args.summarise / "run.json"
        record = json.loads(run_json.read_text(encoding="utf-8"))
        record["summaries_command"] = f"python benchmarks/calibration_correction.py --summarise {args.summarise.as_posix()}"
        run_json.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(paired(frame).to_string(index=False))
        return 0

    import torch

    from evidence_run import commit
    from punctstyle.attribution.bundle import AttributionSettings
    from punctstyle.attribution.bundle_build import Trainer, cross_fitted_calibration
    from punctstyle.classifiers.mlp import MLPParams
    from punctstyle.corpus.sequences import document_sequences
    from punctstyle.corpus.tables import text_groups
    from punctstyle.featuresets import matrices_from_tables, resolve_feature_set, stack_features
    from punctstyle.rule_names import FEATURES

    torch.set_num_threads(1)
    revision = commit()
    run = args.outdir
    config = yaml.safe_load(args.configfile.read_text(encoding="utf-8"))
    block = config.get("attribution") or {}
    network = MLPParams.from_config((config.get("recognition") or {}).get("mlp") or {})
    tables = {f: pd.read_parquet(run / "corpus" / f"{f}.parquet") for f in FEATURES}
    features, labels, book_ids = matrices_from_tables(tables, "author")
    table = tables[FEATURES[0]]
    sequence_paths = sorted((run / "sequences").glob("*.parquet"))
    sequences = document_sequences(sequence_paths, table, book_ids)
    groups = text_groups(table, book_ids)
    options = {"params": network, "device": "cpu", "num_threads": 1}
    rows = []
    for seed in args.seeds:
        settings = AttributionSettings.from_config({**block, "seed": seed})  # schema defaults for the rest
        trainer = Trainer(options, resolve_feature_set(settings.feature_set), seed)
        full_features = stack_features(features, trainer.feature_set)
        started = time.process_time()
        former = split_in_sample(sequences, labels, full_features, settings, trainer, groups)
        former_cpu = time.process_time() - started
        started = time.process_time()
        present = cross_fitted_calibration(sequences, labels, full_features, settings, trainer, groups)
        present_cpu = time.process_time() - started
        rows.append({"seed": seed, "method": "split_in_sample", **former, "cpu_s": former_cpu})
        rows.append({"seed": seed, "method": "cross_fitted", "temperature": present["temperature"],
                     "n_predictions": present["n_predictions"], "nll_before": present["nll_before"],
                     "nll_after": present["nll_after"], "ece_before": present["before"]["ece"],
                     "ece_after": present["after"]["ece"], "cpu_s": present_cpu})
        print(json.dumps(rows[-2:]), flush=True)
        if args.out is not None:  # after every seed: the seeds done so far are stored
            store(args, rows, revision, run, settings, network)
    if args.out is None:
        print(summarise(pd.DataFrame(rows)).to_string(index=False))
    return 0


MEASURES = ("temperature", "nll_before", "nll_after", "ece_before", "ece_after", "cpu_s")


def paired(frame: pd.DataFrame) -> pd.DataFrame:
    """Per measure, ``cross_fitted - split_in_sample`` of the same seed: mean, sd over seeds and
    the seeds where it is positive."""
    wide = frame.pivot(index="seed", columns="method", values=list(MEASURES))
    rows = []
    for measure in MEASURES:
        difference = wide[(measure, "cross_fitted")] - wide[(measure, "split_in_sample")]
        rows.append({"measure": measure, "difference_mean": difference.mean(), "difference_sd": difference.std(),
                     "seeds_positive": int((difference > 0).sum()), "seeds": int(difference.size)})
    return pd.DataFrame(rows)


def summarise(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over seeds of each method's measures."""
    summary = (frame.groupby("method", sort=False)[["temperature", "nll_before", "nll_after", "ece_before",
                                                      "ece_after", "cpu_s"]]
               .agg(["mean", "std"]))
    summary.columns = [f"{a}_{b}" for a, b in summary.columns]
    return summary.reset_index()


def store(args: argparse.Namespace, rows: list[dict], revision: str, run: Path, settings, network) -> None:
    """``calibration.csv``, ``summary.csv`` and ``run.json`` of the seeds done (``seeds_done``)."""
    from evidence_run import corpus_fingerprint, write_evidence

    frame = pd.DataFrame(rows)
    write_evidence(args.out, {"calibration.csv": frame, "summary.csv": summarise(frame), "paired.csv": paired(frame)}, {
        "command": f"python benchmarks/calibration_correction.py OUTDIR --configfile {args.configfile.as_posix()} --seeds "
                   + " ".join(map(str, args.seeds)) + f" --out {args.out.as_posix()}",
        "commit": revision,
        "corpus": corpus_fingerprint(run),
        "seeds_done": sorted({int(row["seed"]) for row in rows}),
        "configfile": args.configfile.as_posix(),
        "settings": {**asdict(settings), "seed": "each of seeds"},
        "network": asdict(network),
        "torch_threads": 1,
    })


if __name__ == "__main__":
    raise SystemExit(main())
