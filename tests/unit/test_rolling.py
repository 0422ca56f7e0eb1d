"""Tests of rolling attribution (punctstyle.attribution.rolling) and of `punctstyle rolling`."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from punctstyle import cli
from punctstyle.attribution import rolling
from punctstyle.features import compute_feature
from tests.unit.test_cli import sentences, tiny_bundle  # noqa: F401  (the module-scoped bundle fixture)


def markov_marks(transitions: np.ndarray, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` marks of an invented style: a Markov chain on the 10 marks, gaps uniform 0..11."""
    cumulative = transitions.cumsum(axis=1)
    marks = np.empty(n, dtype=np.int64)
    marks[0] = 4
    u = rng.random(n)
    for i in range(1, n):
        marks[i] = min(9, int(np.searchsorted(cumulative[marks[i - 1]], u[i])))
    return marks, rng.integers(0, 12, n)


def invented_styles(k: int) -> list[np.ndarray]:
    return [np.random.default_rng(100 + s).dirichlet(np.full(10, 0.5), size=10) for s in range(k)]


def test_an_a_b_a_text_has_both_changes_within_one_step():
    rng = np.random.default_rng(7)
    styles = invented_styles(3)
    references = [markov_marks(P, 20_000, rng) for P in styles]
    signatures = np.vstack([compute_feature("f3", m, g) for m, g in references])
    parts = [markov_marks(styles[a], n, rng) for a, n in ((0, 3000), (1, 2500), (0, 3500))]
    marks = np.concatenate([p[0] for p in parts])
    gaps = np.concatenate([p[1] for p in parts])
    window, step = 400, 100
    result = rolling.roll_text(
        marks, gaps, window, step,
        lambda features, _: rolling.kl_slice_scores(signatures, ["A", "B", "C"], features["f3"], "f3"), ["f3"],
    )
    true = [3000, 5500]
    errors = rolling.change_point_errors(result.change_marks, true)
    assert len(result.change_marks) == 2 and (errors <= step).all()
    assert [author for _, _, author in result.segments] == ["A", "B", "A"]
    truth = rolling.truth_at(result.centres, true, ["A", "B", "A"])
    assert (result.slice_authors() == truth).mean() > 0.9
    assert result.starts[-1] + window <= len(marks) < result.starts[-1] + window + step


def test_optimal_partition_on_noise_free_steps_and_no_change():
    Y = np.repeat(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]), [5, 3, 4], axis=0)
    assert rolling.optimal_partition(Y, penalty=0.5) == [5, 8]
    # a change costs more than the middle segment's squared error: none
    assert rolling.optimal_partition(Y, penalty=100.0) == []
    # segments of at least 5 rows: 12 rows hold two segments at most
    assert len(rolling.optimal_partition(Y, penalty=0.5, min_size=5)) == 1
    flat = np.ones((20, 2))
    assert rolling.optimal_partition(flat, rolling.segmentation_penalty(flat, 4), 4) == []


def test_slices_positions_and_words():
    assert rolling.slice_starts(10, 4, 3).tolist() == [0, 3, 6]
    assert rolling.slice_centres(np.array([0, 3]), 4).tolist() == [2.0, 5.0]
    with pytest.raises(ValueError, match="fewer than one window"):
        rolling.slice_starts(3, 4, 1)
    first, stop = rolling.slice_word_spans(np.array([2, 0, 3, 1]), np.array([0, 1]), 2)
    assert first.tolist() == [0, 2] and stop.tolist() == [2, 5]
    index = np.array([0, 1, 1, -1, 0])
    freqs = rolling.slice_word_frequencies(index, np.array([0, 2]), np.array([3, 5]), 2)
    assert freqs.tolist() == [[1 / 3, 2 / 3], [1 / 3, 1 / 3]]
    assert rolling.change_positions(np.array([0, 100, 200]), 400, [1]).tolist() == [250.0]
    errors = rolling.change_point_errors([250.0, 900.0], [300.0, 1000.0, 2000.0])
    assert errors.tolist() == [50.0, 100.0, 1100.0]
    assert rolling.truth_at(np.array([10, 300, 700]), [300, 600], ["a", "b", "c"]).tolist() == ["a", "b", "c"]


def test_the_method_is_the_most_accurate_at_the_window():
    threshold = {
        "min_marks": 600,
        "mlp_curve": [{"n_marks": 200, "accuracy": 0.3}, {"n_marks": 800, "accuracy": 0.9}],
        "curves": {"f3": {"curve": [{"n_marks": 200, "accuracy": 0.5}, {"n_marks": 800, "accuracy": 0.6}]}},
    }
    assert rolling.best_method_at(threshold, ["f3"], 250)[0] == "kl_f3"
    assert rolling.best_method_at(threshold, ["f3"], 700) == ("mlp", {"mlp": 0.9, "kl_f3": 0.6})
    assert rolling.best_method_at({}, ["f3"], 700) == ("mlp", {})
    assert rolling.default_window(threshold) == 600 and rolling.default_window({"min_marks": None}) == 800
    # the command's window: the bundle's min_marks, at least 800 marks
    assert rolling.rolling_window(threshold) == 800 and rolling.rolling_window({"min_marks": 1200}) == 1200
    assert rolling.rolling_window({"min_marks": None}) == 800
    assert rolling.default_step(800) == 200


