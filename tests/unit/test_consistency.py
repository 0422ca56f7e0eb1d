"""Tests of punctstyle.analyses.consistency: class consistency, baseline, KS test, top-k KL matrix."""

from __future__ import annotations

import math

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from punctstyle.analyses.consistency import (
    TABLE_COLUMNS,
    Z_95,
    class_consistency,
    within_class_values,
)
from punctstyle.analyses.consistency_report import (
    class_order_index,
    consistency_report,
    top_consistent_kl_matrix,
)
from punctstyle.analyses.cross_class import (
    cross_class_baseline,
    ks_within_vs_cross,
    sample_cross_class_pairs,
)
from punctstyle.divergence import kl_divergence, pairwise_kl

P = np.array([0.5, 0.5, 0.0])
Q = np.array([0.25, 0.75, 0.0])
R = np.array([0.1, 0.1, 0.8])
D_PQ = 0.5 * math.log(2) + 0.5 * math.log(2 / 3)  # d(P, Q), by hand
D_QP = 0.25 * math.log(0.5) + 0.75 * math.log(1.5)  # d(Q, P), by hand


def _toy() -> tuple[np.ndarray, list]:
    """Class "same": three identical docs; "two": P and Q; "far": P, R and Q, R mixtures."""
    X = np.array([R, R, R, P, Q, P, R, 0.5 * (Q + R)])
    labels = ["same", "same", "same", "two", "two", "far", "far", "far"]
    return X, labels


def _row(table: pd.DataFrame, cls: str) -> pd.Series:
    return table.set_index("class").loc[cls]


def test_hand_values_match_definition() -> None:
    assert kl_divergence(P, Q) == pytest.approx(D_PQ, abs=1e-15)
    assert kl_divergence(Q, P) == pytest.approx(D_QP, abs=1e-15)


def test_identical_documents_have_consistency_zero() -> None:
    X, labels = _toy()
    row = _row(class_consistency(X, labels), "same")
    assert row["n_docs"] == 3 and row["n_pairs"] == 6 and row["n_empty_support"] == 0
    assert row["consistency"] == pytest.approx(0.0, abs=1e-12)
    assert row["sd"] == pytest.approx(0.0, abs=1e-12)


def test_two_document_class_by_hand() -> None:
    X, labels = _toy()
    row = _row(class_consistency(X, labels), "two")
    mean = (D_PQ + D_QP) / 2
    sd = abs(D_PQ - D_QP) / math.sqrt(2)  # sample sd (ddof=1) of two values
    assert row["n_pairs"] == 2
    assert row["consistency"] == pytest.approx(mean, abs=1e-12)
    assert row["sd"] == pytest.approx(sd, abs=1e-12)
    assert row["ci_low"] == pytest.approx(mean - Z_95 * sd / math.sqrt(2), abs=1e-12)
    assert row["ci_high"] == pytest.approx(mean + Z_95 * sd / math.sqrt(2), abs=1e-12)


def test_table_columns_and_ranking() -> None:
    X, labels = _toy()
    table = class_consistency(X, labels)
    assert tuple(table.columns) == TABLE_COLUMNS
    assert list(table["class"]) == ["same", "two", "far"]
    assert table["consistency"].is_monotonic_increasing
    far = pairwise_kl(np.array([P, R, 0.5 * (Q + R)]))
    assert _row(table, "far")["consistency"] == pytest.approx(far[~np.eye(3, dtype=bool)].mean(), abs=1e-12)


def test_singleton_and_missing_labels() -> None:
    X, labels = _toy()
    X = np.vstack([X, Q, P, R])
    labels = labels + ["alone", None, np.nan]
    table = class_consistency(X, labels)
    assert list(table["class"]) == ["same", "two", "far", "alone"]  # NaN consistency last
    alone = _row(table, "alone")
    assert alone["n_pairs"] == 0 and math.isnan(alone["consistency"]) and math.isnan(alone["ci_low"])


def test_empty_support_pairs_are_counted_and_skipped() -> None:
    X = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    row = _row(class_consistency(X, ["a", "a", "a"]), "a")
    # docs 0 and 1 share no mark: 2 NaN ordered pairs; the other 4 pairs have divergence 0
    assert row["n_pairs"] == 6 and row["n_empty_support"] == 2
    assert row["consistency"] == 0.0
    values = within_class_values(X, ["a", "a", "a"])
    assert values.size == 6 and np.isnan(values).sum() == 2


