"""Words beside punctuation in `attribute` and `rolling` (issue 36): bundles built from generated
corpora where words separate the authors and punctuation does not, and the other way round."""

from __future__ import annotations

import json

import numpy as np
import pytest

from punctstyle import cli
from punctstyle.attribution import bundle as bundles
from punctstyle.attribution.bundle_build import build_attribution_bundle
from punctstyle.attribution.bundle_words import (
    DeltaReference,
    count_frequencies,
    read_word_models,
    stream_frequencies,
    write_word_models,
    WordModels,
)
from punctstyle.settings import schema_defaults
from tests.fixtures.corpus_files import corpus_files

AUTHORS = ("Able, Ann", "Baker, Ben", "Crane, Cy")
OWN_WORDS = (("lamp", "river", "cat", "letter"), ("boat", "pear", "clock", "gate"), ("stone", "wind", "milk", "door"))
SHARED = ("the", "and", "of")


def generated_text(author: int, n: int, seed: int, words_differ: bool) -> str:
    """``n`` sentences of one author. ``words_differ``: each author its own words, every author the
    same mixture of three punctuation patterns; else every author the same words, each author its
    own pattern."""
    rng = np.random.default_rng(seed)
    vocabulary = (OWN_WORDS[author] if words_differ else sum(OWN_WORDS, ())) + SHARED

    def clause() -> str:
        return " ".join(rng.choice(vocabulary, size=rng.integers(2, 6)))

    out = []
    for _ in range(n):
        style = int(rng.integers(3)) if words_differ else author
        if style == 0:
            out.append(f"{clause().capitalize()}; {clause()}; {clause()}.")
        elif style == 1:
            out.append(f"{clause().capitalize()}, {clause()} ({clause()}), {clause()}.")
        else:
            out.append(f'"{clause().capitalize()}!" {clause()}? {clause()}...')
    return " ".join(out)


