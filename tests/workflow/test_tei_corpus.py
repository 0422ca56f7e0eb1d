"""A TEI corpus of our own (source: tei) through the corpus tables: French TEI novels of two
invented authors in ELTeC's layout (level1/*.xml and a metadata table), with refused files
(not well-formed, not TEI, no body, an external entity, an entity bomb), a text in another
language and a table row without a file; then the rest of the DAG planned (a dry run)."""

from __future__ import annotations

import gzip
import json
import re

import pandas as pd
import pytest
import yaml

from punctstyle.sources.folder import book_number, safe_doc_id
from tests.conftest import snakemake
from tests.fixtures.tei_corpus import write_tei_corpus

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def tei_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("eltec") / "ELTeC-test"
    expected = write_tei_corpus(root)
    outdir = tmp_path_factory.mktemp("results")
    config = tmp_path_factory.mktemp("config") / "run.yaml"
    config.write_text(yaml.safe_dump({"outdir": str(outdir), "source": "tei", "tei": {"path": str(root)}}))
    run = snakemake(f"{outdir}/corpus/summary.json", "--cores", "2", "--configfile", "config/test.yaml", str(config))
    dry = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(config), "--dry-run")
    words = tmp_path_factory.mktemp("config") / "words.yaml"
    words.write_text(yaml.safe_dump({"recognition": {"words": {"tasks": ["author", "time_slot", "gender"]}}}))
    dry_words = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(config), str(words), "--dry-run")
    return {"root": root, "outdir": outdir, "expected": expected, "run": run, "dry": dry, "dry_words": dry_words}


def test_selection_and_exclusions(tei_run):
    out, expected = tei_run["outdir"], tei_run["expected"]
    selection = pd.read_parquet(out / "corpus/selection.parquet")
    assert dict(zip(selection["doc_id"], selection["author"])) == {
        safe_doc_id(stem): author for stem, author in expected["corpus"].items()
    }
    assert set(selection["language"]) == {"fr"} and set(selection["time_slot"]) == {"T1", "T2"}
    exclusions = pd.read_csv(out / "corpus/exclusions.csv")
    metadata = exclusions[exclusions["stage"] == "metadata"]
    assert len(metadata) == len(expected["left_out"])
    for file, phrase in expected["left_out"].items():
        line = next(r for r in metadata["reason"] if file in r)
        assert phrase in line and line in tei_run["run"].stderr  # one line each, on the console too
    years = pd.read_csv(out / "corpus/publication_years.csv")
    assert sorted(years["year"]) == [1850, 1855, 1860, 1870, 1875, 1880]


def test_texts_are_the_bodies_and_the_french_rules_are_used(tei_run):
    out = tei_run["outdir"]
    assert [p.name for p in (out / "extraction").glob("tokenizer_rules*.json")] == [
        next(p.name for p in (out / "extraction").glob("*.json"))
    ] and next((out / "extraction").glob("*.json")).name.startswith("tokenizer_rules-fr-spacy")
    selection = pd.read_parquet(out / "corpus/selection.parquet")
    for book_id in selection["book_id"]:
        text = gzip.decompress((out / f"books/{book_id}.txt.gz").read_bytes()).decode("utf-8")
        assert text.startswith("I\n") and "Préface" not in text and "note de bas de page" not in text
        record = json.loads((out / f"books/{book_id}.json").read_text())
        assert record["source"] == "tei" and record["encoding"] == "tei" and record["status"] == "ok"


def test_corpus_tables_separate_the_two_habits(tei_run):
    out = tei_run["outdir"]
    f1 = pd.read_parquet(out / "corpus/f1.parquet").set_index("author")
    assert len(f1) == 6 and f1["n_marks"].min() > 100
    assert f1.loc["Virgule, Anne", "f1[,]"].min() > f1.loc["Point, Bernard", "f1[,]"].max()
    assert f1.loc["Point, Bernard", "f1[;]"].min() > f1.loc["Virgule, Anne", "f1[;]"].max()
    summary = json.loads((out / "corpus/summary.json").read_text())
    assert summary["books_in_corpus"] == 6 and summary["authors_in_corpus"] == 2
    # ELTeC's time slot and gender are label columns of the tables (metadata_tasks)
    assert f1.loc["Virgule, Anne", "time_slot"].tolist() == ["T1"] * 3 and set(f1["gender"]) == {"F", "M"}
    assert summary["time_slots_in_corpus"] == 2 and summary["genders_in_corpus"] == 2
    assert book_number("fra99999_absent") not in set(f1.index)


def test_the_rest_of_the_dag_is_planned(tei_run):
    dry = tei_run["dry"].stdout
    for rule in ("recognition", "consistency", "temporal", "skipped_analyses"):
        assert rule in dry
    # time slot and gender are tasks of their own (metadata_tasks: both by default for tei)
    assert "task=time_slot" in dry and "task=gender" in dry
    # the word baselines of a metadata task only when recognition.words.tasks names it
    assert "task=time_slot" not in _word_table_jobs(dry) and "task=gender" not in _word_table_jobs(dry)
    words = _word_table_jobs(tei_run["dry_words"].stdout)
    assert "task=time_slot" in words and "task=gender" in words and "task=author" in words
    # two authors: General Imposters needs three (plan.shapes), so verification is not planned
    assert "verification" not in dry


def _word_table_jobs(dry: str) -> str:
    """The dry run's ``recognition_word_tables`` job blocks: each from its ``rule`` line to the
    next ``rule``/``localrule``/``checkpoint`` line."""
    blocks = re.split(r"^(?=(?:rule|localrule|checkpoint) \w+:)", dry, flags=re.M)
    return "\n".join(block for block in blocks if block.startswith("rule recognition_word_tables:"))
