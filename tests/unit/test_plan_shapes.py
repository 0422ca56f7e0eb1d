"""punctstyle.plan.shapes: the analyses a corpus' shape cannot feed, decided from the corpus
checkpoint's counts, with the exact cause a user reads (issue 33 item 1)."""

from __future__ import annotations

import json

import pandas as pd

from punctstyle.corpus.summary import texts_per_author
from punctstyle.plan import tasks
from punctstyle.plan import shapes, verification
from punctstyle.plan.analyses import analysis
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.workflow import WorkflowPlan
from tests.unit.test_plan_rows import config

MADE = "no verification files, figure or table were made"
TWO_AUTHORS = ("verification", "the corpus has 2 author(s), General Imposters needs 3 (the candidate, the text's "
                               f"own author and an imposter); {MADE}")
NO_TEST = "no author has a text to hold out at recognition.test_fraction=0.2 (an author needs 3 texts for one)"
NO_TEST_ROWS = [
    ("recognition accuracies", f"{NO_TEST}; the recognition rows were fitted but test no document"),
    ("f3 importance", f"{NO_TEST}; no f3 importance files, figures or table were made"),
]


def counts(*texts: int) -> CorpusCounts:
    return CorpusCounts({"author": len(texts), "genre": 0}, {f"A{i}": n for i, n in enumerate(texts)})


def skips(*texts: int, **changes) -> list[tuple[str, str]]:
    return shapes.shape_skips(shapes.shape_settings(config(**changes)), counts(*texts))


def test_the_texts_a_split_tests():
    assert [shapes.tested_texts(n, 0.2) for n in range(6)] == [0, 0, 0, 1, 1, 1]
    assert [shapes.tested_texts(n, 0.5) for n in range(5)] == [0, 0, 1, 2, 2]
    assert shapes.texts_for_a_test(0.2) == 3 and shapes.texts_for_a_test(0.34) == 2
    assert shapes.texts_for_a_test(0.1) == 5 and shapes.texts_for_a_test(0.0) is None


def test_a_corpus_that_feeds_everything_skips_nothing():
    assert skips(3, 3, 3) == [] and skips(12, 2, 2, 2) == [] and skips(12, 3) == [TWO_AUTHORS]


def test_verification_needs_three_authors_and_a_held_out_text():
    assert skips(3, 3) == [TWO_AUTHORS] and skips(12, 3) == [TWO_AUTHORS]
    # two texts each: none held out at 0.2, one at the fixture's 0.34
    assert skips(2, 2, 2, **{"recognition.test_fraction": 0.5}) == [
        ("verification", "no author has a text to hold out at verification.test_fraction=0.2 (an author needs "
                         f"3 texts for one); {MADE}")]
    assert skips(2, 2, 2, **{"recognition.test_fraction": 0.5, "verification.test_fraction": 0.34}) == []
    assert skips(3, 3, **{"verification.enabled": False}) == []


def test_without_a_text_to_test_the_importance_is_skipped_and_the_accuracies_are_said_to_be_empty():
    assert skips(2, 2, 2, 2, **{"verification.test_fraction": 0.34}) == NO_TEST_ROWS
    # one text per author (in excerpts): nothing is tested or held out
    assert skips(1, 1, 1, 1, 1, 1)[:2] == NO_TEST_ROWS
    assert skips(1, 1, 1, 1, 1, 1)[2][1].startswith("no author has a text to hold out at verification.test_fraction")
    assert skips(2, 2, 2, 2, **{"verification.test_fraction": 0.34, "beyond.importance.enabled": False}) == NO_TEST_ROWS[:1]


def test_one_author_left_after_extraction():
    cause = "the corpus has 1 author(s) after extraction, at least 2 are needed"
    assert skips(12) == [
        ("recognition accuracies", f"{cause}; the recognition rows are empty files naming this"),
        ("f3 importance", f"{cause}; no f3 importance files, figures or table were made"),
        ("verification", "the corpus has 1 author(s), General Imposters needs 3 (the candidate, the text's own "
                         f"author and an imposter); {MADE}"),
    ]


def test_a_summary_without_texts_per_author_counts_the_author_minimum():
    old = CorpusCounts({"author": 3, "genre": 0})
    assert shapes.shape_skips(shapes.shape_settings(config(**{"selection.min_docs_per_author": 3})), old) == []
    assert shapes.shape_skips(shapes.shape_settings(config(**{"selection.min_docs_per_author": 1})), old)[:2] == NO_TEST_ROWS


