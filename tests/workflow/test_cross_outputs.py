"""Issue 25's rules (cross_analyses, figures_cross) in the session's default fixture run: the
files, and their numbers recomputed here from the run's corpus tables and sequence files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.training.cross_domain import RECORD_COLUMNS
from punctstyle.book.sequence_file import read_sequence
from punctstyle.marks import SENTENCE_END_CODES
from punctstyle.plan.cross import CROSS_FIGURES, CROSS_TABLES

pytestmark = pytest.mark.workflow


def test_the_cross_analyses_run_in_the_default_dag(default_fixture_run):
    out = default_fixture_run["outdir"]
    assert default_fixture_run["first"].returncode == 0
    for name in CROSS_TABLES:
        assert (out / f"analysis/cross/{name}.csv").is_file(), name
    for name in CROSS_FIGURES:
        assert (out / f"figures/{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert (out / f"figures/{name}.pdf").read_bytes()[:4] == b"%PDF"
    assert "Where punctuation beats words" in (out / "tables/beyond_cross.html").read_text()


def test_the_gap_fits_count_what_the_sequence_files_hold(default_fixture_run):
    out = default_fixture_run["outdir"]
    corpus = pd.read_parquet(out / "corpus/f1.parquet")
    fits = pd.read_csv(out / "analysis/cross/gap_weibull.csv").set_index("book_id")
    assert sorted(fits.index) == sorted(default_fixture_run["expected"]["corpus"]) == sorted(corpus["book_id"])
    for book_id, n_marks in zip(corpus["book_id"], corpus["n_marks"], strict=True):
        sequence, _ = read_sequence(out / f"sequences/{book_id}.parquet")
        gaps, marks = np.asarray(sequence.gaps), np.asarray(sequence.marks)
        row = fits.loc[book_id]
        assert row["zero_gaps"] == int((gaps == 0).sum()) and row["n_gaps"] == int((gaps > 0).sum()), book_id
        assert row["zero_gaps"] + row["n_gaps"] == n_marks
        words = np.cumsum(gaps)[np.isin(marks, sorted(SENTENCE_END_CODES))]
        assert row["n_sentences"] == int((np.diff(words) > 0).sum()), book_id
    assert fits["p"].between(0, 1, inclusive="neither").all() and (fits["beta"] > 0).all()
    # the fixture authors write sentences of set shapes: every word-gap hazard increases
    assert (fits["beta"] > 1).all()


def test_the_author_explains_the_fixture_books_gap_shapes(default_fixture_run):
    out = default_fixture_run["outdir"]
    fits = pd.read_csv(out / "analysis/cross/gap_weibull.csv")
    consistency = pd.read_csv(out / "analysis/cross/gap_weibull_consistency.csv").set_index("parameter")
    for column in ("p", "beta", "sentence_p", "sentence_beta"):
        x = fits[column].to_numpy(float)
        means = fits.groupby("author")[column].transform("mean").to_numpy(float)
        eta = 1.0 - np.sum((x - means) ** 2) / np.sum((x - x.mean()) ** 2)
        assert consistency.loc[column, "eta_squared"] == pytest.approx(eta, abs=1e-12), column
        assert eta > 0.9, column  # three authors of distinct habits
    recognition = pd.read_csv(out / "analysis/cross/gap_weibull_recognition.csv")
    # config/test.yaml: cross.seeds [0, 1]; four inputs; 10 books by 3 authors
    assert len(recognition) == 8 and set(recognition["seed"]) == {0, 1}
    assert (recognition["n_books"] == 10).all() and (recognition["n_authors"] == 3).all()
    assert np.allclose(recognition["baseline"], 1 / 3)
    assert (recognition["accuracy"] == 1.0).all()  # the four f8 numbers tell the fixture authors apart


def test_no_pair_of_groups_is_compared_on_the_fixture_corpus(default_fixture_run):
    # every fixture book's subject is "Fiction" and no bookshelf names children: one form and
    # one audience, so no pair of groups and no records (the group split is unit-tested in
    # tests/unit/test_cross.py; the fixture corpus has too few books for a pair); the files
    # still have their columns
    out = default_fixture_run["outdir"]
    selection = pd.read_parquet(out / "corpus/selection.parquet")
    assert {s for subjects in selection["subjects"] for s in subjects} == {"Fiction"}
    sizes = pd.read_csv(out / "analysis/cross/group_sizes.csv")
    assert sizes.empty
    records = pd.read_csv(out / "analysis/cross/cross_domain_records.csv")
    assert records.empty and list(records.columns) == list(RECORD_COLUMNS)
