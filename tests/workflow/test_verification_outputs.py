"""The verification analysis of the shared default run (config/test.yaml's verification block),
then `punctstyle verify` on a new book of a fixture author against the run's bundle."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from punctstyle.attribution.pan_metrics import MEASURES
from tests.conftest import REPO
from tests.fixtures.mini_mirror import AUTHORS, book_text

pytestmark = pytest.mark.workflow

NEW_BOOK = 9100  # + author index: ids that are not in the mirror's catalog


@pytest.fixture(scope="module")
def outdir(default_fixture_run):
    return default_fixture_run["outdir"]


def test_the_summary_has_every_family_and_length_and_measures_in_range(outdir):
    summary = pd.read_csv(outdir / "analysis/verification/summary.csv", dtype={"length": str})
    # config/test.yaml: families [f3, words, all+words], lengths [100], seeds [0]
    assert sorted(zip(summary["family"], summary["length"], strict=True)) == sorted(
        (f, n) for f in ("f3", "words", "all+words") for n in ("whole", "100")
    )
    assert (summary["n_seeds"] == 1).all()
    results = pd.read_csv(outdir / "analysis/verification/results.csv", dtype={"length": str})
    assert (results["n_same"] * 2 == results["n_cases"]).all()  # one different-author case per text
    # 10 corpus books, test_fraction 0.34: 3 held-out books (one per author), each long enough
    # for an excerpt of 100 marks: 6 cases in every family and length
    assert (results["n_cases"] == 6).all() and len(results) == 6
    # one seed: each summary mean is that seed's value; overall is the mean of the five measures
    merged = summary.merge(results, on=["family", "length"], validate="one_to_one")
    for measure in (*MEASURES, "overall"):
        assert np.allclose(merged[f"{measure}_mean"], merged[measure]), measure
    assert np.allclose(results[list(MEASURES)].mean(axis=1), results["overall"])
    # the band fitted on all cases lies on the grid of step 0.05
    for column in ("p1", "p2"):
        assert np.allclose(results[column] * 20, np.round(results[column] * 20))
    assert (results["p1"] <= results["p2"]).all()
    assert (outdir / "figures/beyond/verification.png").stat().st_size > 0
    assert "General Imposters" in (outdir / "tables/beyond_verification.html").read_text(encoding="utf-8")


def test_the_bundle_files_hold_a_band_per_family_and_length(outdir):
    bundle = outdir / "models/attribution"
    record = json.loads((bundle / "verification.json").read_text())
    assert record["bundle_family"] == "all+words"
    assert record["imposters"] == {"iterations": 20, "feature_share": 0.5, "imposter_share": 0.5, "test_copies": 2}
    assert record["format"] == "punctstyle-verification/2"
    assert len(record["words"]) <= 50
    # one seed: the bundle's band of each family and length (fitted on every seed's cases) is
    # the band of that seed's results
    results = pd.read_csv(outdir / "analysis/verification/results.csv", dtype={"length": str})
    for row in results.itertuples():
        band = record["families"][row.family]["bands"][row.length]
        assert (band["p1"], band["p2"]) == pytest.approx((row.p1, row.p2), abs=1e-12), (row.family, row.length)
    assert sorted(record["families"]) == sorted(("f3", "words", "all+words"))
    reference = pd.read_parquet(bundle / "verification_reference.parquet")
    assert sorted(reference["author"].unique()) == sorted(a.corpus_name for a in AUTHORS)
    assert len(reference) == len(pd.read_parquet(outdir / "corpus/f1.parquet"))


def verify(path, author, outdir):
    command = [sys.executable, "-m", "punctstyle", "verify", str(path), "--author", author,
               "--model", str(outdir / "models/attribution"), "--json"]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("index", range(len(AUTHORS)))
def test_verify_a_new_book_is_its_authors_and_not_anothers(outdir, tmp_path, index):
    # a new book (not in the corpus) by each fixture author: "same author" for its author,
    # "different author" for the next author (whose imposters include the true author's books)
    author, other = AUTHORS[index], AUTHORS[(index + 1) % len(AUTHORS)]
    path = tmp_path / "new.txt"
    path.write_text(book_text(author, NEW_BOOK + index), encoding="utf-8")
    answers = {}
    for candidate in (author, other):
        proc = verify(path, candidate.corpus_name, outdir)
        assert proc.returncode == 0, proc.stderr
        answers[candidate.corpus_name] = result = json.loads(proc.stdout)
        assert result["author"] == candidate.corpus_name
    assert answers[author.corpus_name]["decision"] == "same author", answers
    assert answers[other.corpus_name]["decision"] == "different author", answers
    assert answers[author.corpus_name]["score"] > answers[other.corpus_name]["score"]


def test_verify_refuses_an_author_not_in_the_bundle(outdir, tmp_path):
    path = tmp_path / "new.txt"
    path.write_text(book_text(AUTHORS[0], NEW_BOOK), encoding="utf-8")
    refused = verify(path, "Nobody At All", outdir)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
