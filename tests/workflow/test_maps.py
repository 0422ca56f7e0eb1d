"""The maps of the corpus (rule corpus_map) in the shared default run (tests/workflow/conftest.py)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from punctstyle.settings import schema_default

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def run(default_fixture_run):
    return default_fixture_run


@pytest.mark.parametrize("family", schema_default("maps", "families"))
def test_maps_of_each_family(run, family):
    outdir = run["outdir"]
    corpus = pd.read_parquet(outdir / "corpus/f1.parquet")
    coordinates = pd.read_csv(outdir / f"analysis/maps/{family}_coordinates.csv")
    assert coordinates["book_id"].tolist() == corpus["book_id"].tolist()
    assert coordinates[["pca1", "pca2", "mds_delta1", "mds_delta2"]].notna().all().all()
    assert ("mds_kl1" in coordinates) == (family == "f3")
    summary = json.loads((outdir / f"analysis/maps/{family}_summary.json").read_text())
    assert summary["n_documents"] == len(corpus) and summary["tree_level"] == "documents"
    assert 0 <= summary["nearest_neighbour_same_author_delta"] <= 1
    edges = pd.read_csv(outdir / f"analysis/maps/{family}_consensus_edges.csv")
    assert list(edges.columns) == ["Source", "Target", "Weight"] and edges["Weight"].between(0.5, 1).all()
    leaves = edges[~edges["Target"].str.startswith("clade")]
    assert len(leaves) == len(corpus)
    for name in ("pca", "mds_delta", "mds_kl", "dendrogram"):
        if name == "mds_kl" and family != "f3":  # no KL map, and no placeholder in its place
            assert not (outdir / f"figures/maps/{family}_{name}.png").exists()
            continue
        assert (outdir / f"figures/maps/{family}_{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert (outdir / f"figures/maps/{family}_{name}.pdf").read_bytes()[:4] == b"%PDF"


def test_rolling_collaborations(run):
    outdir = run["outdir"]
    records = pd.read_csv(outdir / "analysis/rolling/collaborations.csv")
    summary = pd.read_csv(outdir / "analysis/rolling/summary.csv")
    assert set(records["method"]) <= set(schema_default("rolling", "methods"))
    if len(records):
        assert records["slice_accuracy"].between(0, 1).all() and (records["n_true"] >= 1).all()
        assert set(summary["kind"]) == set(records["kind"])
    assert (outdir / "figures/rolling/collaborations.png").read_bytes()[:4] == b"\x89PNG"
    assert (outdir / "figures/rolling/collaborations.pdf").read_bytes()[:4] == b"%PDF"
