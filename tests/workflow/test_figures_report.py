"""Figures, tables and the Snakemake report on the fixture mirror (sections 2-5 and appendix).

On a copy of the session's default run (tests/workflow/conftest.py): `snakemake --report`, then
a second run with a publication-year CSV (only the temporal jobs rerun) and a second report.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from punctstyle.logs import parse_job_cost
from tests.conftest import REPO, snakemake
from tests.workflow.conftest import derived_run

pytestmark = pytest.mark.workflow

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PDF_SIGNATURE = b"%PDF-"
AUTHORS = ["Comma, Barnaby", "Dash, Cora", "Quill, Ada"]
# Publication years of the fixture books (102 and 203 are not in the corpus: ignored).
PUBLICATION_YEARS = {101: 1850, 102: 1851, 103: 1855, 104: 1862, 201: 1875, 202: 1880, 203: 1881, 204: 1886,
                     301: 1900, 302: 1904, 303: 1904, 304: 1911}
OVER_TIME_AUTHORS = ["Quill, Ada", "Dash, Cora"]


def declared_outputs(config: Path) -> pd.DataFrame:
    """Every output file of the DAG with its rule (`snakemake --summary`)."""
    proc = snakemake("--configfile", "config/test.yaml", str(config), "--summary")
    lines = [line for line in proc.stdout.splitlines() if "\t" in line]
    rows = [line.split("\t") for line in lines[1:]]
    return pd.DataFrame([r[:3] for r in rows], columns=["output_file", "date", "rule"])


@pytest.fixture(scope="module")
def run(default_fixture_run, tmp_path_factory):
    """A copy of the session's default run (file times kept, so nothing is out of date), its
    ``snakemake --report``, then a second run with a publication-year CSV (only the temporal jobs
    rerun) and a second report. The copy keeps the session's run unchanged for the other modules."""
    work = tmp_path_factory.mktemp("figures_report")
    with derived_run(default_fixture_run, tmp_path_factory, {}) as served:
        outdir, config = served.outdir, served.config
        return report_and_dated_run(work, outdir, config)


def report_and_dated_run(work: Path, outdir: Path, config: Path) -> dict:
    """``snakemake --report`` of the copy, a second run with a publication-year CSV and its report."""
    base = yaml.safe_load(config.read_text(encoding="utf-8"))
    years_csv = work / "publication_years.csv"
    pd.DataFrame({"book_id": list(PUBLICATION_YEARS), "year": list(PUBLICATION_YEARS.values())}).to_csv(
        years_csv, index=False
    )
    declared = declared_outputs(config)
    report = work / "report.html"
    snakemake("--configfile", "config/test.yaml", str(config), "--report", str(report))
    dated = work / "dated.yaml"
    temporal = {"publication_years_csv": str(years_csv), "authors_over_time": OVER_TIME_AUTHORS}
    dated.write_text(yaml.safe_dump({**base, "temporal": temporal}))
    second = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(dated))
    dated_declared = declared_outputs(dated)
    dated_report = work / "report_dated.html"
    snakemake("--configfile", "config/test.yaml", str(dated), "--report", str(dated_report))
    return {"outdir": outdir, "declared": declared, "report": report, "second": second,
            "dated_declared": dated_declared, "dated_report": dated_report}


def figures_of(declared: pd.DataFrame) -> list[Path]:
    rows = declared[declared["output_file"].str.contains("/figures/") & declared["output_file"].str.endswith(".png")]
    return [Path(p) for p in rows["output_file"]]


def assert_png_and_pdf(png: Path) -> None:
    assert png.is_file(), f"{png} is missing"
    data = png.read_bytes()
    assert data[:8] == PNG_SIGNATURE and len(data) > 2000, f"{png} is not a PNG with content"
    pdf = png.with_suffix(".pdf")
    assert pdf.is_file() and pdf.read_bytes()[:5] == PDF_SIGNATURE and pdf.stat().st_size > 1000, f"{pdf}"


