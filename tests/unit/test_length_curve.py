"""Accuracy against the length of the punctuation sequence (punctstyle.training.length_curve)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.features import compute_feature
from punctstyle.training.length_curve import (
    EXCERPT_COLUMNS,
    RESULT_COLUMNS,
    check_methods,
    doubling_lengths,
    length_curve_row,
    length_labels,
)
from punctstyle.training.length_features import (
    EXCERPT_FEATURES,
    WHOLE,
    excerpt_matrices,
    excerpt_vectors,
)
from punctstyle.book.excerpts import (
    Document,
    cut_excerpt,
    excerpt_rng,
    excerpt_start,
)
from punctstyle.training.length_summary import (
    median_words,
    summarise,
    summary_markdown,
)
from punctstyle.analyses.recognition import recognition_experiments
from punctstyle.experiments.splits import row_split
from tests.unit.recognition_data import feature_dict

MARKS = np.arange(10, dtype=np.uint8)  # ! " ( ) , . : ; ? ...
GAPS = np.arange(10, dtype=np.uint32)  # gap l = l words before mark l


def test_doubling_grid_and_labels():
    assert doubling_lengths(50, 12800) == [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800]
    assert doubling_lengths(50, 199) == [50, 100]
    assert length_labels([200, 50, 50]) == ["50", "200", WHOLE]
    with pytest.raises(ValueError):
        doubling_lengths(0, 10)


def test_excerpt_start_is_seeded_by_seed_document_and_length():
    expected = int(np.random.default_rng(np.random.SeedSequence([0, 7, 4])).integers(0, 7))
    assert expected == 3
    assert excerpt_start(10, 4, excerpt_rng(0, 7, 4)) == 3
    assert excerpt_start(10, 4, excerpt_rng(0, 7, 4)) == 3  # reproducible
    assert excerpt_start(10, 4, excerpt_rng(0, 8, 4)) == 2  # another document
    # a document as long as the excerpt: no draw, start 0
    assert excerpt_start(4, 4, excerpt_rng(0, 7, 4)) == 0


def test_exact_excerpt_for_a_seed():
    excerpt = cut_excerpt(MARKS, GAPS, 4, seed=0, doc_id=7)
    assert excerpt.start == 3 and excerpt.complete
    assert excerpt.marks.tolist() == [3, 4, 5, 6] and excerpt.gaps.tolist() == [3, 4, 5, 6]
    # words before the excerpt 0 + 1 + 2 = 3; words in it 3 + 4 + 5 + 6 = 18
    assert (excerpt.word_start, excerpt.word_stop, excerpt.n_words, excerpt.n_marks) == (3, 21, 18, 4)
    whole = cut_excerpt(MARKS, GAPS, None, seed=0, doc_id=7)
    assert (whole.start, whole.n_marks, whole.n_words, whole.complete) == (0, 10, 45, True)


def test_a_document_shorter_than_n_is_used_whole_and_marked_incomplete():
    short = cut_excerpt(MARKS[:3], GAPS[:3], 4, seed=0, doc_id=7)
    assert short.marks.tolist() == [0, 1, 2] and short.start == 0 and not short.complete
    exact = cut_excerpt(MARKS[:4], GAPS[:4], 4, seed=0, doc_id=7)
    assert exact.marks.tolist() == [0, 1, 2, 3] and exact.complete


def test_features_of_an_excerpt_by_hand():
    excerpt = cut_excerpt(MARKS, GAPS, 4, seed=0, doc_id=7)  # marks ) , . :  gaps 3 4 5 6
    vectors = excerpt_vectors(excerpt, Document(7, MARKS, GAPS), ["f1", "f3", "f4", "f5"])
    f1 = np.zeros(10)
    f1[[3, 4, 5, 6]] = 0.25
    assert np.array_equal(vectors["f1"], f1)
    f3 = np.zeros((10, 10))
    f3[3, 4] = f3[4, 5] = f3[5, 6] = 0.25  # f1_i * P_ij; ":" has no successor
    assert np.array_equal(vectors["f3"], f3.ravel())
    f4 = np.zeros(200)
    f4[3 + 4 + 5] = 1.0  # one sentence ended by "." after 12 words from the excerpt's start
    assert np.array_equal(vectors["f4"], f4)
    f5 = np.zeros(40)
    f5[[3, 4, 5, 6]] = 0.25
    assert np.array_equal(vectors["f5"], f5)
    assert set(EXCERPT_FEATURES) >= {"f1", "f2", "f3", "f4", "f5", "f6", "f7"}


def _documents(docs):
    return lambda i: Document(1000 + i, *docs[i])


def test_excerpts_do_not_depend_on_document_order():
    rng = np.random.default_rng(3)
    docs = [(rng.integers(0, 10, size=n), rng.integers(0, 9, size=n)) for n in (30, 12, 50)]
    forward = excerpt_matrices(_documents(docs), [0, 1, 2], ["8", "20", WHOLE], ["f1"], seed=2, role="test")
    backward = excerpt_matrices(_documents(docs), [2, 1, 0], ["20", WHOLE, "8"], ["f1"], seed=2, role="test")
    key = ["book_id", "length"]
    a = pd.DataFrame(forward.records).sort_values(key).reset_index(drop=True)
    b = pd.DataFrame(backward.records).sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    assert np.array_equal(forward.features["20"]["f1"], backward.features["20"]["f1"][::-1])
    assert forward.complete["20"].tolist() == [True, False, True]
    for (marks, gaps), i in zip(docs, [0, 1, 2], strict=True):
        start = a[(a["book_id"] == 1000 + i) & (a["length"] == "8")]["start"].item()
        assert np.array_equal(forward.features["8"]["f1"][i], compute_feature("f1", marks[start : start + 8], gaps[:8]))


def _corpus(n_classes=3, per_class=10, seed=0, short=()):
    """Documents whose classes differ in their mark distribution; ``short``: indices cut to 30 marks."""
    rng = np.random.default_rng(seed)
    profiles = rng.dirichlet(np.full(10, 0.3), size=n_classes)
    labels = np.repeat([f"author{c}" for c in range(n_classes)], per_class)
    order = rng.permutation(labels.size)
    labels = labels[order]
    docs = []
    for i, label in enumerate(labels):
        n = 30 if i in short else 800
        c = int(label[-1])
        docs.append((rng.choice(10, size=n, p=profiles[c]), rng.poisson(3 + 2 * c, size=n)))
    return docs, labels


def test_the_split_is_the_recognition_grids():
    features, labels = feature_dict(6, 9, seed=4)
    for n_classes, seed in [(3, 0), (3, 1), (6, 2)]:
        (experiment,) = recognition_experiments(
            features,
            labels,
            task="author",
            class_sizes=[n_classes],
            seeds=[seed],
            methods={"kl": ["f1"]},
            test_fraction=0.2,
        )
        split = row_split(labels, n_classes, seed, "author", 0.2)
        assert np.array_equal(split.train_index, experiment.train_index)
        assert np.array_equal(split.test_index, experiment.test_index)
        # and the row itself uses it
        docs = [(np.zeros(5, dtype=int), np.ones(5, dtype=int))] * labels.size
        row = length_curve_row(
            _documents(docs),
            labels,
            task="author",
            n_classes=n_classes,
            seed=seed,
            test_fraction=0.2,
            lengths=[4],
            methods={"kl": ["f1"]},
            training=["whole"],
        )
        assert np.array_equal(row.split.test_index, experiment.test_index)
        test_ids = row.excerpts[row.excerpts["role"] == "test"]["book_id"].unique()
        assert sorted(test_ids) == sorted(1000 + experiment.test_index)


def test_row_results_kl_whole_and_excerpt_training():
    docs, labels = _corpus(short={0})
    row = length_curve_row(
        _documents(docs),
        labels,
        task="author",
        n_classes=3,
        seed=0,
        test_fraction=0.2,
        lengths=[50, 400],
        methods={"kl": ["f1"]},
        training=["whole", "excerpt"],
    )
    results = row.results
    assert list(results.columns) == RESULT_COLUMNS and list(row.excerpts.columns) == EXCERPT_COLUMNS
    # whole training at 50, 400, whole; excerpt training at 50, 400 (its "whole" is the same experiment)
    assert list(zip(results["training"], results["length"], strict=True)) == [
        ("whole", "50"),
        ("whole", "400"),
        ("whole", WHOLE),
        ("excerpt", "50"),
        ("excerpt", "400"),
    ]
    n_test = row.split.test_index.size
    assert (results["n_test"] == n_test).all() and n_test == 6
    short_in_test = int(0 in row.split.test_index)
    short_in_train = int(0 in row.split.train_index)
    assert results.loc[results["length"] == "400", "n_short_test"].tolist() == [short_in_test] * 2
    assert (
        results.loc[results["training"] == "excerpt"].set_index("length").at["400", "n_short_train"] == short_in_train
    )
    assert results.loc[results["length"] == WHOLE, "accuracy"].item() == 1.0  # 800 marks: well separated
    assert results["baseline"].round(6).eq(round(1 / 3, 6)).all()  # 8 training documents per class


def test_exclude_rule_leaves_short_test_documents_out():
    docs, labels = _corpus(short=set(range(30)[::3]))
    common = dict(
        task="author",
        n_classes=3,
        seed=1,
        test_fraction=0.2,
        lengths=[50],
        methods={"kl": ["f3"]},
        training=["whole", "excerpt"],
    )
    kept = length_curve_row(_documents(docs), labels, short_documents="whole", **common).results
    excluded = length_curve_row(_documents(docs), labels, short_documents="exclude", **common).results
    for mode in ("whole", "excerpt"):
        at_50 = excluded[(excluded["training"] == mode) & (excluded["length"] == "50")].iloc[0]
        kept_50 = kept[(kept["training"] == mode) & (kept["length"] == "50")].iloc[0]
        assert at_50["n_test"] == kept_50["n_test"] - kept_50["n_short_test"]
        assert at_50["n_short_test"] == kept_50["n_short_test"] > 0
    excerpt = excluded[excluded["training"] == "excerpt"].iloc[0]
    assert excerpt["n_train"] == 24 - excerpt["n_short_train"]


def test_mlp_through_the_registry():
    from tests.unit.recognition_data import mlp_params

    docs, labels = _corpus(per_class=6)
    options = {"mlp": {"params": mlp_params(hidden=8, max_epochs=3), "num_threads": 1}}
    row = length_curve_row(
        _documents(docs),
        labels,
        task="author",
        n_classes=3,
        seed=0,
        test_fraction=0.2,
        lengths=[100],
        methods={"mlp": ["f1+f5"]},
        training=["whole", "excerpt"],
        classifier_options=options,
    )
    assert row.results["epochs"].between(1, 3).all() and row.results["accuracy"].between(0, 1).all()


def test_bad_methods_fail_in_one_line():
    with pytest.raises(ValueError, match="unknown classifier"):
        check_methods({"svm": ["f1"]})
    with pytest.raises(ValueError, match="one distribution feature"):
        check_methods({"kl": ["f6"]})
    with pytest.raises(ValueError, match="bad feature set"):
        check_methods({"mlp": ["f9"]})


def test_summary_and_median_words_by_hand():
    results = pd.DataFrame(
        {
            "task": "author",
            "n_classes": 10,
            "seed": [0, 1, 0, 1],
            "method": "kl",
            "feature_set": "f3",
            "training": "whole",
            "length": ["50", "50", WHOLE, WHOLE],
            "n_train": 8,
            "n_test": 2,
            "n_short_train": 0,
            "n_short_test": [1, 0, 0, 0],
            "accuracy": [0.5, 1.0, 1.0, 1.0],
            "baseline": [0.1, 0.1, 0.1, 0.1],
            "n_fallback": 0,
            "epochs": 0,
        }
    )
    excerpts = pd.DataFrame(
        {
            "n_classes": 10,
            "seed": 0,
            "length": ["50", "50", "50", "50", WHOLE],
            "book_id": [1, 2, 3, 4, 1],
            "role": ["test", "test", "test", "train", "test"],
            "start": 0,
            "n_marks": 50,
            "n_words": [400, 500, 90, 10, 2000],
            "complete": [True, True, False, True, True],
        }
    )
    assert median_words(excerpts).to_dict() == {"50": 450.0, WHOLE: 2000.0}
    summary = summarise(results, excerpts)
    # a second class size capped to the same 10 authors: the same rows, counted once
    assert summary.equals(summarise(pd.concat([results, results]), pd.concat([excerpts, excerpts])))
    assert summary["length"].tolist() == ["50", WHOLE]
    assert summary["accuracy_mean"].tolist() == [0.75, 1.0]
    assert summary["accuracy_sd"].round(6).tolist() == [round(np.sqrt(0.125), 6), 0.0]
    assert summary["n_short_test"].tolist() == [0.5, 0.0] and summary["median_words"].tolist() == [450.0, 2000.0]
    markdown = summary_markdown(summary, display=str.upper)
    assert "| KL | f3 | whole | 0.750 ± 0.354 | 1.000 ± 0.000 |" in markdown
    assert markdown.endswith("Chance level: the proportional random classifier.\n")
    assert "| chance level | | | 0.100 | 0.100 |" in markdown and "| median words | | | 450 | 2,000 |" in markdown


def _summary_two_sizes():
    rows = []
    for n_classes in (10, 50):
        for seed, acc in ((0, 0.4), (1, 0.6)):
            for method, feature_set, mode in (
                ("kl", "f3", "whole"),
                ("mlp", "all", "whole"),
                ("mlp", "all", "excerpt"),
                ("delta", "words100", "whole"),
                ("delta", "words100", "excerpt"),
            ):
                for length in ("50", "100", WHOLE):
                    if mode == "excerpt" and length == WHOLE:
                        continue
                    rows.append(
                        {
                            "task": "author",
                            "n_classes": n_classes,
                            "seed": seed,
                            "method": method,
                            "feature_set": feature_set,
                            "training": mode,
                            "length": length,
                            "n_train": 8,
                            "n_test": 2,
                            "n_short_train": 0,
                            "n_short_test": 0,
                            "accuracy": acc + (0.2 if method == "delta" else 0.0),
                            "baseline": 1 / n_classes,
                            "n_fallback": 0,
                            "epochs": 0,
                        }
                    )
    excerpts = pd.DataFrame(
        {
            "n_classes": 10,
            "seed": 0,
            "length": ["50", "100", WHOLE],
            "book_id": 1,
            "role": "test",
            "start": 0,
            "n_marks": [50, 100, 900],
            "n_words": [450, 900, 8100],
            "complete": True,
        }
    )
    return summarise(pd.DataFrame(rows, columns=RESULT_COLUMNS), excerpts)


def test_length_curve_figure(tmp_path):
    from punctstyle.report.plots.base import save_figure
    from punctstyle.report.plots.length import WORD_COLOURS, plot_length_curve, tick_label, whole_position

    summary = _summary_two_sizes()
    assert summary[summary["n_classes"] == 10]["training"].tolist()[-2:] == ["excerpt", "excerpt"]  # whole first
    fig = plot_length_curve(summary, str.upper, "accuracy against length")
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == [
        "10 authors, trained on whole documents",
        "50 authors, trained on whole documents",
        "10 authors, trained on excerpts of n marks",
        "50 authors, trained on excerpts of n marks",
    ]
    whole_row, excerpt_row = panels[0], panels[2]
    assert [t.get_text() for t in whole_row.get_xticklabels()] == ["50\n450", "100\n900", "whole\n8.1k"]
    assert list(whole_row.get_xticks()) == [50, 100, whole_position([50, 100])] and whole_position([50, 100]) == 200
    chance = [line for line in whole_row.lines if line.get_label() == "chance level"]
    assert len(chance) == 1 and list(chance[0].get_ydata()) == pytest.approx([0.1, 0.1])
    # trained on whole documents: KL, the network and Delta; on excerpts: the network and Delta
    for ax, expected in (
        (whole_row, ["KL, f3", "MLP, all", "DELTA, 100 words"]),
        (excerpt_row, ["MLP, all", "DELTA, 100 words"]),
    ):
        curves = [line for line in ax.lines if line.get_label() != "chance level" and len(line.get_xdata()) == 2]
        assert [line.get_label() for line in curves] == expected
        for line in curves:
            assert list(line.get_xdata()) == [50.0, 100.0]
            assert list(line.get_ydata()) == pytest.approx(
                [0.7] * 2 if line.get_label().startswith("DELTA") else [0.5] * 2
            )
        delta = curves[-1]
        assert delta.get_linestyle() == "--" and delta.get_color() == WORD_COLOURS[0] and delta.get_marker() == "s"
        assert {line.get_linestyle() for line in curves[:-1]} == {"-"}
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["KL, f3", "MLP, all", "DELTA, 100 words", "chance level"]
    assert tick_label(12800, 103_456.0) == "12800\n103k" and tick_label(50, float("nan")) == "50"
    save_figure(fig, tmp_path / "curve.png", tmp_path / "curve.pdf")
    assert (tmp_path / "curve.png").stat().st_size > 5000 and (tmp_path / "curve.pdf").is_file()


class RecordingCentroid:
    """A test classifier: nearest class mean (Euclidean); records what each instance was fitted on."""

    fits: list[tuple[tuple[str, ...], np.ndarray]] = []

    def __init__(self, *, seed, feature_set):
        self.feature_set = feature_set

    def fit(self, X, y):
        RecordingCentroid.fits.append((self.feature_set, np.asarray(X)))
        self.classes = np.unique(y)
        self.means = np.vstack([X[np.asarray(y) == c].mean(axis=0) for c in self.classes])

    def predict(self, X):
        return self.classes[np.argmin(((X[:, None, :] - self.means[None]) ** 2).sum(axis=2), axis=1)]


def test_a_word_method_is_added_by_registry_entries(monkeypatch):
    """The documented extension point: a registered classifier and an EXCERPT_FEATURES entry
    that reads a per-word stream of the document between the excerpt's word positions."""
    from punctstyle import classifiers
    from punctstyle.training import length_features

    spec = classifiers.ClassifierSpec("recording centroid", f"{__name__}:RecordingCentroid")
    monkeypatch.setitem(classifiers.CLASSIFIERS, "centroid", spec)
    monkeypatch.setitem(
        length_features.EXCERPT_FEATURES,
        "words",
        lambda excerpt, doc: (
            np.bincount(doc.streams["words"][excerpt.word_start : excerpt.word_stop], minlength=2)
            / max(excerpt.n_words, 1)
        ),
    )
    monkeypatch.setattr(RecordingCentroid, "fits", [])
    labels = np.repeat(["a", "b"], 5)

    def document(i):
        gaps = np.full(40, 2)  # 80 words: author a writes word 0, author b word 1
        words = np.full(80, 0 if labels[i] == "a" else 1)
        return Document(i, np.zeros(40, dtype=int), gaps, {"words": words})

    row = length_curve_row(
        document,
        labels,
        task="author",
        n_classes=2,
        seed=0,
        test_fraction=0.2,
        lengths=[4, 8],
        methods={"centroid": ["words"]},
        training=["whole", "excerpt"],
    )
    assert row.results["accuracy"].tolist() == [1.0] * 5
    # one fit on whole documents, then one per length on excerpts; 8 training documents each
    assert [X.shape for _, X in RecordingCentroid.fits] == [(8, 2)] * 3
    assert {names for names, _ in RecordingCentroid.fits} == {("words",)}
    test = row.excerpts[(row.excerpts["role"] == "test") & (row.excerpts["length"] == "4")]
    assert (test["n_words"] == 8).all() and (test["n_marks"] == 4).all()


