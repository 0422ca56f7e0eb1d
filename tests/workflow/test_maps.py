"""The maps of the corpus (rule corpus_map) in the shared default run (tests/workflow/conftest.py)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from punctstyle.corpus.words import read_word_matrix
from punctstyle.attribution.collaborations import KINDS
from punctstyle.marks import PAPER_FEATURES, feature_column_names
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
    # the numbers, recomputed here from the corpus tables (Burrows' Delta on the columns
    # z-scored over the documents, ddof 1; PCA's shares from the z-scored covariance)
    if family == "words":  # the 50 most frequent words (config/test.yaml maps.words) of every book
        matrix = read_word_matrix(outdir / "corpus/words.npz")
        freqs = matrix.relative_frequencies(corpus["book_id"].to_numpy()).toarray()
        totals = freqs.sum(axis=0)
        X = freqs[:, np.lexsort((np.arange(totals.size), -totals))[:50]]
    else:
        features = ("f3",) if family == "f3" else PAPER_FEATURES
        X = np.hstack([pd.read_parquet(outdir / f"corpus/{f}.parquet")[feature_column_names(f)].to_numpy(float)
                       for f in features])
    sd = X.std(axis=0, ddof=1)
    Z = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    delta = np.abs(Z[:, None, :] - Z[None, :, :]).mean(axis=2)
    np.fill_diagonal(delta, np.inf)
    authors = corpus["author"].to_numpy()
    nearest = float(np.mean(authors[delta.argmin(axis=1)] == authors))
    assert summary["nearest_neighbour_same_author_delta"] == pytest.approx(nearest, abs=1e-12)
    if family != "words":  # the fixture authors' punctuation differs (their words do not)
        assert nearest == 1.0 and summary["ward_delta_purity"] == 1.0
    np.fill_diagonal(delta, 0.0)
    n = len(delta)
    J = np.eye(n) - 1.0 / n  # classical MDS: the eigenvalues of -1/2 J D^2 J
    mds = np.sort(np.linalg.eigvalsh(-0.5 * J @ delta**2 @ J))[::-1]
    assert summary["mds_delta_eigenvalue_share"] == pytest.approx((mds[:2] / mds[mds > 0].sum()).tolist(), abs=1e-9)
    eigenvalues = np.sort(np.linalg.eigvalsh(Z.T @ Z))[::-1]
    assert summary["pca_variance_share"] == pytest.approx((eigenvalues[:2] / eigenvalues.sum()).tolist(), abs=1e-9)
    assert summary["n_authors"] == len(set(authors)) and summary["n_columns"] == X.shape[1]
    edges = pd.read_csv(outdir / f"analysis/maps/{family}_consensus_edges.csv")
    assert list(edges.columns) == ["Source", "Target", "Weight"] and edges["Weight"].between(0.5, 1).all()
    leaves = edges[~edges["Target"].str.startswith("clade")]
    assert len(leaves) == len(corpus)
    # stylo's sweep (the default): one tree on the 10%, 20%, ..., 100% most frequent columns
    # (the fixture's column counts are multiples of 10), clades kept on a strict majority
    step = X.shape[1] // 10
    assert summary["consensus"] == "sweep" and summary["consensus_columns"] == list(range(step, X.shape[1] + 1, step))
    assert summary["consensus_trees"] == 10 and summary["consensus_clades"] == len(edges) - len(corpus)
    assert (edges.loc[edges["Target"].str.startswith("clade"), "Weight"] > 0.5).all()
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
    methods = schema_default("rolling", "methods")
    # config/test.yaml: per_kind 2, part_marks [100, 300], seeds [0]; every kind, every method
    assert len(records) == len(KINDS) * 2 * len(methods)
    assert sorted(set(records["method"])) == sorted(methods) and set(records["kind"]) == set(KINDS)
    assert (records["seed"] == 0).all()
    parts = records["kind"].map(lambda kind: len(KINDS[kind]))
    assert (records["n_true"] == parts - 1).all()
    assert records["n_marks"].between(parts * 100, parts * 300).all()
    errors = records["errors"].map(lambda text: [float(v) for v in text.strip("[]").split(",")])
    assert (errors.map(len) == records["n_true"]).all()
    assert np.allclose(errors.map(np.mean), records["mean_error"])
    assert np.allclose(errors.map(lambda e: np.mean(np.asarray(e) <= 10)), records["within_step"])  # step 10
    assert records["slice_accuracy"].between(0, 1).all()
    # Delta on f1..f6 tells the fixture authors apart: nearly every slice right, every change found
    punct = records[records["method"] == "delta_punct"]
    assert (punct["slice_accuracy"] > 0.9).all() and (punct["within_step"] == 1.0).all()
    # the summary: one seed, so each mean is the mean over that kind's and method's collaborations
    expected = records.groupby(["kind", "method"]).agg(
        n=("number", "size"), slice_accuracy=("slice_accuracy", "mean"), within_step=("within_step", "mean"),
        segments_right=("segments_right", "mean")).reset_index()
    merged = summary.merge(expected, on=["kind", "method"], validate="one_to_one")
    assert len(merged) == len(KINDS) * len(methods) and (merged["n_collaborations"] == merged["n"]).all()
    for name in ("slice_accuracy", "within_step", "segments_right"):
        assert np.allclose(merged[f"{name}_mean"], merged[name]), name
    assert (outdir / "figures/rolling/collaborations.png").read_bytes()[:4] == b"\x89PNG"
    assert (outdir / "figures/rolling/collaborations.pdf").read_bytes()[:4] == b"%PDF"
