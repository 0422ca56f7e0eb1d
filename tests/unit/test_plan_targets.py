"""Output paths of punctstyle.plan.targets: the same paths, in the same order, as Snakemake's expand."""

from __future__ import annotations

from snakemake.io import expand

from punctstyle.plan import targets
from tests.unit.test_plan_rows import config


def test_expand_product_is_snakemakes_expand():
    values = {"task": "author", "classes": ["10", "all"], "seed": [1, 2, 3], "name": "results.csv"}
    pattern = "o/{task}/{classes}_classes/seed{seed}_{name}"
    assert targets.expand_product(pattern, **values) == expand(pattern, **values)


def test_row_files_follow_the_config():
    cfg = config(outdir="res", **{"recognition.class_sizes": [5, 5, "all"], "recognition.seeds": [1, 2]})
    assert targets.recognition_row_files(cfg, "author", "results.csv") == [
        "res/analysis/recognition/author/5_classes/seed1_results.csv",
        "res/analysis/recognition/author/5_classes/seed2_results.csv",
        "res/analysis/recognition/author/all_classes/seed1_results.csv",
        "res/analysis/recognition/author/all_classes/seed2_results.csv",
    ]
    cfg["beyond"]["sequence"]["class_sizes"] = [5]
    assert targets.sequence_recognition_files(cfg)[-1] == "res/analysis/recognition/author/all_classes/seed2_results.csv"
    assert targets.sequence_row_files(cfg, "_lengths") == [
        "res/analysis/beyond/sequence/author_5_classes_seed1_lengths.csv",
        "res/analysis/beyond/sequence/author_5_classes_seed2_lengths.csv",
    ]


def test_attribution_bundle_only_when_enabled():
    assert targets.attribution_outputs(config(**{"attribution.enabled": False})) == []
    files = targets.attribution_outputs(config(outdir="r", **{"attribution.enabled": True}))
    assert files[0] == "r/models/attribution/mlp.pt" and len(files) == 4
