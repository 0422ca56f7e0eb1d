"""The pure helpers of the measurement scripts in benchmarks/ that docs/results.md relies on."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

from tests.conftest import REPO
from tests.conftest import load_benchmark as load


@pytest.fixture(scope="module")
def curve():
    return load("training_size_curve")


def test_nested_subsample_keeps_ceil_fraction_per_class_and_nests(curve):
    y = np.array(["a"] * 8 + ["b"] * 3 + ["c"] * 1, dtype=object)
    train = np.arange(12)
    kept = {f: curve.nested_subsample(train, y, f, seed=3) for f in (0.25, 0.5, 1.0)}
    # ceil(0.25 * 8) = 2, ceil(0.25 * 3) = 1, max(1, ceil(0.25 * 1)) = 1
    assert [int((y[kept[0.25]] == c).sum()) for c in "abc"] == [2, 1, 1]
    assert [int((y[kept[0.5]] == c).sum()) for c in "abc"] == [4, 2, 1]
    np.testing.assert_array_equal(kept[1.0], train)
    assert set(kept[0.25]) <= set(kept[0.5]) <= set(kept[1.0])
    np.testing.assert_array_equal(kept[0.5], curve.nested_subsample(train, y, 0.5, seed=3))
    assert not np.array_equal(kept[0.5], curve.nested_subsample(train, y, 0.5, seed=4))


def test_nested_subsample_only_draws_from_the_training_indices(curve):
    y = np.array(["a", "b"] * 6, dtype=object)
    train = np.array([0, 1, 2, 3, 4, 5, 6, 7])
    kept = curve.nested_subsample(train, y, 0.5, seed=0)
    assert set(kept) <= set(train)
    assert kept.size == 4


def test_slopes_recover_the_gain_per_doubling(curve):
    # seed 0 gains 0.05 a doubling, seed 1 0.03: pooled 0.04, per seed 0.04 +- sqrt(0.0002)
    frame = pd.DataFrame(
        dict(
            n_classes=10,
            method="kl",
            feature_set="f3",
            seed=[0] * 4 + [1] * 4,
            train_docs_per_class=[2.0, 4.0, 8.0, 16.0] * 2,
            accuracy=[0.30, 0.35, 0.40, 0.45, 0.30, 0.33, 0.36, 0.39],
        )
    )
    row = curve.slopes(frame).iloc[0]
    assert row["gain_per_doubling"] == pytest.approx(0.04)
    assert row["intercept"] == pytest.approx(0.26)
    assert row["gain_per_doubling_seed_mean"] == pytest.approx(0.04)
    assert row["gain_per_doubling_seed_sd"] == pytest.approx(np.sqrt(0.0002))


def test_extrapolation_predicts_the_gain_at_the_papers_training_size(curve):
    # 10 training documents per class at fraction 1; the paper's 400 / 10 = 40: two doublings
    frame = pd.DataFrame(
        dict(n_classes=10, method="mlp", feature_set="f3", seed=[0, 0, 1, 1], fraction=[0.5, 1.0, 0.5, 1.0],
             train_docs_per_class=[5.0, 9.0, 5.0, 11.0], accuracy=[0.5, 0.6, 0.5, 0.6])
    )  # fmt: skip
    fitted = pd.DataFrame([dict(n_classes=10, method="mlp", feature_set="f3", gain_per_doubling=0.05)])
    row = curve.extrapolation(frame, fitted, {10: 400, 50: 834}).iloc[0]
    assert (row["docs_per_class"], row["paper_docs_per_class"]) == (10.0, 40.0)
    assert row["doublings"] == pytest.approx(2.0) and row["predicted_gain"] == pytest.approx(0.10)
    assert len(curve.extrapolation(frame, fitted, {50: 834})) == 0  # no paper size for 10 classes


def test_one_run_sd_combines_the_scaled_author_sd_with_the_split_sd(tmp_path):
    store = load("store_author_population")
    spread = pd.DataFrame(
        dict(classes=[10, 10, 50], method=["kl", "mlp", "kl"], feature_set="f3", mean=[0.7, 0.8, 0.55],
             sd_splits=[0.06, 0.05, 0.04], sd_authors_net_50_of_651=[0.03, 0.05, 0.07])
    )  # fmt: skip
    grid = pd.DataFrame(
        dict(method=["kl", "mlp"], classes=50, feature_set="f3", mean=[0.57, 0.76], sd=[0.037, 0.12])
    ).set_index(["method", "classes", "feature_set"])
    table = store.one_run_table(spread, grid, 50, 651).set_index("method")
    # KL: the split sd of the largest K (0.04); the network has no K = 50 run: the grid's sd (0.12)
    assert table.loc["kl", "one_run_sd"] == pytest.approx(0.05)  # sqrt(0.03^2 + 0.04^2)
    assert table.loc["mlp", "one_run_sd"] == pytest.approx(0.13)  # sqrt(0.05^2 + 0.12^2)
    assert table.loc["kl", "grid_gap"] == pytest.approx(0.57 - 0.66)
    assert table.loc["kl", "population_gap_in_sd"] == pytest.approx((0.55 - 0.66) / 0.05)
    assert np.isnan(table.loc["mlp", "population_mean"])
    report = tmp_path / "time.txt"
    report.write_text("\tUser time (seconds): 10.25\n\tSystem time (seconds): 0.5\n"
                      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.5\n")
    assert store.gnu_time_seconds(report) == {"cpu_s": 10.8, "wall_s": 3723.5}


def test_recognition_rows_plans_the_workflow_rows():
    rows = load("recognition_rows")
    table = pd.DataFrame({"author": ["a", "b", "c"] * 4, "genre": [None] * 12})
    planned = rows.planned_rows({"f1": table}, ["author", "genre"], ["2", "10", "all"], [0, 1])
    # 10 >= 3 authors duplicates the "all" row; genre has no labels
    assert planned == [("author", "2", 0), ("author", "2", 1), ("author", "all", 0), ("author", "all", 1)]


def test_job_costs_sum_the_logged_cost_per_family_with_the_benchmark_wall(tmp_path):
    from punctstyle.logs import job_cost_line, parse_job_cost

    costs = load("job_costs")
    line = job_cost_line()
    cpu, peak = parse_job_cost(f"2026-11-26 INFO start\n2026-11-26 INFO {line}\n")
    assert cpu > 0 and peak > 10  # this test process has run and holds more than 10 MB
    logs, bench = tmp_path / "logs/recognition", tmp_path / "benchmarks/recognition"
    logs.mkdir(parents=True), bench.mkdir(parents=True)
    for seed, (cpu_s, wall_s) in enumerate([(10.5, 11.0), (12.0, 13.5)]):
        name = f"author_50_classes_seed{seed}"
        (logs / f"{name}.log").write_text(f"x INFO job cost: 1.00 CPU s, peak memory 5 MB\n"
                                          f"x INFO job cost: {cpu_s:.2f} CPU s, peak memory 300 MB\n")
        (bench / f"{name}.tsv").write_text(f"s\th:m:s\tcpu_time\n{wall_s}\t0:00:11\t1.0\n")
    (logs / "author_all_classes_seed0.log").write_text("x INFO job cost: 3.00 CPU s, peak memory 200 MB\n")
    (logs / "author_10_classes_seed0.log").write_text("x INFO no cost line (an older version)\n")
    jobs = costs.job_costs(tmp_path)
    assert [(j.name, j.cpu_s, j.wall_s, j.peak_mb) for j in jobs] == [
        ("recognition/author_50_classes_seed0", 10.5, 11.0, 300.0),
        ("recognition/author_50_classes_seed1", 12.0, 13.5, 300.0),
        ("recognition/author_all_classes_seed0", 3.0, None, 200.0),
    ]
    lines = costs.summary_lines(jobs)
    assert lines[1].split() == ["recognition/author_50_classes", "2", "22.5", "10.5", "12.0", "24.5", "300"]
    assert lines[2].split() == ["recognition/author_all_classes", "1", "3.0", "3.0", "3.0", "200"]
    assert lines[-1].split()[-2:] == ["3", "25.5"]


def test_author_population_spread_without_split_noise():
    population = load("author_population")
    draws = population.author_draws(np.array([f"a{i}" for i in range(12)], dtype=object), 4, 3, seed=0)
    assert [d.size for d in draws] == [4, 4, 4] and all(np.unique(d).size == 4 for d in draws)
    # draw means 0.5 and 0.7 (variance 0.02); within-draw variances 0.02 and 0.02 over 2 splits:
    # split noise in a draw mean 0.01, so the authors' sd is sqrt(0.02 - 0.01) = 0.1
    runs = pd.DataFrame({"method": "kl", "feature_set": "f3", "draw": [0, 0, 1, 1], "accuracy": [0.4, 0.6, 0.6, 0.8]})
    row = population.spread_table(runs).iloc[0]
    assert row["sd_authors"] == pytest.approx(np.sqrt(0.02)) and row["sd_authors_net"] == pytest.approx(0.1)
    # sigma / sqrt(k) * sqrt((n - k) / (n - 1)): 10 of 52 -> 50 of 651
    expected = np.sqrt(10 / 50) * np.sqrt((601 / 650) / (42 / 51))
    assert population.scale_factor(10, 52, 50, 651) == pytest.approx(expected)
    assert population.scale_factor(10, 52, 10, 52) == pytest.approx(1.0)


def test_compare_verification_pairs_each_step_with_the_one_before(tmp_path):
    compare = load("compare_verification")
    measures = {m: 0.5 for m in ("c_at_1", "f_05_u", "f1", "brier", "overall", "p1", "p2")}
    steps = {}
    for step, aucs in (("before", [0.8, 0.9]), ("after", [0.85, 0.88])):
        folder = tmp_path / step
        folder.mkdir()
        pd.DataFrame([{"family": "f3", "length": "whole", "seed": s, "n_cases": 10, "auc": a, **measures}
                      for s, a in enumerate(aucs)]).to_csv(folder / "results.csv", index=False)
        steps[step] = str(folder)
    table = compare.step_table(steps).set_index("step")
    assert table.loc["before", "auc_mean"] == pytest.approx(0.85)
    # paired by seed: +0.05 and -0.02
    assert table.loc["after", "d_auc_mean"] == pytest.approx(0.015)
    assert (table.loc["after", "d_auc_higher"], table.loc["after", "d_auc_lower"]) == (1, 1)
    assert np.isnan(table.loc["before", "d_auc_mean"])  # the first step has no step before


def test_bench_verification_pairs_families_by_seed_and_compares_with_the_workflow(tmp_path):
    bench = load("bench_verification")
    rows = [{"family": f, "length": "200", "seed": s, "auc": a, "c_at_1": 0.5, "f_05_u": 0.5, "overall": 0.5,
             "p1": 0.1 * (s + 1), "p2": 0.5}
            for f, aucs in (("words", [0.90, 0.80, 0.70]), ("f3+words", [0.95, 0.78, 0.71])) for s, a in enumerate(aucs)]
    results = pd.DataFrame(rows)
    paired = bench.paired_table(results, pairs=(("f3+words", "words"),)).iloc[0]
    # d = +0.05, -0.02, +0.01 on the same seeds
    assert paired["d_auc_mean"] == pytest.approx(0.04 / 3)
    assert paired["d_auc_sd"] == pytest.approx(np.std([0.05, -0.02, 0.01], ddof=1))
    assert (paired["d_auc_higher"], paired["d_auc_lower"], paired["d_c_at_1_higher"]) == (2, 1, 0)
    assert bench.band_summary(results).set_index("family").loc["words", "p1_mean"] == pytest.approx(0.2)
    assert bench.workflow_difference(results, str(tmp_path)) is None
    stored = tmp_path / "analysis" / "verification"
    stored.mkdir(parents=True)
    changed = results.copy()
    changed.loc[4, "auc"] += 0.25
    changed.to_csv(stored / "results.csv", index=False)
    assert bench.workflow_difference(results, str(tmp_path)) == {"rows_compared": 6,
                                                                 "max_abs_difference": pytest.approx(0.25)}


def test_mlp_rate_counts_an_epochs_work_and_the_feature_widths():
    rate = load("mlp_rate")
    # N = 10, d = 3, h = 4, c = 2: 10 * (4*3*4 + 6*4*2) = 10 * (48 + 48) = 960 flop
    assert rate.linear_gflop(10, 3, 4, 2) * 1e9 == pytest.approx(960)
    # ceil(10 / 4) = 3 steps * 10 * (3*4 + 4 + 4*2 + 2 = 26 parameters) = 780 flop
    assert rate.adam_gflop(10, 4, 3, 4, 2) * 1e9 == pytest.approx(780)
    assert rate.width("all") == 550 and rate.width("f1+f3+f4+f5") == 350 and rate.width("all+words") == 1550


def test_held_out_split_keeps_a_quarter_of_each_author_with_three_books_or_more():
    methods = load("bench_attribution_methods")
    labels = np.array(["a"] * 8 + ["b"] * 3 + ["c"] * 2, dtype=object)
    train, held = methods.held_out_split(labels, 0.25, seed=0)
    # a: round(0.25 * 8) = 2 held out; b: max(1, round(0.75)) = 1; c: 2 books, none held out
    assert [int((labels[held] == c).sum()) for c in "abc"] == [2, 1, 0]
    assert sorted([*train, *held]) == list(range(13)) and not set(train) & set(held)
    again = methods.held_out_split(labels, 0.25, seed=0)[1]
    other = [methods.held_out_split(labels, 0.25, seed=s)[1] for s in range(1, 6)]
    np.testing.assert_array_equal(held, again)
    assert any(not np.array_equal(held, o) for o in other)


def test_excerpts_are_seeded_windows_with_the_words_before_their_marks():
    methods = load("bench_attribution_methods")
    assert methods.excerpt_bounds(500, methods.WHOLE, 0, 7) == (0, 500)
    assert methods.excerpt_bounds(150, 200, 0, 7) is None
    a, b = methods.excerpt_bounds(500, 200, 0, 7)
    assert b - a == 200 and 0 <= a <= 300 and methods.excerpt_bounds(500, 200, 0, 7) == (a, b)
    marks, gaps = np.array([1, 2, 3, 4]), np.array([2, 0, 1, 3])
    stream = np.array(list("abcdef"), dtype=object)
    m, g, words = methods.excerpt(marks, gaps, stream, (1, 3))
    # cumulative gaps 0, 2, 2, 3, 6: marks 1 and 2 have the words [2, 3) before them
    assert m.tolist() == [2, 3] and g.tolist() == [0, 1] and words.tolist() == ["c"]


def test_trusted_differences_per_seed_against_the_best_single_method():
    methods = load("bench_attribution_methods")
    per_seed = pd.DataFrame([
        {"seed": s, "length": 200, "method": m, "accuracy": v}
        for s, values in enumerate([{"mlp": 0.5, "delta_words": 0.8, "trusted": 0.8},
                                    {"mlp": 0.7, "delta_words": 0.6, "trusted": 0.7},
                                    {"mlp": 0.4, "delta_words": 0.9, "trusted": 0.8}])
        for m, v in values.items()])
    row = methods.trusted_differences(per_seed).iloc[0]
    # delta_words: mean 0.767 against the MLP's 0.533; trusted - delta_words = 0, 0.1, -0.1
    assert row["best_method"] == "delta_words" and row["best_mean"] == pytest.approx(2.3 / 3)
    assert row["diff_mean"] == pytest.approx(0.0) and row["diff_sd"] == pytest.approx(0.1)
    assert (row["diff_min"], row["seeds_at_least"]) == (pytest.approx(-0.1), 2)
    # each seed's best: 0.8, 0.7, 0.9 -> differences 0, 0, -0.1
    assert row["diff_per_seed_best_mean"] == pytest.approx(-0.1 / 3) and row["seeds_at_least_per_seed_best"] == 2


def test_rolling_summary_averages_texts_per_seed_then_seeds():
    methods = load("bench_attribution_methods")
    per_text = pd.DataFrame([
        {"seed": 0, "method": "default", "window": 800, "recall": 1.0, "false_alarms": 0, "f1": 1.0, "within_step": 1.0},
        {"seed": 0, "method": "default", "window": 800, "recall": 0.0, "false_alarms": 2, "f1": 0.0, "within_step": 0.0},
        {"seed": 1, "method": "default", "window": 800, "recall": 1.0, "false_alarms": 1, "f1": 0.5, "within_step": 1.0},
    ])
    row = methods.rolling_summary(per_text).set_index("method").loc["default"]
    # seed 0: recall 0.5, false alarms 1; seed 1: 1.0 and 1
    assert row["recall_mean"] == pytest.approx(0.75) and row["recall_sd"] == pytest.approx(np.sqrt(0.125))
    assert row["false_alarms_mean"] == pytest.approx(1.0) and row["false_alarms_sd"] == pytest.approx(0.0)
    assert (row["n_seeds"], row["n_texts"], row["window"]) == (2, 3, 800)


def test_fused_adam_summary_pairs_networks_and_averages_each_seeds_sets_first():
    fused = load("fused_adam")
    rows = [  # (seed, set, accuracy foreach, fused, documents predicted differently, CPU s foreach, fused)
        (0, "f1", 0.5, 0.6, 1, 4.0, 2.0), (0, "f3", 0.8, 0.8, 0, 2.0, 2.0),
        (1, "f1", 0.5, 0.5, 2, 3.0, 1.0), (1, "f3", 0.7, 0.5, 3, 1.0, 1.0),
    ]
    networks = pd.DataFrame([
        {"n_classes": 10, "seed": s, "feature_set": f, "n_test": 10, "accuracy_foreach": a, "accuracy_fused": b,
         "accuracy_difference": b - a, "documents_predicted_differently": d, "epochs_foreach": 10,
         "epochs_fused": 10, "cpu_s_foreach": ca, "cpu_s_fused": cb, "cpu_ratio": ca / cb,
         "epoch_cpu_ratio": ca / cb, "max_weight_difference": 0.1 * s}
        for s, f, a, b, d, ca, cb in rows])  # fmt: skip
    table = fused.summarise(networks).set_index("feature_set")
    # f1: differences 0.1 and 0 -> mean 0.05, sd sqrt(0.005); CPU ratios 2 and 3
    assert table.loc["f1", "accuracy_difference_mean"] == pytest.approx(0.05)
    assert table.loc["f1", "accuracy_difference_sd"] == pytest.approx(np.sqrt(0.005))
    assert table.loc["f1", "cpu_ratio_mean"] == pytest.approx(2.5) and table.loc["f1", "cpu_ratio_overall"] == 7 / 3
    assert table.loc["f3", "networks_predicting_differently"] == 1 and table.loc["f3", "cpu_ratio_max"] == 1.0
    # all sets: seed 0's mean difference 0.05, seed 1's -0.1; CPU 6/4 and 4/2 summed per seed
    every = table.loc["all sets"]
    assert every["accuracy_difference_mean"] == pytest.approx(-0.025)
    assert every["accuracy_difference_sd"] == pytest.approx(np.std([0.05, -0.1], ddof=1))
    assert every["cpu_ratio_mean"] == pytest.approx((1.5 + 2.0) / 2) and every["cpu_ratio_overall"] == 10 / 6
    assert (every["networks"], every["networks_predicting_differently"], every["documents_predicted_differently"]) \
        == (4, 3, 6)
    assert every["epoch_cpu_ratio_mean"] == pytest.approx((2 + 1 + 3 + 1) / 4)
    assert every["max_weight_difference"] == pytest.approx(0.1)


def test_stored_tables_write_the_machines_folder_as_the_alias():
    store = load("store_default_run")
    frame = pd.DataFrame({"reason": ["/data/shared/eltec/a.xml: no body", None, "kept"], "n": [1, 2, 3]})
    out = store.aliased(frame, [["/data/shared", "../shared"]])
    assert out["reason"].tolist()[0] == "../shared/eltec/a.xml: no body"
    assert out["reason"].isna().tolist() == [False, True, False] and out["reason"][2] == "kept"
    assert out["n"].tolist() == [1, 2, 3]
    assert frame["reason"][0].startswith("/data/")  # the input is not changed


def test_dialogue_dash_leaves_one_novel_out_and_votes_per_novel():
    dash = load("dialogue_dash")
    a, b = [0.8, 0.1, 0.1], [0.1, 0.1, 0.8]
    # novels 0-1 by "A", 2-3 by "B"; novel 3 has one excerpt like A's and two like B's
    matrix = np.array([a, a, a, a, b, b, b, a, b, b])
    authors = np.array(["A"] * 4 + ["B"] * 6)
    novels = np.array([0, 0, 1, 1, 2, 2, 2, 3, 3, 3])
    on_excerpts, on_novels = dash.leave_one_novel_out("f1", matrix, authors, novels)
    assert on_excerpts == 9 / 10  # the A-like excerpt of novel 3 goes to A
    assert on_novels == 1.0  # novel 3's vote is B, 2 to 1
    # a novel by A written like B (novel 2) is lost on both counts, the others kept
    matrix = np.array([a, a, a, a, b, b, b, b, b])
    authors = np.array(["A"] * 5 + ["B"] * 4)
    novels = np.array([0, 0, 1, 1, 2, 3, 3, 4, 4])
    assert dash.leave_one_novel_out("f1", matrix, authors, novels) == (8 / 9, 4 / 5)


def test_tei_cost_totals_sum_each_collection_and_divide():
    cost = load("tei_cost")
    per_novel = pd.DataFrame({
        "collection": ["x", "x", "y"], "language": ["fr", "fr", "pl"], "file": ["1", "2", "3"],
        "mb": [1.0, 3.0, 2.0], "parse_cpu_s": [0.05, 0.15, 0.1], "tei_cpu_s": [1.0, 3.0, 2.5],
        "plain_cpu_s": [0.5, 1.5, 2.0], "plain_lang_cpu_s": [1.0, 2.0, 2.0],
    })  # fmt: skip
    table = cost.totals(per_novel).set_index("collection")
    assert table.loc["x", "novels"] == 2 and table.loc["y", "novels"] == 1
    assert table.loc["x", "mb"] == 4.0 and table.loc["x", "tei_cpu_s"] == 4.0
    assert table.loc["x", "tei_over_plain"] == 2.0
    assert table.loc["x", "tei_over_plain_lang"] == 4.0 / 3.0
    assert table.loc["x", "plain_lang_over_plain"] == 1.5
    assert np.isclose(table.loc["x", "parse_ms_per_mb"], 50.0)
    assert np.isclose(table.loc["y", "parse_share_of_tei"], 0.04)


def test_bench_workflow_runs_a_book_command_with_the_workflows_variables():
    """``--processes`` reruns the per-book ``shell:`` commands, which read ``$PUNCTSTYLE_JOB_PYTHON``
    and ``$PUNCTSTYLE_DOWNLOAD_POLICY``: the benchmark sets them as the workflow does."""
    import json

    workflow = load("bench_workflow")
    env = workflow.book_job_environment({"mirror": {"base_url": "file:///m", "retries": 5}})
    assert env["PUNCTSTYLE_JOB_PYTHON"] == sys.executable
    policy = json.loads(env["PUNCTSTYLE_DOWNLOAD_POLICY"])
    assert policy["retries"] == 5 and "base_url" not in policy and policy["timeout_s"] > 0
    rows = workflow.process_rows("t", [workflow.ProcessCost("extract_book", 0.4, {"numpy": 50.0, "a": 1.0, "b": 20.0})],
                                 top=2)
    assert rows == [{"tree": "t", "rule": "extract_book", "cpu_s": 0.4, "imports_ms": 71.0,
                     "heaviest_imports": "numpy 50; b 20"}]


def test_bench_workflow_records_whether_the_package_is_compiled_in_every_process():
    workflow = load("bench_workflow")
    for value in ("1", "x"):
        assert workflow.bytecode_condition({"PYTHONDONTWRITEBYTECODE": value}).startswith("not written")
    for environ in ({}, {"PYTHONDONTWRITEBYTECODE": ""}):  # Python ignores the empty value
        assert workflow.bytecode_condition(environ) == "written and reused (__pycache__)"


def test_bench_workflow_knows_the_line_of_a_run_on_the_book_job_server():
    from punctstyle.plan.book_jobs import SERVER_STARTED

    workflow = load("bench_workflow")
    assert SERVER_STARTED.startswith(workflow.SERVER_LINE) and not SERVER_STARTED.startswith("punctstyle: ")
    whole = workflow.Phase("whole", 10.0, 5.0, 1.0, True)
    fixed = workflow.Phase("fixed", 2.0, 1.0, 0.5, False)
    assert whole.served is False
    whole.served = True
    row = workflow.whole_call_row("this tree", REPO, whole, fixed, 4)
    assert row["book_job_server"] is True and row["cpu_s_a_book"] == 2.5 and row["jobs_cpu_s_a_book"] == 2.0


def test_book_pieces_splits_cumulative_process_times_into_steps():
    pieces = load("book_pieces")
    steps = pieces.step_seconds({"start": 0.03, "numpy": 0.1, "pyarrow.parquet": 0.15, "work": 0.4})
    assert list(steps) == ["start", "numpy", "pyarrow.parquet", "work"]
    assert np.allclose(list(steps.values()), [0.03, 0.07, 0.05, 0.25])
    text = "He said--no; he said:yes — a,b\n" * 3
    rows = pieces.repair_rows(text, repeats=1)
    assert [(r["piece"], r["condition"]) for r in rows] == [
        ("repair: dashes", "as written"), ("repair: dashes", "faster form"),
        ("repair: glued marks", "as written"), ("repair: glued marks", "faster form"),
        ("download: gzip of the text", "level 6"), ("download: gzip of the text", "level 1"),
    ]  # fmt: skip
    assert all(r["same_matches"] for r in rows[:4]) and [r["gzip_level"] for r in rows[4:]] == [6, 1]


def test_bench_workflow_differences_are_this_tree_minus_the_baseline():
    workflow = load("bench_workflow")
    calls = pd.DataFrame({"tree": ["this tree", "baseline"], "cpu_s_a_book": [0.5, 0.8], "jobs_cpu_s_a_book": [0.4, 0.6]})
    processes = pd.DataFrame({"tree": ["this tree", "this tree", "baseline", "baseline", "baseline"],
                              "rule": ["download_book", "extract_book", "download_book", "extract_book", "book_features"],
                              "cpu_s": [0.1, 0.3, 0.2, 0.4, 0.2]})  # fmt: skip
    table = workflow.differences(calls, processes).set_index("what")
    assert list(table.index) == ["whole call, a book", "the books' jobs, a book", "process download_book",
                                 "process extract_book"]  # fmt: skip
    assert np.allclose(table["difference"], [-0.3, -0.2, -0.1, -0.1])
    assert np.allclose(table["ratio"], [0.5 / 0.8, 0.4 / 0.6, 0.5, 0.75])
    assert list(workflow.differences(calls, None)["what"]) == ["whole call, a book", "the books' jobs, a book"]


def test_tei_cost_says_quiet_only_below_a_load_of_1_before_and_1_5_after():
    cost = load("tei_cost")
    assert cost.machine_note(0.76, 1.11).startswith("quiet")
    assert cost.machine_note(0.5, 1.5).startswith("shared")
    assert cost.machine_note(1.0, 0.2).startswith("shared")
