"""Rule across_languages (punctstyle.jobs.across_languages) and its planning
(punctstyle.plan.across_languages) on two tiny TEI collections of our own sentences, one French
and one German, without a Snakemake run."""

from __future__ import annotations

import logging
import math

import numpy as np
import pandas as pd
import pytest
from snakemake.utils import validate

from punctstyle.jobs.across_languages import TABLES, across_languages_job
from punctstyle.plan import across_languages as plan
from punctstyle.settings import SCHEMA_PATH
from tests.fixtures.tei_corpus import tei_document
from tests.unit.test_plan_rows import config

# language -> time slot -> the one sentence of every paragraph of a novel (its f1 is exact); the
# four use the same marks (, ; . !), the languages differ more than the slots
SENTENCES = {
    "fr": {"T1": "Il vint, puis, seul, enfin, las ; triste ; partit. Quel soir !",
           "T2": "Il vint, puis, seul, enfin, las ; partit. Triste. Quel soir !"},
    "de": {"T1": "Er kam, still; dann. Ging. Weg. Fort! Ja! Aus.",
           "T2": "Er kam, still; dann. Ging! Weg! Fort! Ja! Aus."},
}
F1 = {  # the sentences' f1: 8 marks each
    ("fr", "T1"): {",": 4 / 8, ";": 2 / 8, ".": 1 / 8, "!": 1 / 8},
    ("fr", "T2"): {",": 4 / 8, ";": 1 / 8, ".": 2 / 8, "!": 1 / 8},
    ("de", "T1"): {",": 1 / 8, ";": 1 / 8, ".": 4 / 8, "!": 2 / 8},
    ("de", "T2"): {",": 1 / 8, ";": 1 / 8, ".": 2 / 8, "!": 4 / 8},
}


def write_collection(folder, language: str) -> None:
    """Four authors of two novels each, two authors a time slot; no metadata table (the headers')."""
    folder.mkdir()
    for a in range(4):
        slot = "T1" if a < 2 else "T2"
        for k in range(2):
            data = tei_document([SENTENCES[language][slot]] * 30, language=language, author=f"Auteur{a}, {language}",
                                title=f"Roman {k}", time_slot=slot, gender="F")
            (folder / f"{language.upper()}{a}{k}.xml").write_bytes(data)


@pytest.fixture(scope="module")
def collections(tmp_path_factory):
    root = tmp_path_factory.mktemp("collections")
    write_collection(root / "coll-fr", "fr")
    write_collection(root / "coll-de", "de")
    (root / "coll-de" / "broken.xml").write_bytes(b"<TEI><text><body><p>ouvert</body></TEI>")
    return root


def block(root, **changes):
    return {"enabled": True, "collections": [{"path": str(root / "coll-fr")}, {"path": str(root / "coll-de"),
                                                                               "language": "deu"}],
            "dialogue_dash": "none", "seeds": [0, 1], "test_fraction": 0.5, **changes}


