"""Tests of punctstyle.attribution.attribute (author ranking for one text, MLP versus KL) and
punctstyle.attribution.length (minimum marks for attribution)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.attribution import attribute as att
from punctstyle.attribution import length as length
from punctstyle.classifiers.mlp import MLPParams, train_mlp
from punctstyle.featuresets import stack_features
from punctstyle.divergence import pairwise_kl
from punctstyle.features import compute_features
from punctstyle.marks import N_MARKS, feature_column_names

AUTHORS = ("Austen", "Dickens", "Eliot", "Hardy")


def author_chains(seed: int, concentration: float) -> np.ndarray:
    """One 10x10 Markov transition matrix of marks per author (rows ~ Dirichlet(concentration))."""
    rng = np.random.default_rng(seed)
    chains = rng.dirichlet(np.full(N_MARKS, concentration), size=(len(AUTHORS), N_MARKS))
    return (chains + 1e-3) / (chains + 1e-3).sum(axis=2, keepdims=True)


def sample_books(
    chains: np.ndarray, author: int, n_books: int, length: int, rng
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n_books`` (marks, gaps) sequences of one author, vectorised over books."""
    cumulative = np.cumsum(chains[author], axis=1)
    marks = np.empty((n_books, length), dtype=np.uint8)
    marks[:, 0] = rng.integers(N_MARKS, size=n_books)
    draws = rng.random((n_books, length))
    for step in range(1, length):
        rows = cumulative[marks[:, step - 1]]
        marks[:, step] = np.minimum((rows < draws[:, step, None]).sum(axis=1), N_MARKS - 1)
    gaps = rng.poisson(4 + 2 * author, size=(n_books, length))
    return [(marks[b], gaps[b]) for b in range(n_books)]


def corpus(n_books: int, length: int, seed: int, concentration: float = 0.3):
    """Books of the four authors; a larger concentration makes the authors more alike."""
    rng = np.random.default_rng(seed)
    chains = author_chains(seed, concentration)
    books, labels = [], []
    for a, name in enumerate(AUTHORS):
        books += sample_books(chains, a, n_books, length, rng)
        labels += [name] * n_books
    return chains, books, np.array(labels, dtype=object)


def feature_arrays(books) -> dict[str, np.ndarray]:
    rows = [compute_features(m, g) for m, g in books]
    return {name: np.vstack([r[name] for r in rows]) for name in rows[0]}


@pytest.fixture(scope="module")
def trained():
    chains, books, labels = corpus(n_books=25, length=400, seed=0)
    features = feature_arrays(books)
    model = train_mlp(
        stack_features(features, "f3"),
        labels,
        params=MLPParams(hidden=32, learning_rate=1e-3, batch_size=200, max_epochs=40, patience=5,
                         stopping="validation", tolerance=0.0, validation_fraction=0.1, adam="foreach"),
        seed=0,
        feature_set=("f3",),
        num_threads=1,
    )
    signatures = att.author_signatures(features, labels, ("f3", "f1"))
    return chains, model, signatures


def test_author_signatures_are_class_means():
    features = {"f1": np.array([[1.0] + [0.0] * 9, [0.0, 1.0] + [0.0] * 8, [0.5, 0.5] + [0.0] * 8])}
    table = att.author_signatures(features, ["b", "a", "b"], feature_names=("f1",))
    assert list(table.index) == ["a", "b"] and table.index.name == "author"
    assert list(table.columns) == feature_column_names("f1")
    np.testing.assert_allclose(table.loc["b", "f1[!]"], 0.75)
    np.testing.assert_allclose(table.loc["a", 'f1["]'], 1.0)