def test_distances_become_evidence_and_slice_authors():
    scores = rolling.SliceScores("kl_f3", rolling.DISTANCE, np.array(["x", "y"], dtype=object),
                                 np.array([[0.1, 0.5], [0.9, np.nan]]))
    assert scores.slice_authors().tolist() == ["x", "x"]
    evidence = scores.evidence()
    assert np.allclose(evidence.sum(axis=1), 0) and evidence[0, 0] > evidence[0, 1]
    with pytest.raises(ValueError):
        rolling.SliceScores("m", "odds", np.array(["x"]), np.zeros((2, 1)))


# --------------------------------------------------------------------------- the command


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def collaboration(tmp_path_factory):
    """Semicolons, then commas, then semicolons again: invented sentences."""
    path = tmp_path_factory.mktemp("rolling") / "collaboration.txt"
    path.write_text(" ".join([sentences(0, 150, 1), sentences(1, 150, 2), sentences(0, 150, 3)]), encoding="utf-8")
    return path


def test_rolling_command_json_table_and_figure(capsys, tiny_bundle, collaboration, tmp_path):  # noqa: F811
    bundle, _, authors = tiny_bundle
    figure = tmp_path / "rolling.png"
    code, out, err = run(capsys, "rolling", str(collaboration), "--model", str(bundle), "--window", "80",
                         "--step", "20", "--json", "--figure", str(figure))
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["window"] == 80 and result["step"] == 20 and result["method"] in ("mlp", "kl_f3", "kl_f1")
    assert [s["author"] for s in result["segments"]] == ["Semicolon, Sam", "Comma, Cid", "Semicolon, Sam"]
    assert len(result["change_points"]) == 2 and result["n_slices"] == len(result["slices"])
    # in characters: a change at p marks ends mark ceil(p) - 1 (the fixture's marks found by a regex)
    text = collaboration.read_text(encoding="utf-8")
    ends = [m.end() for m in re.finditer(r'\.\.\.|[;,.()!?"]', text)]
    assert result["n_chars"] == len(text) and result["change_chars"] == [
        ends[math.ceil(p) - 1] for p in result["change_points"]]
    edges = [0, *result["change_chars"], len(text)]
    assert [(s["start_char"], s["end_char"]) for s in result["segments"]] == list(zip(edges[:-1], edges[1:]))
    assert figure.read_bytes()[:4] == b"\x89PNG"
    code, out, err = run(capsys, "rolling", str(collaboration), "--model", str(bundle), "--window", "80")
    assert code == 0 and "change points (marks):" in out and "step" not in err
    assert "change points (characters of the input):" in out and "segments (marks; characters of the input):" in out
    assert "slices of 80 marks every 20" in out


@pytest.mark.parametrize(
    "content, extra, reason",
    [
        ("", [], "empty text"),
        ("No marks here at all", [], "no punctuation mark"),
        ("One, two. Three; four.", ["--window", "50"], "shorter than one window of 50"),
        ("One, two. Three; four.", ["--figure", "out.gif"], "must end in .png"),
    ],
)
def test_rolling_refusals_are_one_line_exit_2(capsys, tiny_bundle, tmp_path, content, extra, reason):  # noqa: F811
    bundle, _, _ = tiny_bundle
    text = tmp_path / "t.txt"
    text.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "rolling", str(text), "--model", str(bundle), *extra)
    assert code == 2 and out == "" and reason in err and len(err.strip().splitlines()) == 1


def test_rolling_missing_model_is_one_line(capsys, collaboration, tmp_path):
    code, _, err = run(capsys, "rolling", str(collaboration), "--model", str(tmp_path / "none"))
    assert code == 2 and "model folder does not exist" in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- synthetic collaborations