def test_within_class_values_pools_all_ordered_pairs() -> None:
    X, labels = _toy()
    values = within_class_values(X, labels)
    assert values.size == 6 + 2 + 6
    # classes in sorted order: far, same, two; the "two" block is d(P, Q), d(Q, P)
    np.testing.assert_allclose(values[-2:], [D_PQ, D_QP], atol=1e-12)


def test_labels_not_modified_and_length_checked() -> None:
    X, labels = _toy()
    series = pd.Series(labels[:-1] + [np.nan], dtype=object)
    class_consistency(X, series)
    assert pd.isna(series.iloc[-1]) and series.iloc[-1] is not None
    with pytest.raises(ValueError, match="length"):
        class_consistency(X, labels[:-1])


# --- cross-class baseline ---------------------------------------------------------------


def test_baseline_pairs_are_cross_class_and_distinct() -> None:
    labels = ["a"] * 5 + ["b"] * 3 + ["c"] * 2 + [None] * 4
    i, j = sample_cross_class_pairs(labels, n_pairs=50, seed=3)
    lab = np.array(labels, dtype=object)
    assert i.size == 50 and np.all(lab[i] != lab[j])
    assert not any(lab[i] == None) and not any(lab[j] == None)  # noqa: E711
    assert len(set(zip(i.tolist(), j.tolist()))) == 50


def test_baseline_can_draw_every_cross_class_pair() -> None:
    labels = ["a", "b", "c", "c"]  # 16 ordered pairs minus 1 + 1 + 4 same-class = 10
    i, j = sample_cross_class_pairs(labels, n_pairs=10, seed=0)
    expected = {(a, b) for a in range(4) for b in range(4) if labels[a] != labels[b]}
    assert set(zip(i.tolist(), j.tolist())) == expected
    with pytest.raises(ValueError, match="only 10"):
        sample_cross_class_pairs(labels, n_pairs=11)
    with pytest.raises(ValueError):
        sample_cross_class_pairs(["a", "a", "a"], n_pairs=1)


def test_baseline_deterministic_for_seed() -> None:
    labels = [f"author{k % 7}" for k in range(60)]
    first = sample_cross_class_pairs(labels, n_pairs=200, seed=9)
    again = sample_cross_class_pairs(labels, n_pairs=200, seed=9)
    other = sample_cross_class_pairs(labels, n_pairs=200, seed=10)
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    assert not np.array_equal(first[0], other[0])
    generator = sample_cross_class_pairs(labels, n_pairs=200, seed=np.random.default_rng(9))
    np.testing.assert_array_equal(first[0], generator[0])


def test_baseline_values_use_only_cross_class_pairs() -> None:
    # every within-class divergence is 0; every cross-class one is d(P, Q) or d(Q, P)
    X = np.array([P] * 6 + [Q] * 4)
    labels = ["p"] * 6 + ["q"] * 4
    mean, values = cross_class_baseline(X, labels, n_pairs=30, seed=1)
    assert values.size == 30
    assert np.all(np.isclose(values, D_PQ, atol=1e-12) | np.isclose(values, D_QP, atol=1e-12))
    assert mean == pytest.approx(values.mean(), abs=1e-15)
    assert D_QP < mean < D_PQ or D_PQ < mean < D_QP  # both directions drawn


# --- KS test ------------------------------------------------------------------------------


def test_ks_detects_separated_distributions() -> None:
    rng = np.random.default_rng(0)
    within = rng.normal(0.1, 0.02, 400)
    cross = rng.normal(0.5, 0.02, 300)
    statistic, pvalue = ks_within_vs_cross(within, cross)
    assert statistic == 1.0 and pvalue < 1e-50


def test_ks_identical_samples_not_significant_and_nan_dropped() -> None:
    values = np.random.default_rng(1).gamma(2.0, size=300)
    statistic, pvalue = ks_within_vs_cross(np.append(values, np.nan), values)
    assert statistic == 0.0 and pvalue == 1.0
    with pytest.raises(ValueError):
        ks_within_vs_cross([np.nan], values)


# --- top-k matrix and report ------------------------------------------------------------