def test_signature_matrix_accepts_tables_and_dicts():
    table = pd.DataFrame([[0.5] * 10, [0.1] * 10], columns=feature_column_names("f1"), index=["x", "y"])
    authors, S = att.signature_matrix(table, "f1")
    assert list(authors) == ["x", "y"] and S.shape == (2, 10)
    authors, S2 = att.signature_matrix({"f1": {"x": np.full(10, 0.5), "y": np.full(10, 0.1)}}, "f1")
    np.testing.assert_array_equal(S, S2)
    authors, S3 = att.signature_matrix(table.reset_index(names="author"), "f1")
    assert list(authors) == ["x", "y"]
    np.testing.assert_array_equal(S, S3)
    with pytest.raises(KeyError):
        att.signature_matrix(table, "f3")


@pytest.mark.parametrize("author", range(len(AUTHORS)))
def test_rank_authors_puts_the_true_author_first(trained, author):
    chains, model, signatures = trained
    ((marks, gaps),) = sample_books(chains, author, 1, 2000, np.random.default_rng(100 + author))
    text = compute_features(marks, gaps)
    ranking = att.rank_authors(text, model, signatures, kl_features=("f3", "f1"), top=None)
    assert list(ranking.columns) == ["rank", "author", "probability", "kl_f3", "kl_f1"]
    assert list(ranking["rank"]) == [1, 2, 3, 4]
    assert ranking["author"].iloc[0] == AUTHORS[author]
    assert ranking["probability"].is_monotonic_decreasing
    assert ranking["probability"].sum() == pytest.approx(1.0, rel=1e-5)
    assert ranking.loc[ranking["kl_f3"].idxmin(), "author"] == AUTHORS[author]


def test_rank_authors_divergence_is_signature_first(trained):
    chains, model, signatures = trained
    ((marks, gaps),) = sample_books(chains, 1, 1, 300, np.random.default_rng(7))
    text = compute_features(marks, gaps)
    ranking = att.rank_authors(text, model, signatures, kl_features=("f3", "f1"), top=2).set_index("author")
    assert len(ranking) == 2
    _, S = att.signature_matrix(signatures, "f3")
    expected = pd.Series(pairwise_kl(S, text["f3"][None, :])[:, 0], index=list(signatures.index))
    reverse = pd.Series(pairwise_kl(text["f3"][None, :], S)[0], index=list(signatures.index))
    for name in ranking.index:
        assert ranking.loc[name, "kl_f3"] == pytest.approx(expected[name])
        assert ranking.loc[name, "kl_f3"] != pytest.approx(reverse[name])


def test_rank_authors_without_model_sorts_by_kl(trained):
    chains, _, signatures = trained
    ((marks, gaps),) = sample_books(chains, 2, 1, 1500, np.random.default_rng(8))
    ranking = att.rank_authors(compute_features(marks, gaps), None, signatures, kl_features=("f3",), top=3)
    assert ranking["probability"].isna().all()
    assert ranking["kl_f3"].is_monotonic_increasing
    assert ranking["author"].iloc[0] == AUTHORS[2]
    with pytest.raises(ValueError):
        att.rank_authors(compute_features(marks, gaps), None, None, kl_features=("f3",), top=3)


def test_truncate_sequence_keeps_marks_and_gaps_aligned():
    marks, gaps = np.arange(10, dtype=np.uint8), np.arange(100, 110)
    m, g = length.truncate_sequence(marks, gaps, 4)
    assert list(m) == [0, 1, 2, 3] and list(g) == [100, 101, 102, 103]
    m, g = length.truncate_sequence(marks, gaps, 50)
    assert m.size == g.size == 10


