"""The whole DAG on a mini mirror that the test writes and serves on 127.0.0.1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import HTML_BOOK, LATIN1_BOOK, MISSING_BOOK

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def workflow_run(default_fixture_run):
    """The shared default run (tests/workflow/conftest.py)."""
    return default_fixture_run


def test_selection_applies_the_catalog_filters(workflow_run):
    selection = pd.read_parquet(workflow_run["outdir"] / "corpus/selection.parquet")
    assert selection["book_id"].tolist() == workflow_run["expected"]["selected"]
    filters = pd.read_csv(workflow_run["outdir"] / "corpus/selection_filters.csv")
    removed = dict(zip(filters["filter"], filters["removed"]))
    assert removed["language"] == 1 and removed["type"] == 1
    assert removed["drop_authors"] == 1 and removed["drop_title_words"] == 1


def test_corpus_tables_hold_the_downloadable_books(workflow_run):
    out = workflow_run["outdir"]
    corpus = workflow_run["expected"]["corpus"]
    for feature, size in (("f1", 10), ("f2", 100), ("f3", 100), ("f4", 200), ("f5", 40), ("f6", 100)):
        table = pd.read_parquet(out / f"corpus/{feature}.parquet")
        assert sorted(table["book_id"]) == sorted(corpus)
        assert dict(zip(table["book_id"], table["author"])) == corpus
        values = table[[c for c in table.columns if c.startswith(f"{feature}[")]].to_numpy()
        assert values.shape == (len(corpus), size)
        if feature in ("f1", "f3", "f4", "f5"):
            assert abs(values.sum(axis=1) - 1).max() < 1e-9
    f1 = pd.read_parquet(out / "corpus/f1.parquet").set_index("author")
    # the invented styles show: Quill uses semicolons, Comma parentheses, Dash exclamations
    assert f1.loc["Quill, Ada", "f1[;]"].min() > f1.loc["Comma, Barnaby", "f1[;]"].max()
    assert f1.loc["Comma, Barnaby", "f1[(]"].min() > 0.05
    assert f1.loc["Dash, Cora", "f1[!]"].min() > f1.loc["Quill, Ada", "f1[!]"].max()


def test_bad_books_are_excluded_with_reasons(workflow_run):
    out = workflow_run["outdir"]
    exclusions = pd.read_csv(out / "corpus/exclusions.csv").set_index("book_id")
    assert set(exclusions.index) == set(workflow_run["expected"]["excluded"])
    assert "unavailable" in exclusions.loc[MISSING_BOOK, "reason"]
    assert "rejected" in exclusions.loc[HTML_BOOK, "reason"]
    assert (exclusions["stage"] == "download").all()
    provenance = json.loads((out / f"books/{LATIN1_BOOK}.json").read_text())
    assert provenance["encoding"] == "latin-1" and provenance["status"] == "ok"
    summary = json.loads((out / "corpus/summary.json").read_text())
    assert summary["books_in_corpus"] == len(workflow_run["expected"]["corpus"])
    assert summary["excluded_by_stage"] == {"download": 2}


def test_second_run_does_nothing(workflow_run):
    text = workflow_run["second"].stdout + workflow_run["second"].stderr
    assert "Nothing to be done" in text, text[-2000:]


# ------------------------------------------------ reruns follow real inputs (`snakemake -n`)


def planned_jobs(workflow_run, tmp_path: Path, overlay: dict | None = None, *cli: str) -> list[tuple[str, dict]]:
    """(rule, wildcards) of every job that a dry run plans after the complete first run,
    with ``overlay`` merged over the run's config (default rerun triggers)."""
    args = ["--cores", "2", "--dry-run", "--configfile", "config/test.yaml", str(workflow_run["config"])]
    if overlay:
        extra = tmp_path / "overlay.yaml"
        extra.write_text(yaml.safe_dump(overlay))
        args.append(str(extra))
    text = snakemake(*args, *cli).stdout
    jobs = []
    # the per-book jobs (group "books") are listed indented by 4 spaces
    for block in re.split(r"\n(?= *(?:local)?(?:rule|checkpoint) \w+:\n)", "\n" + text):
        name = re.match(r" *(?:local)?(?:rule|checkpoint) (\w+):\n", block)
        if not name:
            continue
        found = re.search(r"^\s+wildcards: (.*)$", block, flags=re.M)
        wildcards = dict(part.split("=", 1) for part in found.group(1).split(", ")) if found else {}
        jobs.append((name.group(1), wildcards))
    return jobs


