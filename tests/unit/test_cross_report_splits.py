"""The recognitions of rule cross_analyses split as the grid does (issue 32): the texts' groups and
recognition.test_fraction reach the driver's splits, no hard-coded fraction."""

from __future__ import annotations

import numpy as np

from punctstyle.training import cross_report


def test_translated_handling_splits_at_the_given_fraction_with_the_texts(monkeypatch):
    rng = np.random.default_rng(0)
    authors = np.repeat(["A", "B", "C"], 6).astype(object)
    X = rng.dirichlet(np.ones(5), authors.size)
    translated = np.zeros(authors.size, dtype=bool)
    translated[[0, 6]] = True
    groups = np.arange(authors.size)
    groups[1] = 2  # documents 1 and 2: two excerpts of one text
    seen = []
    real = cross_report.grid_splits

    def spy(documents, **kwargs):
        splits = list(real(documents, **kwargs))
        seen.append((documents.groups, kwargs["test_fraction"], splits))
        return splits

    monkeypatch.setattr(cross_report, "grid_splits", spy)
    table = cross_report.translated_handling(X, authors, translated, [0, 1], 3, groups=groups, test_fraction=0.5)
    assert table["seed"].tolist() == [0, 1, 0, 1] and table["n_books"].tolist() == [18, 18, 16, 16]
    kept, dropped = seen
    assert kept[1] == dropped[1] == 0.5
    assert kept[0].tolist() == groups.tolist() and dropped[0].tolist() == groups[~translated].tolist()
    for split in kept[2]:
        assert (1 in split.test_index) == (2 in split.test_index)  # one text, one side
        # 0.5 of each author's texts (A has 5 texts: 3 in the test set, rounding half up; B, C 3 of 6)
        assert np.unique(groups[split.test_index]).size == 3 + 3 + 3