def test_minimum_marks_for_attribution_finds_a_threshold():
    _, books, labels = corpus(n_books=10, length=3000, seed=1, concentration=4.0)
    result = length.minimum_marks_for_attribution(
        books, labels, compute_features, grid=(5, 20, 100, 500, 3000), fraction=0.9, feature="f3",
        test_fraction=0.2, seed=0,
    )
    curve = result.curve
    assert list(curve["n_marks"]) == [5, 20, 100, 500, 3000]
    assert (curve["n_test"] == 8).all()  # round(0.2 * 10) = 2 test books per author
    assert list(curve["n_truncated"]) == [8, 8, 8, 8, 0]
    assert result.full_accuracy > 0.9
    assert curve["accuracy"].iloc[-1] == pytest.approx(result.full_accuracy)  # 3000 = full length
    assert curve["accuracy"].iloc[0] < 0.5  # 5 marks are not enough
    assert result.target_accuracy == pytest.approx(0.9 * result.full_accuracy)
    assert result.n_min in (20, 100, 500)
    reached = curve.loc[curve["n_marks"] == result.n_min, "accuracy"].iloc[0]
    assert reached >= result.target_accuracy
    assert (curve.loc[curve["n_marks"] < result.n_min, "accuracy"] < result.target_accuracy).all()
    again = length.minimum_marks_for_attribution(
        books, labels, compute_features, grid=(5, 20, 100, 500, 3000), fraction=0.9, feature="f3",
        test_fraction=0.2, seed=0,
    )
    pd.testing.assert_frame_equal(curve, again.curve)


def test_minimum_marks_passes_truncated_sequences_to_the_features_function():
    seen = []

    def fake_features(marks, gaps):
        assert len(marks) == len(gaps)
        seen.append(len(marks))
        counts = np.bincount(np.asarray(marks, dtype=np.int64), minlength=N_MARKS) + 1.0
        return {"f1": counts / counts.sum()}

    rng = np.random.default_rng(0)
    books = [
        (rng.integers(0, N_MARKS, size=50).astype(np.uint8), rng.integers(0, 9, size=50)) for _ in range(15)
    ]
    labels = ["a"] * 5 + ["b"] * 5 + ["c"] * 5
    options = {"grid": (10, 30), "fraction": 0.5, "feature": "f1", "test_fraction": 0.2, "seed": 0}
    result = length.minimum_marks_for_attribution(books, labels, fake_features, **options)
    # 12 training books at full length, 3 test books at full length, then at 10 and 30 marks
    assert sorted(seen) == sorted([50] * 12 + [50] * 3 + [10] * 3 + [30] * 3)
    assert result.feature == "f1" and len(result.curve) == 2
    with pytest.raises(ValueError):
        length.minimum_marks_for_attribution(books, labels[:-1], fake_features, **options)


# --------------------------------------------------------------------------- MLP versus KL


def ranking_of(probabilities: dict[str, float], divergences: dict[str, float]) -> pd.DataFrame:
    authors = list(probabilities)
    return pd.DataFrame(
        {"rank": range(1, len(authors) + 1), "author": authors,
         "probability": [probabilities[a] for a in authors], "kl_f3": [divergences[a] for a in authors]}
    )


def curve(accuracies: dict[int, float]) -> list[dict]:
    return [{"n_marks": n, "accuracy": a} for n, a in accuracies.items()]


def test_nearest_measured_length():
    grid = [50, 100, 200, 400]
    assert att.nearest_measured_length(grid, 10) == 50
    assert att.nearest_measured_length(grid, 140) == 100
    assert att.nearest_measured_length(grid, 150) == 100  # a tie goes to the shorter length
    assert att.nearest_measured_length(grid, 10_000) == 400
    with pytest.raises(ValueError):
        att.nearest_measured_length([], 10)


def test_method_disagreement_trusts_the_more_accurate_method_at_the_nearest_length():
    ranking = ranking_of({"A": 0.7, "B": 0.2, "C": 0.1}, {"A": 0.5, "B": 0.1, "C": np.nan})
    mlp = curve({100: 0.3, 400: 0.8})
    kl = curve({100: 0.6, 400: 0.5})
    short = att.method_disagreement(ranking, "f3", 120, mlp, kl)
    assert (short.mlp_author, short.kl_author, short.measured_at) == ("A", "B", 100)
    assert (short.mlp_accuracy, short.kl_accuracy, short.trusted) == (0.3, 0.6, "kl")
    assert short.message().endswith("trust KL f3")
    long = att.method_disagreement(ranking, "f3", 1000, mlp, kl)
    assert long.measured_at == 400 and long.trusted == "mlp" and long.message().endswith("trust the MLP")
    assert set(long.as_json()) >= {"mlp_author", "kl_author", "measured_at", "trusted", "message"}


