"""The length curve (beyond the paper) on the fixture mirror: rows, table, figure and report flag.

Runs only the length curve's targets, with a small grid, on a copy of the default fixture run (its
selection, books and corpus tables; the recognition rows and their stores remade: they store the fits the curve reads);
config/test.yaml keeps the curve off for the other workflow tests.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import snakemake
from tests.workflow.conftest import derived_run

pytestmark = pytest.mark.workflow

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LENGTHS = [20, 40, 100000]  # 100000: longer than every fixture book (used whole, counted)
TARGETS = [
    "analysis/length/author_results.csv",
    "analysis/length/author_summary.csv",
    "analysis/length/author_summary.md",
    "figures/beyond/length_curve.png",
    "figures/beyond/length_curve.pdf",
    "tables/beyond_length_curve.html",
]


@pytest.fixture(scope="module")
def run(default_fixture_run, tmp_path_factory):
    length = {
        "enabled": True,
        "lengths": LENGTHS,
        "class_sizes": [2, 10],
        # a word method: the rows also read the books' texts, words files and tokenizer rules
        # words100: the grid's word baseline network of the same row, read from its store
        "methods": {"kl": ["f3"], "mlp": ["f1", "words100"], "delta": ["words20"]},
        "training": ["whole", "excerpt"],
    }
    overlay = {"recognition": {"mlp": {"max_epochs": 5}}, "length_curve": length}
    with derived_run(default_fixture_run, tmp_path_factory, overlay, remake=("analysis/recognition", "models/author")) as served:
        outdir, config = served.outdir, served.config
        targets = [str(outdir / target) for target in TARGETS]
        snakemake(*targets, "--cores", "2", "--configfile", "config/test.yaml", str(config))
        summary = snakemake("--configfile", "config/test.yaml", str(config), "--summary").stdout
        report = outdir.parent / f"{outdir.name}_report.zip"
        snakemake(*targets[3:], "--configfile", "config/test.yaml", str(config), "--report", str(report))
    return {"outdir": outdir, "summary": summary, "report": report}


def test_rows_table_and_markdown(run):
    outdir = run["outdir"]
    results = pd.read_csv(outdir / "analysis/length/author_results.csv", dtype={"length": str})
    corpus = pd.read_parquet(outdir / "corpus/f1.parquet")
    n_authors = corpus["author"].nunique()
    assert n_authors == 3
    # class sizes 2 and 10 (capped to 3), seeds 0 and 1 of config/test.yaml
    rows = results[["n_classes", "seed"]].drop_duplicates()
    assert sorted(map(tuple, rows.to_numpy().tolist())) == [(2, 0), (2, 1), (3, 0), (3, 1)]
    assert set(results["length"]) == {"20", "40", "100000", "whole"}
    assert set(zip(results["method"], results["feature_set"], strict=True)) == {
        ("kl", "f3"),
        ("mlp", "f1"),
        ("mlp", "words100"),
        ("delta", "words20"),
    }
    assert results["accuracy"].between(0, 1).all()
    longest = results[results["length"] == "100000"]
    assert (longest["n_short_test"] == longest["n_test"]).all()  # every book used whole, counted
    summary = pd.read_csv(outdir / "analysis/length/author_summary.csv", dtype={"length": str})
    assert set(summary["n_classes"]) == {2, 3} and (summary["n_seeds"] == 2).all()
    words = summary.groupby("length")["median_words"].first()
    assert words["20"] < words["40"] < words["whole"]
    excerpts = pd.read_csv(outdir / "analysis/length/author/2_classes/seed0_excerpts.csv", dtype={"length": str})
    test = excerpts[(excerpts["role"] == "test") & (excerpts["length"] == "20")]
    assert (test["n_marks"] == 20).all()
    markdown = (outdir / "analysis/length/author_summary.md").read_text()
    assert "### 2 authors" in markdown and "| chance level |" in markdown and "| median words |" in markdown
    assert "| Burrows' Delta | 20 words | whole |" in markdown


def test_word_rows_read_the_books_words(run):
    """A word method runs in every row (whole documents included) and the row's log names its
    training vocabulary (tests/unit/test_length_curve_words.py checks the values)."""
    outdir = run["outdir"]
    results = pd.read_csv(outdir / "analysis/length/author_results.csv", dtype={"length": str})
    delta = results[(results["method"] == "delta") & (results["length"] == "whole")]
    assert len(delta) == 4 and delta["accuracy"].between(0, 1).all()
    log = (outdir / "logs/length/author_2_classes_seed0.log").read_text()
    # the row's words: the largest k of its word methods (words100), or every word the
    # fixture's training books have when they have fewer
    found = re.search(r"the row's (\d+) words \(training books only\)", log)
    assert found and 20 < int(found.group(1)) <= 100, log


def test_the_whole_book_network_is_the_recognition_grids_read_from_its_store(run):
    """Training mode "whole" trains no MLP of its own: the recognition row's fit (the 2-author
    row's, and the "all" row's for 10 authors, which caps to the corpus's 3 and is named by
    them) is read from the store (punctstyle.experiments.fit_store) and the whole-book
    accuracy is the grid's."""
    outdir = run["outdir"]
    for classes in (2, 3):
        log = (outdir / f"logs/length/author_{classes}_classes_seed0.log").read_text()
        assert "mlp f1: the recognition grid's fit, read from the store" in log
    results = pd.read_csv(outdir / "analysis/length/author_results.csv", dtype={"length": str})
    whole = results[(results["method"] == "mlp") & (results["feature_set"] == "f1") & (results["length"] == "whole")
                    & (results["n_classes"] == 2)]
    grid = pd.read_csv(outdir / "analysis/recognition/author/2_classes/seed0_results.csv")
    grid = grid[(grid["method"] == "mlp") & (grid["feature_set"] == "f1")]
    row = whole[whole["seed"] == 0]
    assert row["accuracy"].tolist() == grid["accuracy"].tolist() and row["epochs"].tolist() == grid["epochs"].tolist()