class MemoryWords:
    """The ``word_files`` of :func:`build_attribution_bundle` for in-memory streams."""

    def __init__(self, streams: list[list[str]]) -> None:
        self.streams = streams

    def stream(self, i: int, marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
        return np.asarray(self.streams[i], dtype=object)

    def counts(self, i: int) -> tuple[list[str], np.ndarray]:
        words, counts = np.unique(np.asarray(self.streams[i], dtype=object).astype(str), return_counts=True)
        return words.tolist(), counts


def build(folder, words_differ: bool):
    from punctstyle.corpus.words import book_word_stream
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    extractor = ChunkCachedExtractor()
    books, streams = [], []
    for book_id in range(1, 19):
        author = book_id % 3
        sequence, stream = book_word_stream(generated_text(author, 260, book_id, words_differ), extractor)
        books.append((book_id, AUTHORS[author], sequence))
        streams.append(stream)
    tables, paths = corpus_files(folder, books)
    bundle = folder / "attribution"
    outputs = {key: bundle / name for key, name in {**bundles.BUNDLE_FILES, **bundles.OPTIONAL_FILES}.items()}
    defaults = schema_defaults()
    mlp = {**defaults["recognition"]["mlp"], "hidden_units": 16, "max_epochs": 20, "patience": 5}
    settings = {**defaults["attribution"], "mark_grid": [20, 40, 80, 160], "words": 20, "collaborations": 2,
                "part_marks": [300, 400], "test_fraction": 0.34}
    build_attribution_bundle(tables, paths, outputs, settings=bundles.AttributionSettings.from_config(settings),
                             classifier_options={"mlp": {"params": mlp, "device": "cpu", "num_threads": 1}},
                             word_files=MemoryWords(streams))
    return bundle


@pytest.fixture(scope="module")
def word_bundle(tmp_path_factory):
    """Words separate the authors, punctuation does not."""
    return build(tmp_path_factory.mktemp("words"), words_differ=True)


@pytest.fixture(scope="module")
def punctuation_bundle(tmp_path_factory):
    """Punctuation separates the authors, words do not."""
    return build(tmp_path_factory.mktemp("punctuation"), words_differ=False)


def test_frequencies_worked_example():
    assert stream_frequencies(["a", "b", "a", "c"], ["a", "c", "z"]).tolist() == [0.5, 0.25, 0.0]
    assert stream_frequencies([], ["a"]).tolist() == [0.0]
    assert count_frequencies(["a", "b"], np.array([3, 1]), ["b", "a", "z"]).tolist() == [0.25, 0.75, 0.0]


def test_delta_reference_worked_example(tmp_path):
    # two authors, two books each, one column: mean 2.5, sd sqrt(5/3); z = (x - 2.5) / sd
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    reference = DeltaReference.fit("delta_words", X, ["A", "A", "B", "B"])
    sd = np.sqrt(5 / 3)
    assert reference.centroids[:, 0] == pytest.approx([-1 / sd, 1 / sd])
    assert reference.distances(np.array([[2.5]]))[0] == pytest.approx([1 / sd, 1 / sd])
    assert reference.predict(np.array([[0.0], [5.0]])).tolist() == ["A", "B"]
    models = WordModels(("x",), {"delta_words": reference, "delta_both": reference})
    write_word_models(tmp_path / "words.npz", models)
    again = read_word_models(tmp_path / "words.npz")
    assert again.words == ("x",) and again.references["delta_both"].authors.tolist() == ["A", "B"]
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(Exception, match="bad.npz: not a readable word-model file"):
        read_word_models(tmp_path / "bad.npz")


def test_the_word_curves_through_the_driver_are_the_deltas_fitted_on_each_rounds_books():
    """The driver's Deltas (the registry's ``delta`` with its defaults) predict what the deployed
    class (:class:`DeltaReference`, :func:`fit_word_models`) fitted on each round's training books
    predicts, whole and at every length."""
    from punctstyle.attribution.bundle_words import (
        WORD_METHODS, cut_word_rows, fit_word_models, method_rows, punctuation_block, word_length_curves)
    from punctstyle.attribution.calibration import text_folds
    from punctstyle.attribution.length import fold_rounds
    from punctstyle.corpus.words import training_vocabulary
    from punctstyle.features import compute_features

    rng = np.random.default_rng(5)
    labels = np.repeat(np.array(AUTHORS, dtype=object), 4)
    sequences, streams = [], []
    for book in range(labels.size):
        gaps = rng.integers(0, 4, size=60)
        sequences.append((rng.integers(0, 10, size=60).astype(np.uint8), gaps))
        streams.append(rng.choice(OWN_WORDS[book // 4] + SHARED, size=int(gaps.sum())).tolist())
    words = MemoryWords(streams)

    def stream(i):
        return np.asarray(streams[i], dtype=object)

    rounds = fold_rounds(labels, text_folds(labels, None, 2, np.random.default_rng(0)))
    grid = [10, 30]
    curves = word_length_curves(sequences, stream, words.counts, labels, rounds, grid, 5)
    right = {m: np.zeros(3, dtype=np.int64) for m in WORD_METHODS}
    for held_out in rounds:
        vocabulary = training_vocabulary((words.counts(int(i)) for i in held_out.train), 5)
        punct = np.vstack([punctuation_block(compute_features(*sequences[i]))[0] for i in held_out.train])
        freqs = np.vstack([count_frequencies(*words.counts(int(i)), vocabulary) for i in held_out.train])
        models = fit_word_models(punct, freqs, labels[held_out.train], vocabulary)
        cut = cut_word_rows(sequences, stream, held_out.test, grid, vocabulary)
        for method, reference in models.references.items():
            for j, n in enumerate([None, *grid]):
                right[method][j] += np.sum(reference.predict(method_rows(method, *cut[n])) == labels[held_out.test])
    for method in WORD_METHODS:
        assert curves[method]["n_test"] == 12 and curves[method]["n_right"] == right[method][0]
        assert [row["n_right"] for row in curves[method]["curve"]] == right[method][1:].tolist()


def test_bundle_stores_word_methods_with_their_curves(word_bundle):
    threshold = json.loads((word_bundle / "threshold.json").read_text())
    manifest = json.loads((word_bundle / "manifest.json").read_text())
    assert manifest["word_methods"] == ["delta_words", "delta_both"]
    for method in ("delta_words", "delta_both"):
        curve = threshold["word_curves"][method]["curve"]
        # cross-fitted over K = round(1 / 0.34) = 3 folds of texts: each of the 18 books held out once
        assert [r["n_marks"] for r in curve] == [20, 40, 80, 160] and all(r["n_test"] == 18 for r in curve)
        assert all(r["accuracy"] == r["n_right"] / 18 for r in curve)
    assert threshold["folds"] == 3 and threshold["word_curves"]["delta_words"]["n_test"] == 18
    for curve in (threshold["mlp_curve"], threshold["curves"]["f3"]["curve"]):  # every method on the same books
        assert all(r["n_test"] == 18 and r["accuracy"] == r["n_right"] / 18 for r in curve)
    assert threshold["mlp_full"]["n_test"] == 18 and threshold["calibration"]["folds"] == 3
    # the calibration pools the same predictions: 18 books, whole and at the 4 lengths
    assert threshold["calibration"]["n_predictions"] == 18 * 5
    # words separate these authors: Delta on words gets every held-out book right from 40 marks on
    assert [r["accuracy"] for r in threshold["word_curves"]["delta_words"]["curve"]][1:] == [1.0, 1.0, 1.0]
    rolling = threshold["rolling"]
    assert set(rolling["methods"]) == {"punctuation", "words", "both"} and rolling["n_collaborations"] == 4
    f1 = {m: rolling["methods"][m]["f1"] for m in ("punctuation", "words", "both")}
    assert rolling["default"] == max(f1, key=f1.get)  # the largest F1, the earlier on a tie
    assert rolling["default"] == "words" and f1["words"] > f1["punctuation"]
    # measured at the command's default window (800 marks) shrunk to what the parts of 300 to 400
    # marks hold: two windows a part, floor(300 / 2) = 150 marks, step round(150 / 4) = 38
    assert (rolling["command_window"], rolling["window"], rolling["step"], rolling["margin"]) == (800, 150, 38, 150)
    assert rolling["fold"] == 0  # the collaborations are drawn from the held-out books of the first fold
    assert manifest["rolling_choice"] == {"default": "words", "window": 150, "step": 38, "command_window": 800}
    loaded = bundles.load_attribution_bundle(word_bundle)
    assert loaded.words is not None and len(loaded.words.words) == threshold["words"] == 15  # every word there is


@pytest.mark.parametrize(("fixture", "family"), [("word_bundle", "words"), ("punctuation_bundle", "punctuation")])
def test_the_trusted_method_follows_the_signal(fixture, family, request, tmp_path, capsys):
    bundle = request.getfixturevalue(fixture)
    text = tmp_path / "new.txt"
    text.write_text(generated_text(1, 60, 999, words_differ=fixture == "word_bundle"), encoding="utf-8")
    assert cli.main(["attribute", str(text), "--model", str(bundle), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    methods = {m["method"]: m for m in result["methods"]}
    assert set(methods) == {"mlp", "kl_f3", "kl_f1", "delta_words", "delta_both"}
    assert all(m["first_author"] for m in methods.values())  # each method's first author, agreeing or not
    trusted = result["trusted"]
    assert methods[trusted["method"]]["family"] == family
    assert trusted["accuracy"] == max(m["accuracy"] for m in methods.values())
    assert result["answer"] == {"method": trusted["method"], "family": family, "author": AUTHORS[1]}
    assert cli.main(["attribute", str(text), "--model", str(bundle), "--method", "mlp"]) == 0
    out = capsys.readouterr().out
    assert "Answer (mlp):" in out and f"Trusted: {trusted['method']}" in out
    assert "held-out books right" in out


def test_rolling_finds_both_changes_with_words_where_punctuation_cannot(word_bundle, tmp_path, capsys):
    from punctstyle.attribution.change_points import change_point_scores
    from punctstyle.api.text import sequence_and_words

    parts = [generated_text(a, 90, 500 + k, words_differ=True) for k, a in enumerate((0, 1, 0))]
    text = tmp_path / "aba.txt"
    text.write_text(" ".join(parts), encoding="utf-8")
    boundaries = np.cumsum([len(sequence_and_words("part", p)[0]) for p in parts])[:-1]
    found = {}
    for method in ("words", "punctuation"):
        assert cli.main(["rolling", str(text), "--model", str(word_bundle), "--window", "60", "--step", "15",
                         "--method", method, "--json"]) == 0
        found[method] = json.loads(capsys.readouterr().out)
    words = change_point_scores(found["words"]["change_points"], boundaries, margin=60)
    assert words["recall"] == 1.0 and words["false_alarms"] == 0
    assert [s["author"] for s in found["words"]["segments"]] == [AUTHORS[0], AUTHORS[1], AUTHORS[0]]
    punctuation = change_point_scores(found["punctuation"]["change_points"], boundaries, margin=60)
    assert punctuation["f1"] < 1.0
    assert found["words"]["method"] == "delta_words" and found["punctuation"]["method_choice"] == "punctuation"
    assert found["words"]["default_method"] == "words"  # this bundle's choice by F1
    assert cli.main(["rolling", str(text), "--model", str(word_bundle), "--window", "60", "--step", "15"]) == 0
    out = capsys.readouterr().out
    assert "method delta_words (distance); words (the bundle's default" in out
    assert ("at a window of 150 marks, step 38; shorter than the default window of 800 because the bundle's "
            "collaboration parts were too short to hold it)") in out
    assert found["words"]["default_measured"] == {"default": "words", "window": 150, "step": 38,
                                                  "command_window": 800}


@pytest.mark.parametrize(("command_window", "part_min", "expected"),
                         [(800, 2000, 800), (800, 1600, 800), (800, 1599, 799), (800, 300, 150), (800, 1, 1),
                          (1600, 2000, 1000)])
def test_the_choice_window_is_the_commands_unless_the_parts_are_too_short(command_window, part_min, expected):
    from punctstyle.attribution.rolling import choice_window

    assert choice_window(command_window, part_min) == expected


def test_the_choice_note_says_where_the_default_was_measured():
    from punctstyle.attribution.rolling import rolling_choice_note, rolling_choice_record

    record = {"rolling": {"default": "words", "window": 800, "step": 200, "command_window": 800}}
    assert rolling_choice_note(record) == ("the bundle's default, best change-point F1 on its synthetic "
                                           "collaborations at a window of 800 marks, step 200")
    older = {"rolling": {"default": "both", "window": 100, "step": 25}}  # built before command_window was kept
    assert rolling_choice_record(older) == {"default": "both", "window": 100, "step": 25, "command_window": None}
    assert rolling_choice_record({"rolling": None}) is None and rolling_choice_note({}) == "the bundle's default"


def test_a_damaged_word_curve_is_refused_in_one_line(word_bundle, tmp_path):
    import shutil

    copy = tmp_path / "bundle"
    shutil.copytree(word_bundle, copy)
    threshold = json.loads((copy / "threshold.json").read_text())
    threshold["word_curves"]["delta_words"]["curve"] = [{"n_marks": "many"}]
    (copy / "threshold.json").write_text(json.dumps(threshold))
    with pytest.raises(Exception, match=r"threshold.json: field word_curves.delta_words.curve"):
        bundles.load_attribution_bundle(copy)
