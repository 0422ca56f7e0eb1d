"""A Gutenberg corpus with one usable genre: the genre analysis is not run at all (issue 11).

Whether a corpus can feed a genre analysis (two genres with genres.min_docs documents each)
is known only once the corpus tables exist, so the rule corpus_tables is a checkpoint and the
genre targets follow it: no genre consistency, recognition, figures or appendix, one line at
the end of the run and a row in analysis/skipped_analyses.csv, and a report without a genre
section. The recognition rows follow it too: a class size that caps to every class is the
"all" row's experiment and is not run.
"""

from __future__ import annotations

import zipfile

import pandas as pd
import pytest

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import served_mini_mirror_run

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def one_genre_run(tmp_path_factory):
    overlay = {
        # only one author's shelf: one genre in the corpus
        "genres": {"shelves": ["Humor"]},
        # 10 caps to the 3 authors: the "all" row's experiment, not run
        "recognition": {"class_sizes": [2, 10, "all"], "seeds": [0], "mlp": {"max_epochs": 5}},
        # the analyses beyond the paper that do not read the genres off (cross, which compares genres, stays)
        "attribution": {"enabled": False},
        "beyond": {"importance": {"enabled": False}, "parts": {"enabled": False}},
        "verification": {"enabled": False},
        "rolling": {"enabled": False},
        "maps": {"enabled": False},
        # this run keeps Snakemake's own scheduler (the patch switched off; execution only)
        "scheduler_timers": False,
    }
    with served_mini_mirror_run(tmp_path_factory, overlay) as served:
        outdir, config = served.outdir, served.config
        args = ("--configfile", "config/test.yaml", str(config))
        run = snakemake("--cores", "2", *args)
        again = snakemake("--cores", "2", *args, "--dry-run")
        report = outdir.parent / f"{outdir.name}_report.zip"
        snakemake(*args, "--report", str(report))
    return {"outdir": outdir, "run": run, "again": again, "report": report}


def test_the_corpus_has_one_genre(one_genre_run):
    f1 = pd.read_parquet(one_genre_run["outdir"] / "corpus/f1.parquet")
    assert set(f1["genre"].dropna()) == {"Humor"}
    assert f1["author"].nunique() == 3


def test_no_genre_job_or_file(one_genre_run):
    outdir = one_genre_run["outdir"]
    genre_files = [str(path.relative_to(outdir)) for path in outdir.rglob("*genre*") if path.is_file()]
    assert genre_files == []
    assert "task=genre" not in one_genre_run["run"].stderr
    # the author analysis is complete
    for path in (
        "figures/kl/consistency_author_f3.png",
        "figures/kl/kl_distribution_author_f3.pdf",
        "figures/kl/heatmap_f3_top2.png",
        "figures/recognition/accuracy_author.png",
        "tables/appendix_author.html",
        "analysis/recognition/author_summary.csv",
    ):
        assert (outdir / path).is_file(), path
    summary = pd.read_csv(outdir / "analysis/consistency/summary.csv")
    assert set(summary["task"]) == {"author"}


def test_rows_follow_the_corpus(one_genre_run):
    recognition = one_genre_run["outdir"] / "analysis/recognition"
    assert sorted(path.name for path in (recognition / "author").iterdir()) == ["2_classes", "all_classes"]
    summary = pd.read_csv(recognition / "author_summary.csv")
    assert sorted(summary["n_classes"].unique()) == [2, 3]


def test_the_skip_is_said_once_with_its_cause(one_genre_run):
    skipped = pd.read_csv(one_genre_run["outdir"] / "analysis/skipped_analyses.csv")
    assert skipped["analysis"].tolist() == ["genre analysis"]
    cause = skipped["cause"].iloc[0]
    assert "the corpus has 1 genre(s)" in cause and "no genre consistency" in cause
    assert one_genre_run["run"].stdout.count(f"skipped genre analysis: {cause}") == 1


def test_the_run_without_the_scheduler_patch_warns_nothing(one_genre_run):
    assert "scheduler timer patch" not in one_genre_run["run"].stderr + one_genre_run["run"].stdout


def test_a_second_run_has_nothing_to_do_and_the_report_has_no_genre_section(one_genre_run):
    assert "Nothing to be done" in one_genre_run["again"].stdout + one_genre_run["again"].stderr
    with zipfile.ZipFile(one_genre_run["report"]) as archive:
        html = "".join(
            archive.read(name).decode("utf-8", "replace") for name in archive.namelist() if name.endswith(".html")
        )
    assert "3. Author analysis" in html
    assert "4. Genre analysis" not in html
    # the sections follow what ran (issue 38): no gap where the genre analysis would be
    assert "4. Temporal analysis" in html and "5. Temporal analysis" not in html
    assert "Appendix: author lists" in html and "author and genre lists" not in html