# what a recognition row feeds: the tables, figures, appendix, the report's configuration page
RECOGNITION_DEPENDENTS = {"recognition", "recognition_tables", "figures_recognition", "appendix_table", "config_used",
                          "recognition_word_tables", "all"}
# the f3 importance rows use the recognition seeds and splits
SEED_DEPENDENTS = RECOGNITION_DEPENDENTS | {"f3_importance_row", "f3_importance", "figures_f3_importance"}


def test_a_new_seed_plans_only_its_own_recognition_jobs(workflow_run, tmp_path):
    jobs = planned_jobs(workflow_run, tmp_path, {"recognition": {"seeds": [0, 1, 2]}})
    recognition = [wc for rule, wc in jobs if rule == "recognition"]
    assert recognition and {wc["seed"] for wc in recognition} == {"2"}, jobs
    assert {wc["seed"] for _, wc in jobs if "seed" in wc} == {"2"}, jobs  # never an existing seed
    assert {rule for rule, _ in jobs} <= SEED_DEPENDENTS, jobs


def test_a_new_class_size_that_caps_to_every_class_plans_no_row(workflow_run, tmp_path):
    # 3 classes of each task: size 3 is the "all" row's experiment, so no row job is planned
    # (the row targets follow the corpus tables) and no table is recomputed; only the
    # recognition figures' job reruns, its page naming the configured size without a row
    jobs = planned_jobs(workflow_run, tmp_path, {"recognition": {"class_sizes": [2, 3, "all"]}})
    assert [wc for rule, wc in jobs if rule == "recognition"] == [], jobs
    assert {rule for rule, _ in jobs} == {"config_used", "figures_recognition", "all"}, jobs


# the analyses beyond the paper: rules that config/paper_only.yaml leaves out of the run
BEYOND_THE_PAPER = {"corpus_words", "recognition_word_tables", "attribution_model", "f3_importance_row",
                    "f3_importance", "figures_f3_importance", "book_parts", "figures_parts", "length_curve_row",
                    "length_curve", "figures_length_curve", "sequence_row", "sequence_table", "verification",
                    "figures_verification", "corpus_map", "rolling_collaborations", "cross_analyses", "figures_cross"}
PAPER_RULES = {"download_catalog", "select_books", "download_book", "tokenizer_rules", "extract_book",
               "corpus_tables", "consistency", "consistency_summary", "recognition", "recognition_tables",
               "appendix_table", "temporal", "figures_corpus", "figures_documents", "figures_kl",
               "figures_kl_heatmaps", "figures_recognition", "figures_temporal", "config_used", "skipped_analyses"}