def test_every_declared_figure_is_a_png_with_its_pdf(run):
    declared = run["declared"]
    figures = figures_of(declared)
    names = {p.relative_to(run["outdir"] / "figures").as_posix() for p in figures}
    expected = {"corpus/documents_per_author.png", "corpus/f1_histograms.png", "recognition/accuracy_author.png",
                "recognition/accuracy_genre.png", "temporal/author_dates.png", "temporal/f1_by_decade.png",
                "temporal/f1_by_decade_panels.png", "temporal/rate_by_decade.png"}
    for i in range(1, 7):  # two books each of the three authors; six pairs
        expected |= {f"documents/{kind}_{i}.png" for kind in ("sequence", "f1_bars", "f5_bars", "scatter")}
    expected |= {f"beyond/{name}.png" for name in ("f3_importance", "f3_top_k", "parts_kl", "parts_by_size")}
    default_config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    for feature in default_config["consistency"]["features"]:
        expected |= {f"kl/heatmap_{feature}_top{k}.png" for k in (2, 3)}
        expected |= {f"kl/{kind}_{task}_{feature}.png" for kind in ("consistency", "kl_distribution")
                     for task in ("author", "genre")}
    expected |= {f"maps/{family}_{name}.png" for family in default_config["maps"]["families"]
                 for name in ("pca", "mds_delta", "mds_kl", "dendrogram") if name != "mds_kl" or family == "f3"}
    expected |= {"rolling/collaborations.png", "beyond/verification.png"}
    expected |= {f"beyond/{name}.png" for name in ("cross_domain", "gap_weibull_fit", "gap_weibull_plane", "translators")}
    assert names == expected
    for png in figures:
        assert_png_and_pdf(png)
        assert png.with_suffix(".pdf") in {Path(p) for p in declared["output_file"]}
    # few jobs: one per figure family (per task where the caption needs it; the feature is a label)
    figure_rules = declared.loc[declared["output_file"].str.contains("/figures/"), "rule"].unique()
    assert set(figure_rules) == {"figures_corpus", "figures_documents", "figures_kl_heatmaps", "figures_kl",
                                 "figures_recognition", "figures_temporal", "figures_f3_importance",
                                 "figures_parts", "corpus_map", "corpus_map_kl", "rolling_collaborations",
                                 "figures_verification",
                                 "figures_cross"}


# the jobs before the corpus tables (per-book rules and the selection) that may log no cost line
BEFORE_THE_CORPUS = {"download_catalog", "select_books", "tokenizer_rules"}


def test_figure_table_and_consistency_jobs_one_per_family_each_with_its_cost(run):
    """Issue 37 item 2: consistency and the KL figures run one job per task, the heat maps one
    job, every feature in it; every job after the corpus tables ends its log with its cost line
    (``benchmarks/job_costs.py`` reads them)."""
    logs = run["outdir"] / "logs"
    names = {path.relative_to(logs).with_suffix("").as_posix() for path in logs.rglob("*.log")}
    assert {name for name in names if name.startswith(("consistency/", "figures/kl"))} == {
        "consistency/author", "consistency/genre", "consistency/summary",
        "figures/kl_author", "figures/kl_genre", "figures/kl_heatmaps"}
    uncosted = {name for name in names if parse_job_cost((logs / f"{name}.log").read_text()) is None}
    assert {name for name in uncosted if not name.startswith("books/")} <= BEFORE_THE_CORPUS, uncosted
    assert {"figures/corpus", "figures/config_used", "figures/appendix_author", "recognition/author_tables",
            "skipped_analyses"} <= names - uncosted


def test_sequence_books_and_pairs(run):
    chosen = json.loads((run["outdir"] / "figures/documents/books.json").read_text())
    books = chosen["books"]
    assert len(books) == 6
    by_author = [b["author"] for b in books]
    assert by_author[0::2] == by_author[1::2]  # two books per author, side by side
    assert sorted(set(by_author)) == AUTHORS
    assert [p["relation"] for p in chosen["pairs"]] == ["same author", "different authors"] * 3


