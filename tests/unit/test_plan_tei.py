"""Planning of the TEI source and of other languages (punctstyle.plan.tei, punctstyle.plan.sources,
punctstyle.plan.corpus.tokenizer_rules_file): the rules file per language, the corpus language, the inputs."""

from __future__ import annotations

from importlib import metadata

import pytest

from punctstyle.io import InputError
from punctstyle.plan import corpus as plan_corpus
from punctstyle.plan import sources
from punctstyle.plan.cross import cross_enabled
from punctstyle.plan.tei import tei_inputs, tei_select_params
from punctstyle.plan.workflow import WorkflowPlan
from tests.fixtures.tei_corpus import write_tei_corpus
from tests.unit.test_plan_rows import config

SPACY = metadata.version("spacy")


@pytest.fixture(scope="module")
def eltec(tmp_path_factory):
    root = tmp_path_factory.mktemp("eltec") / "ELTeC-test"
    write_tei_corpus(root)
    return root


def test_the_english_rules_file_keeps_its_name():
    assert plan_corpus.tokenizer_rules_file(config(outdir="r")) == f"r/extraction/tokenizer_rules-spacy{SPACY}.json"


def test_rules_file_per_language_and_dialogue_dash(tmp_path):
    plan = WorkflowPlan(config(outdir="r", language="fra"))
    assert sources.corpus_language(plan.config) == "fr"
    assert plan_corpus.tokenizer_rules_file(plan.config) == f"r/extraction/tokenizer_rules-fr-spacy{SPACY}.json"
    dashed = WorkflowPlan(config(outdir="r", language="pl", **{"extraction.dialogue_dash": "quote"}))
    assert plan_corpus.tokenizer_rules_file(dashed.config) == f"r/extraction/tokenizer_rules-pl-dialogue-spacy{SPACY}.json"
    english_dash = WorkflowPlan(config(outdir="r", **{"extraction.dialogue_dash": "quote"}))
    assert plan_corpus.tokenizer_rules_file(english_dash.config) == f"r/extraction/tokenizer_rules-en-dialogue-spacy{SPACY}.json"


def test_a_tei_corpus_language_comes_from_its_table(eltec):
    plan = WorkflowPlan.from_config(config(outdir="r", source="tei", **{"tei.path": str(eltec)}))
    assert sources.corpus_language(plan.config) == "fr" and "-fr-" in plan_corpus.tokenizer_rules_file(plan.config)
    assert plan.publication_years_csv() == "r/corpus/publication_years.csv"
    assert plan_corpus.corpus_table_extra_inputs(plan.config) == {"metadata_exclusions": "r/corpus/metadata_exclusions.csv"}
    assert [name for name, _ in plan.skipped_analyses()] == ["genre analysis"]
    assert sources.corpus_genre_shelves(plan.config) is None
    assert not cross_enabled(config(source="tei", **{"cross.enabled": True}))


def test_a_missing_tei_folder_stops_in_one_line(tmp_path):
    with pytest.raises(InputError, match="config tei.path: needed"):
        WorkflowPlan.from_config(config(source="tei"))
    with pytest.raises(InputError, match="is not a folder"):
        WorkflowPlan.from_config(config(source="tei", **{"tei.path": str(tmp_path / "none")}))


def test_selection_inputs_and_params(eltec):
    cfg = config(source="tei", **{"tei.path": str(eltec)})
    inputs = tei_inputs(cfg)
    assert inputs[-1].endswith("ELTeC-test_metadata.tsv") and all("/level1/" in p for p in inputs[:-1])
    assert len(inputs) == 6 + 6 + 1  # the corpus, the bad files, the table
    params = tei_select_params(cfg, "fr")
    assert params["language"] == "" and params["tei"]["parts"] == ["body"]
    assert tei_select_params(config(language="fr"), "fr")["language"] == "fr"


def test_genre_from_feeds_the_genre_analysis(eltec):
    plan = WorkflowPlan.from_config(config(source="tei", **{"tei.path": str(eltec), "tei.genre_from": "gender"}))
    assert plan.skipped_analyses() == []