def test_the_paper_only_overlays_plan_the_paper_and_nothing_beyond(workflow_run):
    # the README's timed commands: the rule of every output file of the whole DAG (--summary,
    # with the run's corpus tables deciding the rows) under the overlays
    def rules_and_seeds(*overlays: str) -> tuple[set[str], set[str]]:
        args = ["--cores", "2", "--summary", "--configfile", "config/test.yaml", str(workflow_run["config"]), *overlays]
        rows = [line.split("\t") for line in snakemake(*args).stdout.splitlines()[1:] if line.count("\t") >= 2]
        seeds = {re.search(r"seed(\d+)", path).group(1) for path, _, rule, *_ in rows if rule == "recognition"}
        return {rule for _, _, rule, *_ in rows}, seeds

    default_rules, default_seeds = rules_and_seeds()
    assert {"corpus_words", "attribution_model", "f3_importance_row", "book_parts"} <= default_rules
    paper_rules, paper_seeds = rules_and_seeds("config/paper_only.yaml")
    assert PAPER_RULES <= paper_rules and not paper_rules & BEYOND_THE_PAPER, paper_rules
    assert paper_seeds == default_seeds == {"0", "1"}
    one_run_rules, one_run_seeds = rules_and_seeds("config/paper_only.yaml", "config/one_run_per_row.yaml")
    assert one_run_rules == paper_rules and one_run_seeds == {"0"}
    # the opt-in analyses of docs/results.md: the sequence network (config/test.yaml keeps the
    # length curve off, so only the sequence network's rules join)
    all_rules, _ = rules_and_seeds("config/all_analyses.yaml")
    assert "sequence_row" not in default_rules and {"sequence_row", "sequence_table"} <= all_rules - default_rules


@pytest.mark.parametrize(
    "overlay",
    [
        {"recognition": {"mlp": {"threads": 2, "device": "cpu"}}},
        {"mirror": {"timeout_s": 5, "retries": 0}},
    ],
    ids=["mlp-threads-device", "mirror-timeout-retries"],
)
def test_settings_of_how_a_run_goes_plan_nothing(workflow_run, tmp_path, overlay):
    assert planned_jobs(workflow_run, tmp_path, overlay) == []


def test_an_inclusion_setting_reruns_every_extraction_and_no_download(workflow_run, tmp_path):
    # extract_book writes the features too: a features setting reruns it (extraction included),
    # never the download of a book (issue 37)
    jobs = planned_jobs(workflow_run, tmp_path, {"extraction": {"min_marks": 21}})
    extracted = sorted(int(wc["book_id"]) for rule, wc in jobs if rule == "extract_book")
    assert extracted == sorted(workflow_run["expected"]["selected"]), jobs
    assert not {"download_book", "download_catalog", "select_books", "tokenizer_rules"} & {r for r, _ in jobs}, jobs
    assert ("corpus_tables", {}) in jobs


def test_baseline_pairs_plan_no_recognition_job(workflow_run, tmp_path):
    jobs = planned_jobs(workflow_run, tmp_path, {"consistency": {"baseline_pairs": 300}})
    rules = {rule for rule, _ in jobs}
    assert "consistency" in rules and "recognition" not in rules and "recognition_tables" not in rules, jobs


def test_the_readmes_command_line_config_forms_keep_their_types(workflow_run, tmp_path):
    """Nested --config values arrive as strings; the same values as the run's plan nothing."""
    jobs = planned_jobs(
        workflow_run,
        tmp_path,
        None,
        "--config",
        "selection={min_docs_per_author: 3}",
        "recognition={seeds: [0, 1]}",
        "extraction={min_marks: 20}",
    )
    assert jobs == []


def test_word_baselines_table_appears_beside_tables_2_3(workflow_run):
    out = workflow_run["outdir"]
    words = pd.read_csv(out / "analysis/recognition/author_words_results.csv")
    results = pd.read_csv(out / "analysis/recognition/author_results.csv")
    # the same rows (class sizes, seeds) and splits (training and test sizes) as Tables 2-3
    keys = ["n_classes", "seed", "n_train", "n_test"]
    assert set(map(tuple, words[keys].values)) == set(map(tuple, results[keys].values))
    assert set(zip(words["method"], words["feature_set"])) == {
        (method, f"{name}{k}") for k in (100, 500, 1000)
        for method, name in (("delta", "words"), ("mlp", "words"), ("mlp", "all+words"))
    }  # fmt: skip
    markdown = (out / "analysis/recognition/author_words.md").read_text()
    assert "author recognition, Burrows' Delta, word baselines" in markdown and "all + 100 words" in markdown
    assert "Burrows&#x27; Delta" in (out / "tables/recognition_words_author.html").read_text()
    assert (out / "corpus/words.npz").is_file() and list((out / "words").glob("*.parquet"))