def test_top_consistent_kl_matrix_groups_and_edges() -> None:
    X, labels = _toy()
    table = class_consistency(X, labels)
    matrix, ordered, edges = top_consistent_kl_matrix(X, labels, table, k=2)
    np.testing.assert_array_equal(edges, [0, 3, 5])
    assert list(ordered) == ["same"] * 3 + ["two"] * 2
    index = class_order_index(labels, ["same", "two"])
    np.testing.assert_array_equal(index, [0, 1, 2, 3, 4])
    np.testing.assert_allclose(matrix, pairwise_kl(X[index]), atol=0)
    # excluding a class = dropping its row; the next one moves up
    matrix, ordered, edges = top_consistent_kl_matrix(X, labels, table[table["class"] != "same"], k=2)
    assert list(ordered) == ["two", "two", "far", "far", "far"]
    np.testing.assert_array_equal(edges, [0, 2, 5])
    assert matrix.shape == (5, 5)
    with pytest.raises(ValueError, match="k must be"):
        top_consistent_kl_matrix(X, labels, table, k=4)


def test_consistency_report_combines_parts() -> None:
    rng = np.random.default_rng(4)
    centres = rng.dirichlet(np.ones(20), size=6)
    X = np.vstack([rng.dirichlet(400 * c, size=8) for c in centres])  # tight classes
    labels = np.repeat([f"c{k}" for k in range(6)], 8)
    report = consistency_report(X, labels, n_pairs=300, seed=2)
    pd.testing.assert_frame_equal(report.table, class_consistency(X, labels))
    np.testing.assert_array_equal(report.within, within_class_values(X, labels))
    mean, cross = cross_class_baseline(X, labels, n_pairs=300, seed=2)
    np.testing.assert_array_equal(report.cross, cross)
    assert report.baseline_mean == mean
    assert report.within_mean < report.baseline_mean
    assert report.ks_pvalue < 1e-10
    summary = report.summary()
    assert summary["n_within_pairs"] == 6 * 8 * 7 and summary["n_cross_pairs"] == 300
    assert summary["n_within_empty_support"] == 0


# ------------------------------------------------------------------ the files of the step


def test_consistency_files_round_trip(tmp_path) -> None:
    from punctstyle.analyses import consistency_files as files

    X = np.array([[0.5, 0.5], [0.6, 0.4], [0.1, 0.9], [0.2, 0.8], [0.3, 0.7]])
    labels = ["a", "a", "b", "b", "b"]
    report = consistency_report(X, labels, n_pairs=4, seed=0)
    files.write_consistency_table(tmp_path / "t.csv", report.table)
    pd.testing.assert_frame_equal(files.read_consistency_table(tmp_path / "t.csv"), report.table, check_dtype=False)
    files.write_values(tmp_path / "kl.npz", report.within, report.cross)
    within, cross = files.read_values(tmp_path / "kl.npz")
    np.testing.assert_array_equal(within, report.within)
    np.testing.assert_array_equal(cross, report.cross)
    matrix, ordered, edges = top_consistent_kl_matrix(X, labels, report.table, 2)
    files.write_heatmaps(tmp_path / "top.npz", {2: (matrix, ordered, edges)})
    heatmaps = files.read_heatmaps(tmp_path / "top.npz")
    assert list(heatmaps) == [2] and heatmaps[2].labels.tolist() == list(ordered)
    np.testing.assert_allclose(heatmaps[2].matrix, matrix, rtol=1e-6)
    np.testing.assert_array_equal(heatmaps[2].edges, edges)
    files.write_summary(tmp_path / "s.json", report.summary())
    assert files.read_summary(tmp_path / "s.json") == pytest.approx(report.summary())
    table = files.write_summary_table(tmp_path / "summary.csv", [report.summary(), report.summary()])
    assert len(pd.read_csv(tmp_path / "summary.csv")) == len(table) == 2


def test_skipped_consistency_files_are_empty(tmp_path) -> None:
    from punctstyle.analyses import consistency_files as files
    from punctstyle.io import InputError

    files.write_values(tmp_path / "kl.npz")
    files.write_heatmaps(tmp_path / "top.npz", {})
    assert files.read_heatmaps(tmp_path / "top.npz") == {}
    with pytest.raises(InputError, match="no KL values"):
        files.read_values(tmp_path / "kl.npz")
    files.write_summary(tmp_path / "s.json", files.skipped_summary("genre", "f3", "skipped: one genre"))
    assert "skipped" in files.read_summary(tmp_path / "s.json")


