"""Issue 25's rules (cross_analyses, figures_cross) in the session's default fixture run."""

from __future__ import annotations

import pandas as pd

from punctstyle.beyond.cross_domain import RECORD_COLUMNS
from punctstyle.plan.cross import CROSS_FIGURES, CROSS_TABLES


def test_the_cross_analyses_run_in_the_default_dag(default_fixture_run):
    out = default_fixture_run["outdir"]
    assert default_fixture_run["first"].returncode == 0
    for name in CROSS_TABLES:
        assert (out / f"analysis/cross/{name}.csv").is_file(), name
    for name in CROSS_FIGURES:
        assert (out / f"figures/{name}.png").stat().st_size > 0
        assert (out / f"figures/{name}.pdf").stat().st_size > 0
    assert "Where punctuation beats words" in (out / "tables/beyond_cross.html").read_text()
    corpus = default_fixture_run["expected"]["corpus"]
    fits = pd.read_csv(out / "analysis/cross/gap_weibull.csv")
    assert sorted(fits["book_id"]) == sorted(corpus)
    fitted = fits.dropna(subset=["p"])
    assert len(fitted) and fitted["p"].between(0, 1).all() and (fitted["beta"] > 0).all()
    records = pd.read_csv(out / "analysis/cross/cross_domain_records.csv")
    assert list(records.columns) == list(RECORD_COLUMNS)
    assert set(records["condition"]) <= {"within", "cross"}
    assert (records["train_group"] != records["test_group"]).all()
