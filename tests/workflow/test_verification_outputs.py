"""The verification analysis of the shared default run (config/test.yaml's verification block),
then `punctstyle verify` on a new book of a fixture author against the run's bundle."""

from __future__ import annotations

import json
import subprocess
import sys

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
    for measure in MEASURES:
        assert summary[f"{measure}_mean"].between(0, 1).all(), measure
    results = pd.read_csv(outdir / "analysis/verification/results.csv", dtype={"length": str})
    assert (results["n_same"] * 2 == results["n_cases"]).all()  # one different-author case per text
    assert (outdir / "figures/beyond/verification.png").stat().st_size > 0
    assert "General Imposters" in (outdir / "tables/beyond_verification.html").read_text(encoding="utf-8")


def test_the_bundle_files_hold_a_band_per_family_and_length(outdir):
    bundle = outdir / "models/attribution"
    record = json.loads((bundle / "verification.json").read_text())
    assert record["bundle_family"] == "all+words"
    assert record["imposters"] == {"iterations": 20, "feature_share": 0.5, "imposter_share": 0.5}
    assert len(record["words"]) <= 50
    for family in ("f3", "words", "all+words"):
        for band in record["families"][family]["bands"].values():
            assert 0.0 <= band["p1"] <= band["p2"] <= 1.0
    reference = pd.read_parquet(bundle / "verification_reference.parquet")
    assert sorted(reference["author"].unique()) == sorted(a.corpus_name for a in AUTHORS)
    assert len(reference) == len(pd.read_parquet(outdir / "corpus/f1.parquet"))


def test_verify_scores_a_new_book_of_a_fixture_author(outdir, tmp_path):
    author = AUTHORS[0]
    path = tmp_path / "new.txt"
    path.write_text(book_text(author, NEW_BOOK), encoding="utf-8")
    command = [sys.executable, "-m", "punctstyle", "verify", str(path), "--author", author.corpus_name,
               "--model", str(outdir / "models/attribution"), "--json"]
    proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["author"] == author.corpus_name
    assert 0.0 <= result["score"] <= 1.0
    assert result["decision"] in ("same author", "different author", "undecided")
    refused = subprocess.run([*command[:6], "Nobody At All", *command[7:]], cwd=REPO, capture_output=True,
                             text=True, timeout=300)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