def test_heatmap_key_uses_the_capped_k() -> None:
    from punctstyle.analyses.consistency_files import heatmap_key

    assert heatmap_key(10, [3, 10]) == 10
    assert heatmap_key(50, [10, 30]) == 30  # the corpus ranks only 30 authors
    assert heatmap_key(5, []) is None
    assert heatmap_key(5, [10]) is None


# ------------------------------------------------------- excerpts: pairs of one text left out


def _excerpts() -> tuple[np.ndarray, list, list]:
    """2 authors x 2 texts x 2 excerpts; the excerpts of one text are identical (KL 0).

    A: text 10 = docs 0, 1 (P); text 11 = docs 2, 3 (Q). B: text 20 = docs 4, 5 (R); text 21 =
    docs 6, 7 (P).
    """
    X = np.array([P, P, Q, Q, R, R, P, P])
    labels = ["A"] * 4 + ["B"] * 4
    groups = [10, 10, 11, 11, 20, 20, 21, 21]
    return X, labels, groups


def test_pair_mask_counts_only_pairs_of_distinct_texts() -> None:
    from punctstyle.analyses.consistency import pair_mask

    mask = pair_mask(np.array([10, 10, 11, 11]), 4)
    assert sorted(zip(*np.nonzero(mask))) == [(0, 2), (0, 3), (1, 2), (1, 3), (2, 0), (2, 1), (3, 0), (3, 1)]
    np.testing.assert_array_equal(pair_mask(None, 3), ~np.eye(3, dtype=bool))


def test_same_text_pairs_are_left_out_of_within_class_pairs() -> None:
    X, labels, groups = _excerpts()
    table = class_consistency(X, labels, groups)
    assert tuple(table.columns) == TABLE_COLUMNS + ("n_texts", "n_same_text_pairs")
    a = _row(table, "A")
    # counted: (0,2) (0,3) (1,2) (1,3) = d(P, Q) and their reverses = d(Q, P); left out: (0,1) (1,0) (2,3) (3,2)
    assert (a["n_docs"], a["n_pairs"], a["n_texts"], a["n_same_text_pairs"]) == (4, 8, 2, 4)
    assert a["consistency"] == pytest.approx((D_PQ + D_QP) / 2, abs=1e-12)
    values = within_class_values(X, labels, groups)
    d_rp, d_pr = kl_divergence(R, P), kl_divergence(P, R)
    expected = [D_PQ] * 4 + [D_QP] * 4 + [d_rp] * 4 + [d_pr] * 4  # classes A, B; row-major pairs
    np.testing.assert_allclose(values, expected, atol=1e-12)
    assert _row(table, "B")["consistency"] == pytest.approx((d_rp + d_pr) / 2, abs=1e-12)
    # with excerpts counted as documents, the 4 zero pairs would make A look more consistent
    inflated = _row(class_consistency(X, labels), "A")
    assert inflated["n_pairs"] == 12 and inflated["consistency"] == pytest.approx(8 / 12 * (D_PQ + D_QP) / 2)


def test_pair_counts_by_hand_and_by_brute_force() -> None:
    from punctstyle.analyses.cross_class import PairCounts, available_cross_pairs, pair_counts

    _, labels, groups = _excerpts()
    # within: 8 + 8 counted, 4 + 4 left out; cross: 64 - 2 * 16 = 32, none of one text
    assert pair_counts(labels, groups) == PairCounts(within=16, within_same_text=8, cross=32, cross_same_text=0)
    assert pair_counts(labels) == PairCounts(within=24, within_same_text=0, cross=32, cross_same_text=0)
    rng = np.random.default_rng(5)
    lab = rng.choice(np.array(["a", "b", "c", None], dtype=object), 30)
    grp = rng.integers(0, 9, 30)  # texts that straddle classes too
    ok = ~pd.isna(lab)
    pairs = [(i, j) for i in range(30) for j in range(30) if i != j and ok[i] and ok[j]]
    same_class = [lab[i] == lab[j] for i, j in pairs]
    same_text = [grp[i] == grp[j] for i, j in pairs]
    counts = pair_counts(lab, grp)
    assert counts.within == sum(c and not t for c, t in zip(same_class, same_text))
    assert counts.within_same_text == sum(c and t for c, t in zip(same_class, same_text))
    assert counts.cross == available_cross_pairs(lab, grp) == sum(not c and not t for c, t in zip(same_class, same_text))
    assert counts.cross_same_text == sum(t and not c for c, t in zip(same_class, same_text))