def test_the_whole_book_word_network_is_the_word_baselines_read_from_the_store(run):
    """The word network of training mode "whole" (words100) is the grid's word baseline of the
    same row, stored with its words and read back: the same accuracy and epochs."""
    outdir = run["outdir"]
    for classes in (2, 3):
        log = (outdir / f"logs/length/author_{classes}_classes_seed0.log").read_text()
        assert "mlp words100: the recognition grid's fit, read from the store" in log
    results = pd.read_csv(outdir / "analysis/length/author_results.csv", dtype={"length": str})
    whole = results[(results["method"] == "mlp") & (results["feature_set"] == "words100")
                    & (results["length"] == "whole") & (results["n_classes"] == 2) & (results["seed"] == 0)]
    grid = pd.read_csv(outdir / "analysis/recognition/author/2_classes/seed0_words.csv")
    grid = grid[(grid["method"] == "mlp") & (grid["feature_set"] == "words100")]
    assert len(whole) == len(grid) == 1
    assert whole["accuracy"].tolist() == grid["accuracy"].tolist() and whole["epochs"].tolist() == grid["epochs"].tolist()


def test_figure_and_report_table(run):
    outdir = run["outdir"]
    png = outdir / "figures/beyond/length_curve.png"
    assert png.read_bytes()[:8] == PNG_SIGNATURE and png.stat().st_size > 5000
    assert (outdir / "figures/beyond/length_curve.pdf").read_bytes()[:5] == b"%PDF-"
    html = (outdir / "tables/beyond_length_curve.html").read_text()
    assert "<table" in html and "KL nearest class" in html


def test_the_report_shows_it_beyond_the_paper(run):
    with zipfile.ZipFile(run["report"]) as archive:
        names = archive.namelist()
        html = archive.read(next(n for n in names if n.endswith("report.html"))).decode("utf-8")
    assert any(n.endswith("/length_curve.png") for n in names)
    assert any(n.endswith("/beyond_length_curve.html") for n in names)
    assert "Beyond the paper" in html and "Accuracy against text length" in html
    assert "consecutive marks, n = [20, 40, 100000]" in html  # the caption, filled in from the config


def test_rule_all_asks_for_the_curve(run):
    declared = {Path(line.split("\t")[0]) for line in run["summary"].splitlines() if "\t" in line}
    for target in TARGETS:
        assert run["outdir"] / target in declared