def test_method_disagreement_none_when_they_agree_and_no_curve_means_no_verdict():
    agree = ranking_of({"A": 0.7, "B": 0.3}, {"A": 0.1, "B": 0.5})
    assert att.method_disagreement(agree, "f3", 100, curve({100: 0.5}), curve({100: 0.4})) is None
    differ = ranking_of({"A": 0.7, "B": 0.3}, {"A": 0.9, "B": 0.5})
    unknown = att.method_disagreement(differ, "f3", 100, [], curve({100: 0.4}))
    assert unknown.trusted is None and unknown.measured_at is None
    assert "no measured accuracy curve" in unknown.message()
    tie = att.method_disagreement(differ, "f3", 100, curve({100: 0.4}), curve({100: 0.4}))
    assert tie.trusted is None and tie.message().endswith("neither is more reliable")


# --------------------------------------------------------------------------- excerpts of texts


def test_the_sequence_reader_gives_each_excerpt_its_slice_of_the_text(tmp_path):
    from punctstyle.corpus.sequences import SequenceFiles, document_sequences
    from punctstyle.book.sequence_file import write_sequence
    from punctstyle.text.extract import PunctuationSequence
    from punctstyle.io import InputError

    texts = {}
    for text_id, n in ((41, 10), (7, 6)):
        marks = (np.arange(n) % N_MARKS).astype(np.uint8)
        gaps = np.arange(100 * text_id, 100 * text_id + n, dtype=np.uint32)
        texts[text_id] = (marks, gaps)
        write_sequence(tmp_path / f"{text_id}.parquet", text_id, PunctuationSequence(marks, gaps))
    paths = [str(tmp_path / "7.parquet"), str(tmp_path / "41.parquet")]
    table = pd.DataFrame({"book_id": [900, 901, 902, 903], "source_id": [7, 41, 41, 41], "excerpt": [0, 0, 1, 2],
                          "first_mark": [0, 0, 3, 6], "stop_mark": [3, 3, 6, 9]})
    documents = document_sequences(paths, table, [902, 900, 903])
    assert len(documents) == 3
    for k, (text_id, first, stop) in enumerate(((41, 3, 6), (7, 0, 3), (41, 6, 9))):
        marks, gaps = documents[k]
        assert marks.tolist() == texts[text_id][0][first:stop].tolist()
        assert gaps.tolist() == texts[text_id][1][first:stop].tolist()
    assert [documents[i][1][0] for i in range(3)] == [4103, 700, 4106]  # in the order asked
    gaps41 = texts[41][1].astype(int)
    assert documents.word_span(0) == (gaps41[:3].sum(), gaps41[:6].sum())  # its words in the text's stream
    assert len(document_sequences(paths, table)) == 4  # default: the table's rows
    whole = document_sequences(paths, pd.DataFrame({"book_id": [41, 7]}))  # whole texts: the files
    assert whole[0][0].size == 10 and whole[1][0].size == 6 and whole.word_span(0) is None
    with pytest.raises(InputError, match="no corpus row for 1 documents, e.g. document 5"):
        document_sequences(paths, table, [900, 5])
    with pytest.raises(InputError, match="no sequence file for 1 corpus books, e.g. book 41"):
        document_sequences(paths[:1], table, [901])
    beyond = SequenceFiles([paths[0]], [(3, 8)])  # 7.parquet has 6 marks
    with pytest.raises(InputError, match="6 marks, the excerpt needs marks \\[3, 8\\)"):
        beyond[0]