def test_baseline_never_draws_a_pair_of_one_text() -> None:
    from punctstyle.analyses.cross_class import pair_counts

    labels, groups = ["a", "a", "b", "b"], [1, 2, 2, 3]  # docs 1 (a) and 2 (b): one text, two classes
    counts = pair_counts(labels, groups)
    assert (counts.cross, counts.cross_same_text, counts.within, counts.within_same_text) == (6, 2, 4, 0)
    i, j = sample_cross_class_pairs(labels, n_pairs=6, seed=0, groups=groups)
    assert set(zip(i.tolist(), j.tolist())) == {(0, 2), (0, 3), (1, 3), (2, 0), (3, 0), (3, 1)}
    with pytest.raises(ValueError, match="only 6"):
        sample_cross_class_pairs(labels, n_pairs=7, groups=groups)


def test_texts_within_one_class_leave_the_baseline_draw_unchanged() -> None:
    labels = [f"author{k % 7}" for k in range(60)]
    groups = [k % 21 for k in range(60)]  # text k % 21 belongs to author (k % 21) % 7 = k % 7
    first = sample_cross_class_pairs(labels, n_pairs=200, seed=9)
    again = sample_cross_class_pairs(labels, n_pairs=200, seed=9, groups=groups)
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])


def test_report_counts_the_pairs_left_out() -> None:
    X, labels, groups = _excerpts()
    report = consistency_report(X, labels, n_pairs=32, seed=0, groups=groups)
    summary = report.summary()
    assert summary["n_within_pairs"] == 16 and summary["n_cross_pairs"] == 32
    assert (summary["n_texts"], summary["n_within_same_text"], summary["n_cross_same_text"]) == (4, 8, 0)
    assert report.within_mean == pytest.approx(np.mean(within_class_values(X, labels, groups)))
    assert "n_within_same_text" not in consistency_report(X, labels, n_pairs=32, seed=0).summary()


def test_a_class_of_one_text_has_no_pairs() -> None:
    X, labels, groups = _excerpts()
    groups = [10, 10, 10, 10] + groups[4:]  # A: all four excerpts from one text
    row = _row(class_consistency(X, labels, groups), "A")
    assert (row["n_pairs"], row["n_texts"], row["n_same_text_pairs"]) == (0, 1, 12)
    assert math.isnan(row["consistency"])
    assert list(class_consistency(X, labels, groups)["class"]) == ["B", "A"]


def test_groups_are_checked() -> None:
    X, labels, groups = _excerpts()
    with pytest.raises(ValueError, match="length"):
        class_consistency(X, labels, groups[:-1])
    with pytest.raises(ValueError, match="missing"):
        class_consistency(X, labels, groups[:-1] + [None])


def test_whole_texts_give_the_results_of_the_paper_definitions() -> None:
    """Without source ids (or with one text per document) the output is the whole-text
    definitions' (consistency_report and top_consistent_kl_matrix without groups), and
    punctstyle.analyses.paper.consistency_analysis gives the same."""
    from punctstyle.analyses.paper import consistency_analysis
    from punctstyle.analyses.consistency_report import consistency_report, consistency_run, top_consistent_kl_matrix
    from punctstyle.corpus.tables import feature_matrix, text_groups
    from punctstyle.marks import feature_column_names

    rng = np.random.default_rng(3)
    centres = rng.dirichlet(np.ones(10), size=4)
    X = np.vstack([rng.dirichlet(200 * c, size=6) for c in centres])
    table = pd.DataFrame(X, columns=feature_column_names("f1"))
    table.insert(0, "author", np.repeat(["w", "x", "y", "z"], 6))
    assert text_groups(table) is None
    labels = table["author"].to_numpy(dtype=object)
    whole = consistency_report(X, labels, n_pairs=100, seed=4)
    old = SimpleNamespace(
        n_baseline_pairs=100,
        report=whole,
        heatmaps={k: top_consistent_kl_matrix(X, labels, whole.table, k) for k in (2, 4)},
    )
    via_analysis = consistency_analysis(table, "author", "f1", baseline_pairs=100, seed=4, top_k=(2, 9))
    runs = [
        consistency_run(feature_matrix(table, "f1"), labels, groups=groups, baseline_pairs=100, seed=4, top_k=(2, 9))
        for groups in (None, np.arange(len(table)))
    ]
    for report, n_pairs, heatmaps in [*runs, (via_analysis.report, via_analysis.n_baseline_pairs, via_analysis.heatmaps)]:
        assert n_pairs == old.n_baseline_pairs == 100
        pd.testing.assert_frame_equal(report.table[list(TABLE_COLUMNS)], old.report.table)
        np.testing.assert_array_equal(report.within, old.report.within)
        np.testing.assert_array_equal(report.cross, old.report.cross)
        summary = {k: v for k, v in report.summary().items() if k not in ("n_texts", "n_within_same_text",
                                                                         "n_cross_same_text")}
        assert summary == old.report.summary()
        assert sorted(heatmaps) == sorted(old.heatmaps) == [2, 4]
        for k in heatmaps:
            for new_part, old_part in zip(heatmaps[k], old.heatmaps[k]):
                np.testing.assert_array_equal(new_part, old_part)
    report, _, _ = consistency_run(X, labels, groups=np.arange(len(table)), baseline_pairs=100, seed=4)
    assert report.summary()["n_within_same_text"] == 0 and report.summary()["n_texts"] == 24
    assert report.table["n_same_text_pairs"].eq(0).all()


