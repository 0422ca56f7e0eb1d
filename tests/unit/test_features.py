"""f1..f6 on the paper's worked example (the Le Guin quote) as exact vectors, f7 (ordered mark
triples) on the same example written out by hand, and edge cases."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from punctstyle.text.extract import extract_with_spacy
from punctstyle.features import compute_feature, compute_features, sentence_lengths
from punctstyle.marks import FEATURE_SIZES, MARK_CODE, N_MARKS, feature_column_names
from tests.conftest import LE_GUIN

Q, C, P, S = MARK_CODE['"'], MARK_CODE[","], MARK_CODE["."], MARK_CODE[";"]


@pytest.fixture(scope="module")
def le_guin():
    seq = extract_with_spacy(LE_GUIN)
    return compute_features(seq.marks, seq.gaps), seq


def dense(size, entries):
    out = np.zeros(size)
    for index, value in entries.items():
        out[index] = float(value)
    return out


def test_f1(le_guin):
    f, _ = le_guin
    np.testing.assert_allclose(f["f1"], dense(10, {Q: F(1, 3), C: F(1, 6), P: F(1, 3), S: F(1, 6)}), atol=1e-15)


def test_f2_rows(le_guin):
    f, _ = le_guin
    expected = np.zeros((N_MARKS, N_MARKS))
    expected[Q, [Q, C, P]] = 1 / 3
    expected[C, [Q, P]] = 1 / 2
    expected[P, [Q, P, S]] = [1 / 4, 1 / 2, 1 / 4]
    expected[S, [Q, S]] = 1 / 2
    np.testing.assert_allclose(f["f2"].reshape(10, 10), expected, atol=1e-15)


def test_f3_is_joint_matrix_of_the_paper(le_guin):
    f, _ = le_guin
    expected = np.zeros((N_MARKS, N_MARKS))
    expected[Q, [Q, C, P]] = 1 / 9
    expected[C, [Q, P]] = 1 / 12
    expected[P, [Q, P, S]] = [1 / 12, 1 / 6, 1 / 12]
    expected[S, [Q, S]] = 1 / 12
    np.testing.assert_allclose(f["f3"].reshape(10, 10), expected, atol=1e-15)


def test_f4_sentence_lengths(le_guin):
    f, seq = le_guin
    assert sentence_lengths(seq.marks, seq.gaps).tolist() == [31, 9, 2, 27]
    np.testing.assert_allclose(f["f4"], dense(200, {2: 0.25, 9: 0.25, 27: 0.25, 31: 0.25}), atol=1e-15)


def test_f5(le_guin):
    f, _ = le_guin
    expected = dense(40, {0: F(2, 12), 1: F(2, 12), 9: F(2, 12), 2: F(1, 12), 4: F(1, 12), 5: F(1, 12),
                          6: F(1, 12), 7: F(1, 12), 25: F(1, 12)})
    np.testing.assert_allclose(f["f5"], expected, atol=1e-15)


def test_f6_mean_gaps_including_the_papers_missing_six(le_guin):
    f, _ = le_guin
    expected = np.zeros((N_MARKS, N_MARKS))
    expected[Q, [Q, C, P]] = [4, 1, 1]
    expected[C, [Q, P]] = [0, 6]
    expected[P, [P, S, Q]] = [5.5, 9, 0]
    expected[S, [Q, S]] = [5, 7]
    np.testing.assert_allclose(f["f6"].reshape(10, 10), expected, atol=1e-15)


def test_f7_ordered_triples_written_out_by_hand(le_guin):
    # , . . . ; ; " , " " . "  (12 marks): the ten triples l = 1..10 are
    # (, . .) (. . .) (. . ;) (. ; ;) (; ; ") (; " ,) (" , ") (, " ") (" " .) (" . ");
    # every pair but (. .) has one successor, Q = 1; (. .) is followed once by . and once by ;,
    # Q = 1/2 each; the last pair (. ") never has a successor, so f7 loses f3[. "] = 1/12.
    f, _ = le_guin
    expected = np.zeros((N_MARKS, N_MARKS, N_MARKS))
    expected[C, P, P] = F(1, 12)  # f3[, .] = 1/12, Q = 1
    expected[P, P, P] = F(1, 12)  # f3[. .] = 1/6, Q = 1/2
    expected[P, P, S] = F(1, 12)  # f3[. .] = 1/6, Q = 1/2
    expected[P, S, S] = F(1, 12)  # f3[. ;] = 1/12
    expected[S, S, Q] = F(1, 12)  # f3[; ;] = 1/12
    expected[S, Q, C] = F(1, 12)  # f3[; "] = 1/12
    expected[Q, C, Q] = F(1, 9)  # f3[" ,] = 1/9
    expected[C, Q, Q] = F(1, 12)  # f3[, "] = 1/12
    expected[Q, Q, P] = F(1, 9)  # f3[" "] = 1/9
    expected[Q, P, Q] = F(1, 9)  # f3[" .] = 1/9
    np.testing.assert_allclose(f["f7"].reshape(N_MARKS, N_MARKS, N_MARKS), expected, atol=1e-15)
    assert np.count_nonzero(f["f7"]) == 10
    assert f["f7"].sum() == pytest.approx(11 / 12, abs=1e-15)  # 1 - f3[. "]


def test_f7_column_names_are_row_major_triples():
    names = feature_column_names("f7")
    assert len(names) == FEATURE_SIZES["f7"] == 1000 == len(set(names))
    assert names[0] == "f7[! ! !]" and names[-1] == "f7[... ... ...]"
    assert names[(Q * N_MARKS + C) * N_MARKS + P] == 'f7[" , .]'
    vector = compute_feature("f7", [Q, C, P], [0, 1, 2])
    assert [names[i] for i in np.flatnonzero(vector)] == ['f7[" , .]']


@pytest.mark.parametrize(
    "marks, expected_sum",
    [([], 0.0), ([P], 0.0), ([C, P], 0.0), ([C, P, S], 1 / 3), ([P, P, P], 1.0), ([C, P, C, P], 1.0)],
    ids=["0 marks", "1 mark", "2 marks", "3 distinct marks", "3 equal marks", "last pair repeated"],
)
def test_f7_edge_cases_and_sum_rule(marks, expected_sum):
    # sum f7 = sum f3 - f3[last pair] when the last pair occurs nowhere earlier (no successor)
    f = compute_features(np.array(marks, dtype=np.uint8), np.zeros(len(marks), dtype=np.uint32))
    assert f["f7"].shape == (1000,) and np.isfinite(f["f7"]).all()
    assert f["f7"].sum() == pytest.approx(expected_sum, abs=1e-15)
    if len(marks) == 3:
        assert np.count_nonzero(f["f7"]) == 1
        assert f["f7"][(marks[0] * N_MARKS + marks[1]) * N_MARKS + marks[2]] == pytest.approx(f["f3"].max())


def test_f7_marginal_is_f3_for_pairs_with_a_successor():
    rng = np.random.default_rng(7)
    marks = rng.integers(0, 4, 60)
    marks[-2:] = [8, 9]  # the last pair (? ...) occurs only last: it has no successor
    f = compute_features(marks, np.zeros(marks.size, dtype=np.int64))
    f3, f7 = f["f3"].reshape(N_MARKS, N_MARKS), f["f7"].reshape(N_MARKS, N_MARKS, N_MARKS)
    expected = f3.copy()
    expected[8, 9] = 0.0
    np.testing.assert_allclose(f7.sum(axis=2), expected, atol=1e-15)
    assert f7.sum() == pytest.approx(f3.sum() - f3[8, 9]) and f7.sum() < 1


@pytest.mark.parametrize(
    "marks, gaps",
    [([], []), ([MARK_CODE["."]], [3]), ([MARK_CODE[","]], [0])],
    ids=["no marks", "one period", "one comma"],
)
def test_edge_cases_are_defined_never_nan(marks, gaps):
    f = compute_features(np.array(marks, dtype=np.uint8), np.array(gaps, dtype=np.uint32))
    for name, vector in f.items():
        assert vector.shape == (FEATURE_SIZES[name],)
        assert np.isfinite(vector).all()
    assert f["f2"].sum() == 0 and f["f3"].sum() == 0 and f["f6"].sum() == 0
    assert f["f1"].sum() == pytest.approx(len(marks))


def test_overflow_bins():
    marks = np.array([MARK_CODE[","], MARK_CODE["."]], dtype=np.uint8)
    gaps = np.array([150, 100], dtype=np.uint32)
    f = compute_features(marks, gaps)
    assert f["f5"][39] == 1.0  # both gaps >= 39
    assert f["f4"][199] == 1.0  # one sentence of 250 words


def test_distribution_features_sum_to_one_on_random_sequences():
    rng = np.random.default_rng(1)
    marks = rng.integers(0, 10, 500).astype(np.uint8)
    gaps = rng.integers(0, 60, 500).astype(np.uint32)
    f = compute_features(marks, gaps)
    for name in ("f1", "f3", "f4", "f5", "f7"):
        assert f[name].sum() == pytest.approx(1.0)
    # f3 = f1_i P_ij exactly
    np.testing.assert_allclose(f["f3"].reshape(10, 10), f["f1"][:, None] * f["f2"].reshape(10, 10))
    # f7 = f3_ij Q_ijk, Q_ijk the empirical share of the pair (i, j) followed by k
    triples = np.zeros((10, 10, 10))
    np.add.at(triples, (marks[:-2], marks[1:-1], marks[2:]), 1.0)
    followed = triples.sum(axis=2, keepdims=True)
    Q = np.divide(triples, followed, out=np.zeros_like(triples), where=followed > 0)
    np.testing.assert_allclose(f["f7"].reshape(10, 10, 10), f["f3"].reshape(10, 10)[:, :, None] * Q, atol=1e-15)


def test_rejects_bad_codes():
    with pytest.raises(ValueError):
        compute_features(np.array([10]), np.array([0]))
