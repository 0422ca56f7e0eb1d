"""The classifier on raw sequences (beyond the paper) on the fixture mirror: rows on the splits of
Tables 2-3, the comparison table with the feature MLP, and its report flag.

Runs only the sequence classifier's targets and the recognition rows of the same sizes on a copy of
the default fixture run (its selection, books and corpus tables); config/test.yaml keeps it off for
the other workflow tests.
"""

from __future__ import annotations

import pandas as pd
import pytest

from tests.conftest import snakemake
from tests.workflow.conftest import derived_run

pytestmark = pytest.mark.workflow

TARGETS = [
    "analysis/beyond/sequence_model.csv",
    "analysis/beyond/sequence_model.md",
    "tables/beyond_sequence_model.html",
    "analysis/beyond/sequence_model_lengths.csv",
]


@pytest.fixture(scope="module")
def run(default_fixture_run, tmp_path_factory):
    overlay = {
        "recognition": {"methods": {"kl": ["f1"], "mlp": ["f3"]}, "mlp": {"max_epochs": 5}},
        "beyond": {"sequence": {"enabled": True, "device": "cpu"}},
        # the length curve's grid: the sequence rows also score the test books cut to these lengths
        "length_curve": {"enabled": True, "lengths": [50, 100]},
    }
    with derived_run(default_fixture_run, tmp_path_factory, overlay, remake=("analysis/recognition", "models/author")) as served:
        outdir, config = served.outdir, served.config
        snakemake(*[str(outdir / t) for t in TARGETS], "--cores", "2", "--configfile", "config/test.yaml", str(config))
        summary = snakemake("--configfile", "config/test.yaml", str(config), "--summary").stdout
    return {"outdir": outdir, "summary": summary}


def test_rows_use_the_splits_of_the_recognition_grid(run):
    outdir = run["outdir"]
    # class sizes 2 and 10 (10 holds the 3 fixture authors: its row is named 3), seeds 0 and 1 of config/test.yaml
    rows = pd.concat(
        [
            pd.read_csv(outdir / f"analysis/beyond/sequence/author_{c}_classes_seed{s}.csv")
            for c in (2, 3)
            for s in (0, 1)
        ]
    )
    assert sorted(zip(rows["n_classes"], rows["seed"], strict=True)) == [(2, 0), (2, 1), (3, 0), (3, 1)]
    assert (rows["method"] == "sequence_cnn").all() and (rows["device"] == "cpu").all()
    assert (rows["epochs"] == 2).all() and rows["accuracy"].between(0, 1).all()
    for classes, seed, n_classes in [("2", 0, 2), ("2", 1, 2), ("all", 0, 3), ("all", 1, 3)]:
        grid = pd.read_csv(outdir / f"analysis/recognition/author/{classes}_classes/seed{seed}_results.csv")
        ours = rows[(rows["n_classes"] == n_classes) & (rows["seed"] == seed)].iloc[0]
        assert (grid["n_train"] == ours["n_train"]).all() and (grid["n_test"] == ours["n_test"]).all()
        assert grid["baseline"].iloc[0] == pytest.approx(ours["baseline"])


def test_comparison_table_markdown_and_report_flag(run):
    outdir = run["outdir"]
    table = pd.read_csv(outdir / "analysis/beyond/sequence_model.csv")
    assert sorted(zip(table["n_classes"], table["method"], table["feature_set"], strict=True)) == [
        (2, "mlp", "f3"),
        (2, "sequence_cnn", "sequence"),
        (3, "mlp", "f3"),
        (3, "sequence_cnn", "sequence"),
    ]
    assert (table["n_seeds"] == 2).all()
    markdown = (outdir / "analysis/beyond/sequence_model.md").read_text()
    header = next(line for line in markdown.splitlines() if line.startswith("|"))
    assert [c.strip() for c in header.strip("|").split("|")][5:7] == ["sequence CNN", "neural network f3"]
    html = (outdir / "tables/beyond_sequence_model.html").read_text()
    assert "<table" in html and "sequence CNN" in html and "neural network f3" in html
    assert "tables/beyond_sequence_model.html" in run["summary"]


def test_rows_are_also_scored_on_the_length_curves_excerpts(run):
    outdir = run["outdir"]
    summary = pd.read_csv(outdir / "analysis/beyond/sequence_model_lengths.csv")
    assert sorted(zip(summary["n_classes"], summary["length"], strict=True)) == [(2, 50), (2, 100), (3, 50), (3, 100)]
    assert (summary["n_seeds"] == 2).all() and summary["accuracy"].between(0, 1).all()
    for n_classes in (2, 3):
        rows = pd.concat(
            pd.read_csv(outdir / f"analysis/beyond/sequence/author_{c}_classes_seed{s}_lengths.csv")
            for c in (2, 3)
            for s in (0, 1)
        )
        whole = pd.concat(
            pd.read_csv(outdir / f"analysis/beyond/sequence/author_{c}_classes_seed{s}.csv")
            for c in (2, 3)
            for s in (0, 1)
        )
        # every test book is scored at every length (books shorter than n are used whole)
        for (classes, seed), group in rows[rows["n_classes"] == n_classes].groupby(["n_classes", "seed"]):
            n_test = whole[(whole["n_classes"] == classes) & (whole["seed"] == seed)]["n_test"].iloc[0]
            assert (group["n_test"] == n_test).all()
    assert "excerpts" in (outdir / "analysis/beyond/sequence_model.md").read_text()