def test_the_length_measurements_hold_out_whole_texts():
    _, books, labels = corpus(n_books=12, length=300, seed=3, concentration=4.0)
    groups = np.arange(len(books)) // 3  # 3 excerpts a text: 4 texts an author
    train, test = length.attribution_split(labels, 0.25, 0, groups)
    assert test.size == 4 * 3 and not set(groups[train]) & set(groups[test])  # one text an author
    record = length.threshold_record(books, labels, grid=(20, 300), fraction=0.5, features=("f1",),
                                     test_fraction=0.25, seed=0, groups=groups)
    assert (record["n_books"], record["n_texts"]) == (48, 16)
    assert [row["n_test"] for row in record["curves"]["f1"]["curve"]] == [12, 12]
    alone = length.threshold_record(books, labels, grid=(20,), fraction=0.5, features=("f1",),
                                    test_fraction=0.2, seed=0, groups=np.arange(48) // 12)  # a text an author
    assert alone["min_marks"] is None and "at least 3 books (texts" in alone["note"]


def test_shown_authors_keeps_each_methods_first_author():
    import pandas as pd

    from punctstyle.attribution.attribute import shown_authors

    ranking = pd.DataFrame({
        "rank": [1, 2, 3, 4],
        "author": ["a", "b", "c", "d"],
        "probability": [0.7, 0.2, 0.06, 0.04],
        "kl_f3": [0.5, 0.4, np.nan, 0.1],
        "kl_f1": [np.nan, np.nan, np.nan, np.nan],
    })
    assert list(shown_authors(ranking, 1)["author"]) == ["a", "d"]
    assert list(shown_authors(ranking, 2)["author"]) == ["a", "b", "d"]
    assert list(shown_authors(ranking, 4)["author"]) == ["a", "b", "c", "d"]
    assert list(shown_authors(ranking.assign(kl_f3=[0.1, 0.2, 0.3, 0.4]), 1)["author"]) == ["a"]


def test_a_tie_at_the_texts_length_goes_to_the_better_curve_then_to_punctuation():
    def answer(method: str, curve: dict[int, float]) -> att.MethodAnswer:
        records = [{"n_marks": n, "accuracy": a, "n_test": 30} for n, a in curve.items()]
        return att.method_answer(method, "distance", pd.Series({"A": 0.1, "B": 0.2}), records, 9000, top=2)

    # at 6400 marks (nearest to 9000) both are right on 27 of 30 books; over the curve words lead:
    # MLP (0.4 + 0.8 + 0.9) / 3 = 0.7, words (0.8 + 0.9 + 0.9) / 3 = 0.867
    mlp = answer("mlp", {200: 0.4, 800: 0.8, 6400: 0.9})
    words = answer("delta_words", {200: 0.8, 800: 0.9, 6400: 0.9})
    assert (mlp.accuracy, words.accuracy, mlp.measured_at) == (0.9, 0.9, 6400)
    assert mlp.curve_mean == pytest.approx(0.7) and words.curve_mean == pytest.approx(2.6 / 3)
    assert att.trusted_answer([mlp, words]).method == "delta_words"
    # a higher accuracy at the text's length still wins over a better curve
    better_here = answer("delta_both", {200: 0.1, 800: 0.1, 6400: 0.933})
    assert att.trusted_answer([mlp, words, better_here]).method == "delta_both"
    # the same curve: the earlier in the list, punctuation first
    twin = answer("delta_words", {200: 0.4, 800: 0.8, 6400: 0.9})
    assert att.trusted_answer([mlp, twin]).method == "mlp"
    assert att.curve_mean([]) is None and att.curve_mean([{"n_marks": 50, "accuracy": None}]) is None
    assert mlp.as_json()["curve_mean"] == pytest.approx(0.7)


def test_fold_rounds_hold_each_book_out_once_among_known_authors():
    labels = np.array(["a", "a", "b", "b", "c"], dtype=object)
    rounds = length.fold_rounds(labels, np.array([0, 1, 0, 1, 0]))
    assert [r.fold for r in rounds] == [0, 1]
    assert rounds[0].train.tolist() == [1, 3] and rounds[0].test.tolist() == [0, 2]  # c has no training book
    assert rounds[1].train.tolist() == [0, 2, 4] and rounds[1].test.tolist() == [1, 3]


def test_the_rounds_are_driver_splits_and_a_length_is_a_view_of_their_test_documents():
    from punctstyle.experiments.driver import Split

    labels = np.array(["a", "a", "b", "b", "c"], dtype=object)
    rounds = length.fold_rounds(labels, np.array([0, 1, 0, 1, 0]), seed=7)
    assert all(isinstance(r, Split) for r in rounds)
    assert [(r.task, r.seed, r.n_classes, r.fold) for r in rounds] == [("attribution", 7, 2, 0), ("attribution", 7, 3, 1)]
    assert rounds[1].classes.tolist() == ["a", "b", "c"] and rounds[1].train_index is rounds[1].train
    points = length.cut_points(rounds[0], [5, 10], lambda n: {"cut": n})
    assert [views["cut"] for _, views in points] == [None, 5, 10]  # whole, then each length
    assert len({id(split) for split, _ in points}) == 3  # a split object a point (driver.run_points)
    assert all(split.test.tolist() == [0, 2] and split.fold == 0 for split, _ in points)
    (single,) = length.held_out_rounds(np.repeat(["a", "b"], 5), 0.2, 3)
    assert (single.fold, single.seed, single.test.size) == (0, 3, 2)


def test_the_kl_curve_fits_each_rounds_signatures_once(monkeypatch):
    from punctstyle.attribution.calibration import text_folds
    from punctstyle.classifiers import kl_nearest

    fits = []
    fit = kl_nearest.KLNearestClass.fit
    monkeypatch.setattr(kl_nearest.KLNearestClass, "fit", lambda self, X, y: fits.append(len(y)) or fit(self, X, y))
    _, books, labels = corpus(n_books=5, length=400, seed=2, concentration=4.0)
    folds = text_folds(labels, None, 5, np.random.default_rng(0))
    length.minimum_marks_for_attribution(books, labels, compute_features, grid=(20, 50, 100), fraction=0.9,
                                         feature="f3", test_fraction=0.2, seed=0, folds=folds)
    assert fits == [16] * 5  # one fit a fold (the other 4 folds' 16 books), scored at 4 lengths


def test_the_cross_fitted_kl_curve_pools_the_rounds_counts():
    from punctstyle.attribution.calibration import text_folds
    from punctstyle.classifiers.kl_nearest import class_signatures, kl_nearest

    _, books, labels = corpus(n_books=5, length=400, seed=2, concentration=4.0)
    folds = text_folds(labels, None, 5, np.random.default_rng(0))
    result = length.minimum_marks_for_attribution(books, labels, compute_features, grid=(20, 100), fraction=0.9,
                                                  feature="f3", test_fraction=0.2, seed=0, folds=folds)
    right = np.zeros(3, dtype=np.int64)  # by hand: whole, 20, 100 marks
    for k in range(5):
        train, test = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
        classes, signatures, _ = class_signatures(np.vstack([compute_features(*books[i])["f3"] for i in train]),
                                                  labels[train])
        for j, n in enumerate((400, 20, 100)):
            rows = np.vstack([compute_features(*length.truncate_sequence(*books[i], n))["f3"] for i in test])
            right[j] += int(np.sum(classes[kl_nearest(signatures, rows, 0)[0]] == labels[test]))
    assert result.full_right == right[0] and result.full_accuracy == right[0] / 20
    assert result.curve["n_test"].tolist() == [20, 20] and result.curve["n_right"].tolist() == right[1:].tolist()
    assert result.curve["accuracy"].tolist() == (right[1:] / 20).tolist()
