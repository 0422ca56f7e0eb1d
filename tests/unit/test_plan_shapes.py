"""punctstyle.plan.shapes: the analyses a corpus' shape cannot feed, decided from the corpus
checkpoint's counts, with the exact cause a user reads (issue 33 item 1)."""

from __future__ import annotations

import json

from punctstyle.corpus.summary import texts_per_author
from punctstyle.plan import shapes, verification
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.workflow import WorkflowPlan
from tests.unit.test_plan_rows import config

import pandas as pd

VERIFICATION_CAUSE = (
    "the corpus has {n} author(s) with at least 2 texts, General Imposters needs 3 (the candidate, "
    "the text's own author and an imposter, each with a reference text); no verification files, "
    "figure or table were made"
)


def counts(*texts: int) -> CorpusCounts:
    return CorpusCounts({"author": len(texts), "genre": 0}, {f"A{i}": n for i, n in enumerate(texts)})


def test_verification_needs_three_authors_with_two_texts():
    settings = shapes.shape_settings(config())
    assert shapes.shape_skips(settings, counts(3, 3, 3)) == []
    assert shapes.shape_skips(settings, counts(12, 2, 2, 2)) == []
    assert shapes.shape_skips(settings, counts(3, 3)) == [("verification", VERIFICATION_CAUSE.format(n=2))]
    # one text per author (in excerpts): no author has a reference text and a held-out one
    assert shapes.shape_skips(settings, counts(1, 1, 1, 1)) == [("verification", VERIFICATION_CAUSE.format(n=0))]
    assert shapes.shape_skips(settings, counts(5, 1, 1)) == [("verification", VERIFICATION_CAUSE.format(n=1))]
    assert shapes.shape_skips(shapes.shape_settings(config(**{"verification.enabled": False})), counts(3, 3)) == []


def test_a_summary_without_texts_per_author_counts_the_author_minimum():
    two_docs = shapes.shape_settings(config(**{"selection.min_docs_per_author": 2}))
    one_doc = shapes.shape_settings(config(**{"selection.min_docs_per_author": 1}))
    old = CorpusCounts({"author": 3, "genre": 0})
    assert shapes.shape_skips(two_docs, old) == []
    assert shapes.shape_skips(one_doc, old) == [("verification", VERIFICATION_CAUSE.format(n=0))]
    assert shapes.shape_skips(two_docs, CorpusCounts({"author": 2, "genre": 0})) == [
        ("verification", VERIFICATION_CAUSE.format(n=2))]


def test_verification_targets_follow_the_shape():
    cfg = config(outdir="r", **{"verification.enabled": True})
    assert len(verification.verification_outputs(cfg, counts(2, 2, 2))) == 7
    assert verification.verification_outputs(cfg, counts(3, 3)) == []
    assert WorkflowPlan(cfg).shape_skips(counts(3, 3))[0][0] == "verification"


def test_the_summary_counts_texts_per_author_and_the_checkpoint_reads_them(tmp_path):
    whole = pd.DataFrame({"book_id": [1, 2, 3], "author": ["b", "a", "b"]})
    assert texts_per_author(whole) == {"a": 1, "b": 2}
    excerpts = pd.DataFrame({"book_id": [9, 10, 11], "source_id": [1, 1, 2], "excerpt": [0, 1, 0],
                             "author": ["a", "a", "a"]})
    assert texts_per_author(excerpts) == {"a": 2}
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"authors_in_corpus": 2, "genres_in_corpus": 0, "texts_per_author": {"a": 1, "b": 2}}))
    assert CorpusCounts.read(summary).texts_per_author == {"a": 1, "b": 2}