def test_targets_follow_the_shape():
    cfg = config(outdir="r", **{"verification.enabled": True, "beyond.importance.enabled": True})
    assert len(verification.verification_outputs(cfg, counts(3, 3, 3))) == 7
    assert verification.verification_outputs(cfg, counts(3, 3)) == []
    plan = WorkflowPlan(cfg)
    assert tasks.shape_skips(plan, counts(3, 3)) == [TWO_AUTHORS]
    importance = analysis("importance")
    assert "r/analysis/beyond/f3_importance.csv" in importance.planned(plan, counts(3, 3))
    assert importance.planned(plan, counts(2, 2, 2)) == []
    assert importance.planned(plan) == importance.planned(plan, counts(3, 3))


def test_the_summary_counts_texts_per_author_and_the_checkpoint_reads_them(tmp_path):
    whole = pd.DataFrame({"book_id": [1, 2, 3], "author": ["b", "a", "b"]})
    assert texts_per_author(whole) == {"a": 1, "b": 2}
    excerpts = pd.DataFrame({"book_id": [9, 10, 11], "source_id": [1, 1, 2], "excerpt": [0, 1, 0],
                             "author": ["a", "a", "a"]})
    assert texts_per_author(excerpts) == {"a": 2}
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"authors_in_corpus": 2, "genres_in_corpus": 0, "texts_per_author": {"a": 1, "b": 2}}))
    assert CorpusCounts.read(summary).texts_per_author == {"a": 1, "b": 2}
    summary.write_text(json.dumps({"authors_in_corpus": 2, "genres_in_corpus": 0}))
    assert CorpusCounts.read(summary).texts_per_author == {}


# --------------------------------------------------------------------------- excerpts and the word matrix

def test_excerpts_keep_every_reader_of_the_word_matrix():
    from punctstyle.plan import cross, maps, rows

    cut = config(outdir="r", **{"extraction.excerpt_marks": 1000, "maps.families": ["f3", "words"],
                                "rolling.methods": ["kl_f3", "delta_words", "delta_both"],
                                "verification.families": ["f3", "f3+words"], "verification.bundle_family": "f3",
                                "cross.enabled": True, "source": "gutenberg", "length_curve.enabled": True,
                                "length_curve.methods": {"delta": ["words100"]}})
    # each excerpt has its own words (corpus word matrix and word streams): only the cross-domain
    # analyses (whole Gutenberg texts) are left out, and nothing without them
    assert rows.excerpt_skips({**cut, "cross": {**cut["cross"], "enabled": False}}) == []
    assert rows.excerpt_skips(cut) == [("cross-domain and translator analyses", rows.EXCERPT_CROSS)]
    assert maps.map_families(cut) == ["f3", "words"] and any("words_" in f for f in maps.maps_outputs(cut))
    assert maps.rolling_settings(cut)["methods"] == ["kl_f3", "delta_words", "delta_both"]
    assert maps.rolling_word_inputs(cut, [1], "x") != {}
    assert verification.verification_settings(cut)["families"] == ["f3", "f3+words"]
    assert verification.verification_word_inputs(cut, [1], "x")["word_matrix"] == "r/corpus/words.npz"
    assert rows.length_methods(cut) == {"delta": ["words100"]}
    # the word matrix cuts each text's word stream by its gaps: the sequences are its inputs
    from punctstyle.plan import corpus as plan_corpus

    assert plan_corpus.excerpt_sequences(cut, [1, 2]) == ["r/sequences/1.parquet", "r/sequences/2.parquet"]
    assert plan_corpus.excerpt_sequences({**cut, "extraction": {**cut["extraction"], "excerpt_marks": None}}, [1]) == []
    assert verification.verification_enabled(cut) and not cross.cross_enabled(cut)
    # the bundle family uses words: the bundle's word models are fitted on the excerpts' own words
    bundle = {**cut, "verification": {**cut["verification"], "bundle_family": "f3+words"}}
    assert rows.excerpt_skips(bundle) == rows.excerpt_skips(cut)
    assert verification.verification_enabled(bundle) and verification.verification_outputs(bundle) != []
    assert shapes.shape_settings(bundle)["verification"]


def test_whole_texts_keep_every_configured_word_reader():
    from punctstyle.plan import maps

    whole = config(**{"maps.families": ["f3", "words"], "rolling.methods": ["kl_f3", "delta_words"]})
    assert maps.map_families(whole) == ["f3", "words"]
    assert maps.rolling_settings(whole) == whole["rolling"]
    assert verification.verification_settings(whole)["families"] == whole["verification"]["families"]