@pytest.fixture(scope="module")
def tables(collections, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    outputs = {name: out / f"{name}.csv" for name in TABLES}
    across_languages_job(block(collections), outputs, logging.getLogger("across_languages"))
    return {name: pd.read_csv(path) for name, path in outputs.items()}


def test_every_novel_is_read_in_its_collections_language(tables):
    novels = tables["novels"]
    assert len(novels) == 16 and novels.groupby("language").size().to_dict() == {"de": 8, "fr": 8}
    assert set(novels["collection"]) == {"coll-fr", "coll-de"} and "broken.xml" not in set(novels["file"])
    marks = novels.groupby(["language", "time_slot"])["marks"].unique().map(list).to_dict()
    # 30 paragraphs of the sentence (the head "I" has no mark)
    assert marks == {key: [8 * 30] for key in F1}
    assert tables["weibull"].set_index("language")["novels"].to_dict() == {"de": 8, "fr": 8}


def test_f1_by_slot_is_each_slots_exact_f1(tables):
    by_slot = tables["f1_by_slot"].set_index(["language", "time_slot"])
    assert by_slot["novels"].to_dict() == {("de", "T1"): 4, ("de", "T2"): 4, ("fr", "T1"): 4, ("fr", "T2"): 4}
    names = {",": "comma", ".": "period", ";": "semicolon", "!": "exclamation mark", "?": "question mark"}
    for key, shares in F1.items():
        row = by_slot.loc[key]
        for mark, name in names.items():
            assert row[name] == pytest.approx(shares.get(mark, 0.0), abs=1e-12), (key, mark)


def test_kl_within_and_across_languages(tables):
    f1 = tables["language_kl"].query("feature == 'f1'").set_index(["language_a", "language_b"])
    # within French: 24 ordered pairs of novels of one slot (KL 0), 32 of two slots, each
    # KL(T1||T2) = KL(T2||T1) = 1/4 ln 2 - 1/8 ln 2 = 1/8 ln 2
    assert f1.loc[("fr", "fr"), "pairs"] == 8 * 7
    assert f1.loc[("fr", "fr"), "mean"] == pytest.approx(32 * math.log(2) / 8 / 56, rel=1e-5)
    # French T1 to German T1: sum p ln(p/q) over , ; . ! = 1/2 ln 4 + 1/4 ln 2 + 1/8 ln(1/4) + 1/8 ln(1/2)
    p, q = np.array(list(F1["fr", "T1"].values())), np.array(list(F1["de", "T1"].values()))
    assert float(np.sum(p * np.log(p / q))) == pytest.approx(math.log(2) * (1 + 0.25 - 0.25 - 0.125))
    assert f1.loc[("fr", "de"), "pairs"] == 64 and f1.loc[("de", "fr"), "pairs"] == 64
    assert f1.loc[("fr", "de"), "mean"] > 4 * f1.loc[("fr", "fr"), "mean"]


def test_the_language_and_the_time_slot_are_recognised(tables):
    language = tables["language_accuracy"]
    assert sorted(language["feature"].unique()) == ["f1", "f3"] and len(language) == 4  # 2 seeds x 2 features
    assert (language["train"] + language["test"] == 16).all()
    # f1: a test novel is its slot's sentence, nearer its language's mean signature than the other's
    assert language.query("feature == 'f1'")["accuracy"].tolist() == [1.0, 1.0]
    slots = tables["time_slot_accuracy_summary"]
    assert len(slots) == 4 and set(slots["classes"]) == {2} and set(slots["novels"]) == {8}
    assert (slots["seeds"] == 2).all()
    # f1 within a language: a test novel equals its slot's training novels (KL 0)
    assert slots.query("feature == 'f1'")["accuracy_mean"].tolist() == [1.0, 1.0]


def test_one_language_has_no_language_rows(collections, tmp_path):
    outputs = {name: tmp_path / f"{name}.csv" for name in TABLES}
    across_languages_job(block(collections, collections=[{"path": str(collections / "coll-fr")}]), outputs,
                         logging.getLogger("across_languages"))
    assert pd.read_csv(outputs["language_accuracy"]).empty
    assert len(pd.read_csv(outputs["time_slot_accuracy"])) == 4  # French: 2 seeds x 2 features


def test_the_plan_targets_inputs_and_config_errors(collections):
    off = config(outdir="r")
    assert off["across_languages"]["enabled"] is False and off["across_languages"]["collections"] == []
    assert plan.across_languages_outputs(off) == [] and plan.across_languages_inputs(off) == []
    assert plan.across_languages_config_error(off) is None
    on = config(outdir="r", across_languages=block(collections))
    files = plan.across_languages_files(on)
    assert list(files) == list(TABLES) and files["weibull"] == "r/analysis/across_languages/weibull.csv"
    assert plan.across_languages_outputs(on) == list(files.values())
    inputs = plan.across_languages_inputs(on)
    assert len(inputs) == 8 + 9 and inputs[0].endswith("coll-fr/FR00.xml") and inputs[-1].endswith("coll-de/broken.xml")
    assert plan.across_languages_config_error(config(across_languages={"enabled": True, "collections": []})) == (
        "config across_languages.collections: empty, but across_languages.enabled is true "
        "(give [{path: <a TEI collection's folder>, language: null}, ...])")
    missing = config(across_languages={"enabled": True, "collections": [{"path": str(collections / "none")}]})
    assert plan.across_languages_config_error(missing) == (
        f"config across_languages.collections: {collections / 'none'} is not a folder")


def test_the_schema_takes_the_block_and_refuses_an_entry_without_a_path(collections):
    good = config(across_languages=block(collections))
    validate(good, str(SCHEMA_PATH))
    bad = config(across_languages={"enabled": True, "collections": [{"language": "fr"}]})
    with pytest.raises(Exception, match="'path' is a required property"):
        validate(bad, str(SCHEMA_PATH))