def test_appendix_tables(run):
    tables = run["outdir"] / "tables"
    for task, classes in (("author", AUTHORS), ("genre", ["Adventure", "Horror", "Humor"])):
        table = pd.read_csv(tables / f"appendix_{task}.csv")
        assert list(table.columns) == ["rank", task, "documents", "test_size", "consistency_f3", "accuracy"]
        assert sorted(table[task]) == classes
        assert table["rank"].tolist() == [1, 2, 3]
        assert table["documents"].sum() == 10
        assert table["consistency_f3"].is_monotonic_increasing
        assert table["accuracy"].between(0, 1).all() and (table["test_size"] > 0).all()
        markdown = (tables / f"appendix_{task}.md").read_text()
        assert "| rank | " + task + " | documents | test_size | consistency_f3 | accuracy |" in markdown
        assert "<table>" in (tables / f"appendix_{task}.html").read_text()
        assert "neural network" in (tables / f"recognition_{task}.html").read_text()


def test_temporal_tables(run):
    temporal = run["outdir"] / "analysis/temporal"
    f1 = pd.read_csv(temporal / "f1_by_decade.csv")
    assert list(f1.columns) == ["decade", "code", "mark", "n", "mean", "sd", "ci_low", "ci_high"]
    # middle years: Quill (1820+1890)/2 = 1855, Comma 1850+30 = 1880, Dash 1930-30 = 1900
    assert sorted(f1["decade"].unique()) == [1850, 1880, 1900]
    assert f1.groupby("decade")["mean"].sum().round(9).eq(1.0).all()
    rate = pd.read_csv(temporal / "rate_by_decade.csv")
    assert rate["decade"].tolist() == [1850, 1880, 1900] and rate["n"].tolist() == [3, 3, 4]
    assert (rate["mean"] > 1).all()
    for name in ("dated_documents.csv", "date_counts_by_decade.csv"):
        assert len(pd.read_csv(temporal / name)) > 0


def test_report_has_every_section_and_the_skip_reason(run):
    report = run["report"]
    assert report.is_file() and report.stat().st_size > 500_000
    text = report.read_text(encoding="utf-8")
    for caption in ("Histogram of the number of documents per author", "consistency.top_k",
                    "ordered by f3 consistency", "Tables 2 (KL nearest class) and 3", "punctuation rate",
                    # one caption file per figure family, worded for its task (rule figures_kl: one job
                    # per task, the feature a label)
                    "Author consistency for one feature, the label", "Genre consistency for one feature",
                    "consistency_plots_genre", "dist_KL_genres", "documents of distinct genres"):
        assert caption in text, caption
    for category in ("1. Introduction", "2. Data and features", "3. Author analysis", "4. Genre analysis",
                     "5. Temporal analysis", "Appendix: author and genre lists", "Configuration", "Beyond the paper"):
        assert category in text, category
    assert "no CSV of publication years" in text  # the report says why the per-author figure is absent
    assert "authors_over_time.png" not in text


def test_publication_years_add_the_per_author_figure(run):
    outdir = run["outdir"]
    summary = json.loads((outdir / "analysis/temporal/summary.json").read_text())
    assert summary["over_time"]["drawn"] and summary["over_time"]["authors"] == OVER_TIME_AUTHORS
    table = pd.read_csv(outdir / "analysis/temporal/author_f1_over_time.csv")
    assert set(table["author"]) == set(OVER_TIME_AUTHORS)
    assert sorted(table.loc[table["author"] == "Quill, Ada", "year"].unique()) == [1850, 1855, 1862]
    assert table.loc[(table["author"] == "Dash, Cora") & (table["year"] == 1904), "n"].unique().tolist() == [2]
    figures = figures_of(run["dated_declared"])
    assert outdir / "figures/temporal/authors_over_time.png" in figures
    assert_png_and_pdf(outdir / "figures/temporal/authors_over_time.png")
    log = run["second"].stdout + run["second"].stderr
    assert "rule figures_temporal" in log and "rule recognition" not in log  # only the temporal jobs reran
    text = run["dated_report"].read_text(encoding="utf-8")
    assert "authors_over_time.png" in text and "no CSV of publication years" not in text