def test_consistency_table_with_text_columns_round_trips(tmp_path) -> None:
    from punctstyle.analyses import consistency_files as files

    X, labels, groups = _excerpts()
    table = class_consistency(X, labels, groups)
    files.write_consistency_table(tmp_path / "t.csv", table)
    pd.testing.assert_frame_equal(files.read_consistency_table(tmp_path / "t.csv"), table, check_dtype=False)


def test_one_job_per_task_writes_each_features_files_as_a_job_per_feature(tmp_path) -> None:
    """Issue 37: rule consistency runs every feature of a task in one process; each feature's
    four files are those of :func:`consistency_job` on that feature alone, and a bad table is
    named."""
    from punctstyle.analyses.consistency_files import consistency_job, consistency_task_job, read_summary
    from punctstyle.io import InputError
    from punctstyle.marks import feature_column_names

    rng = np.random.default_rng(5)
    tables = {}
    for feature, width in (("f1", len(feature_column_names("f1"))), ("f4", len(feature_column_names("f4")))):
        table = pd.DataFrame(rng.dirichlet(np.ones(width), size=9), columns=feature_column_names(feature))
        table.insert(0, "author", np.repeat(["w", "x", "y"], 3))
        tables[feature] = tmp_path / f"{feature}.parquet"
        table.to_parquet(tables[feature])
    kinds = {"table": ".csv", "summary": ".json", "values": "_kl.npz", "heatmaps": "_top.npz"}
    outputs = {kind: [tmp_path / f"author_{f}{suffix}" for f in tables] for kind, suffix in kinds.items()}
    settings = {"baseline_pairs": 20, "seed": 1, "top_k": (2,)}
    summaries = consistency_task_job(tables, "author", outputs, **settings)
    assert [s["feature"] for s in summaries] == ["f1", "f4"]
    for index, (feature, path) in enumerate(tables.items()):
        alone = {kind: tmp_path / f"alone_{feature}{suffix}" for kind, suffix in kinds.items()}
        assert consistency_job(pd.read_parquet(path), "author", feature, alone, **settings) == summaries[index]
        assert read_summary(outputs["summary"][index]) == pytest.approx(summaries[index])
        for kind in ("table", "summary"):
            assert outputs[kind][index].read_bytes() == alone[kind].read_bytes(), (feature, kind)
        for kind in ("values", "heatmaps"):  # a zip's bytes hold its write time: compare the arrays
            with np.load(outputs[kind][index]) as ours, np.load(alone[kind]) as theirs:
                assert sorted(ours.files) == sorted(theirs.files) and ours.files, (feature, kind)
                for name in ours.files:
                    np.testing.assert_array_equal(ours[name], theirs[name])
    with pytest.raises(ValueError, match="1 table outputs for 2 features"):
        consistency_task_job(tables, "author", {**outputs, "table": outputs["table"][:1]}, **settings)
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(InputError, match="bad.parquet: not a readable Parquet file"):
        consistency_task_job({"f1": tmp_path / "bad.parquet"}, "author", {"table": ["t.csv"]}, **settings)