def test_collaborations_use_held_out_books_only_and_join_parts():
    import pandas as pd

    from punctstyle.attribution.collaborations import (
        assemble, collaboration_split, draw_collaborations, evaluate_rolling,
    )

    labels = np.repeat(np.array(["A", "B", "C", "D"], dtype=object), 5)
    table = pd.DataFrame({"book_id": np.arange(20), "author": labels})
    train, test = collaboration_split(table, labels, seed=0, test_fraction=0.4)
    assert not set(train) & set(test) and set(labels[test]) == {"A", "B", "C", "D"}
    n_marks = np.full(20, 9000)
    n_marks[test[0]] = 100  # too short for any part: never drawn
    collabs = draw_collaborations(labels, n_marks, test, ["A-B", "A-B-A", "A-B-C"], 4, (2000, 4000),
                                  np.random.default_rng(0))
    assert [c.kind for c in collabs] == ["A-B"] * 4 + ["A-B-A"] * 4 + ["A-B-C"] * 4
    known = draw_collaborations(labels, n_marks, test, ["A-B"], 6, (2000, 4000), np.random.default_rng(0),
                                known_authors=["B", "C"])
    assert all(set(c.authors) == {"B", "C"} for c in known)
    for c in collabs:
        assert set(c.documents) <= set(test.tolist()) and test[0] not in c.documents
        assert all(labels[d] == a for d, a in zip(c.documents, c.authors))
        assert all(2000 <= b - a <= 4000 and b <= 9000 for a, b in c.ranges)
        assert len(set(c.authors)) == {"A-B": 2, "A-B-A": 2, "A-B-C": 3}[c.kind]
    aba = collabs[4]
    assert aba.authors[0] == aba.authors[2] and aba.documents[0] == aba.documents[2]
    first, third = aba.ranges[0], aba.ranges[2]
    assert first[1] <= third[0] or third[1] <= first[0]  # disjoint ranges of the one book

    sequences = {d: (np.full(9000, d % 10), np.ones(9000, dtype=np.int64)) for d in range(20)}
    marks, gaps, words = assemble(aba, sequences, words=lambda d: np.array([f"w{d}"] * 9000, dtype=object))
    assert len(marks) == aba.n_marks == len(words) and aba.boundaries.tolist()[0] == first[1] - first[0]
    assert (marks[: aba.boundaries[0]] == aba.documents[0] % 10).all()

    starts = rolling.slice_starts(aba.n_marks, 1000, 250)
    parts = rolling.truth_at(rolling.slice_centres(starts, 1000), aba.boundaries, [0, 1, 2]).astype(int)
    values = np.where(np.arange(2)[None, :] == np.array([0, 1, 0])[parts][:, None], 0.1, 0.9)
    scores = rolling.SliceScores("toy", rolling.DISTANCE, np.array(aba.authors[:2], dtype=object), values)
    result = rolling.rolling_attribution(scores, starts, 1000, 250, aba.n_marks)
    record = evaluate_rolling(result, aba)
    assert record["slice_accuracy"] == 1.0 and record["within_step"] == 1.0 and record["segments_right"]
    assert record["n_found"] == 2 and (record["precision"], record["recall"], record["f1"]) == (1.0, 1.0, 1.0)
    assert record["false_alarms"] == 0 and record["margin"] == 1000 and record["hausdorff"] <= 250


def test_rolling_collaborations_on_invented_styles():
    import pandas as pd

    from punctstyle.attribution.collaborations import RollingSettings, rolling_collaborations, rolling_summary
    from punctstyle.features import compute_features
    from punctstyle.marks import PAPER_FEATURES, feature_column_names
    from punctstyle.report.plots.rolling import collaborations_figure

    rng = np.random.default_rng(11)
    styles = invented_styles(4)
    books = [markov_marks(styles[k % 4], 3000, rng) for k in range(20)]
    rows = []
    for k, (marks, gaps) in enumerate(books):
        row = {"book_id": k, "author": "ABCD"[k % 4], "n_marks": len(marks)}
        features = compute_features(marks, gaps)
        for name in PAPER_FEATURES:
            row.update(zip(feature_column_names(name), features[name]))
        rows.append(row)
    frame = pd.DataFrame(rows)
    tables = {f: frame[["book_id", "author", "n_marks", *feature_column_names(f)]] for f in PAPER_FEATURES}
    settings = RollingSettings(window=300, step=75, words=10, per_kind=2, part_marks=(900, 1500),
                               test_fraction=0.2, seeds=(0,), methods=("kl_f3", "delta_words"))
    records = rolling_collaborations(tables, lambda i: books[i], settings)
    assert set(records["method"]) == {"kl_f3"}  # no word matrix: the word method is left out
    assert len(records) == 6 and records["slice_accuracy"].mean() > 0.8
    assert (records["within_step"] == 1.0).mean() >= 0.5
    summary = rolling_summary(records)
    assert summary["n_collaborations"].tolist() == [2, 2, 2]
    a_b = records[records["kind"] == "A-B"]
    assert summary.loc[summary["kind"] == "A-B", "f1_mean"].item() == pytest.approx(a_b["f1"].mean())
    assert summary.loc[summary["kind"] == "A-B", "false_alarms_mean"].item() == pytest.approx(a_b["false_alarms"].mean())
    fig = collaborations_figure(summary, "title " * 40, settings.step)
    assert len(fig.axes) == 2
