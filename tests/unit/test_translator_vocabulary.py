"""The translators' word recognition chooses its vocabulary on each split's training books only
(issue 35: the project's training-only rule)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from punctstyle.training import translators
from punctstyle.experiments.row import documents_split
from punctstyle.experiments.splits import row_rng


def test_the_vocabulary_sees_only_the_training_books_of_each_split():
    rng = np.random.default_rng(0)
    n = 16
    authors = np.repeat(["A", "B", "C", "D"], 4).astype(object)
    names = np.tile(["T1", "T2"], 8).astype(object)
    words = sp.csr_matrix(rng.random((n, 30)))
    kl = rng.dirichlet(np.ones(5), n)
    calls = []

    def vocabulary(train_rows):
        calls.append(np.sort(train_rows))
        return np.arange(10)

    result = translators.label_recognition({"kl": kl, "delta": words}, {"original author": authors, "translator": names},
                                           [0, 1], 2, columns_for={"delta": vocabulary}, groups=None)
    assert len(result) == 2 * 2 * 2 and len(calls) == 4  # labellings x seeds x methods; delta's calls
    expected = []
    for name, y in (("original author", authors), ("translator", names)):
        for seed in (0, 1):
            train, _ = documents_split(y, None, 0.5, row_rng(seed, n, f"translators:{name}"))
            expected.append(np.sort(np.arange(n)[train]))
    for got, want in zip(calls, expected, strict=True):
        assert got.tolist() == want.tolist() and got.size == n // 2


def test_without_columns_the_matrix_is_used_as_given():
    rng = np.random.default_rng(1)
    authors = np.repeat(["A", "B"], 6).astype(object)
    X = np.vstack([rng.normal(0, 1, (6, 4)), rng.normal(5, 1, (6, 4))])
    result = translators.label_recognition({"delta": X}, {"original author": authors}, [0], 2, groups=None)
    assert result["accuracy"].tolist() == [1.0]