def test_excerpts_of_one_text_stay_on_one_side_and_refuse_word_features():
    """With documents cut from texts (extraction.excerpt_marks), the row's split is the grouped
    one of the recognition grid, and the word sets (whole-text counts) are refused."""
    docs, labels = _corpus(n_classes=3, per_class=12, seed=5)
    groups = np.array([f"{label}-text{i % 4}" for i, label in enumerate(labels)], dtype=object)
    for seed in range(4):
        row = length_curve_row(
            _documents(docs),
            labels,
            task="author",
            n_classes=3,
            seed=seed,
            test_fraction=0.25,
            lengths=[50],
            methods={"kl": ["f1"]},
            training=["whole"],
            groups=groups,
        )
        expected = row_split(labels, 3, seed, "author", 0.25, groups)
        assert np.array_equal(row.split.test_index, expected.test_index)
        assert not set(groups[row.split.train_index]) & set(groups[row.split.test_index])
        tested = set(groups[row.split.test_index])
        assert tested and set(np.flatnonzero(np.isin(groups, list(tested)))) == set(row.split.test_index)
    with pytest.raises(ValueError, match="whole documents"):
        length_curve_row(
            _documents(docs),
            labels,
            task="author",
            n_classes=3,
            seed=0,
            test_fraction=0.25,
            lengths=[50],
            methods={"delta": ["words100"]},
            training=["whole"],
            groups=groups,
        )
