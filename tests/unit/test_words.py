"""Word counts (extraction side), the corpus word matrix, the training-only vocabulary and the
word baselines of the recognition grid (issue 12)."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp

from punctstyle.book.steps import extract_book
from punctstyle.book.sequence_file import (
    ranked_word_ids,
    read_sequence,
    read_word_stream,
    read_words,
    words_file_has_stream,
    write_words,
)
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.extract import word_key, words_with_spacy
from punctstyle.featuresets import expand_word_sets, feature_set_label, word_set_parts
from punctstyle.io import InputError
from punctstyle.analyses.recognition import recognition_experiments, word_experiments, word_results_frame
from punctstyle.experiments.splits import row_split
from punctstyle.corpus.words import (
    book_pool,
    build_word_matrix,
    read_word_matrix,
    relative_frequencies,
    select_vocabulary,
    write_word_matrix,
)

TRICKY = [
    "\"Don't!\" said Mr. Smith's well-known dog; it's 1885 -- (the U.S.A.) ... I. O'Brien",
    "She cannot go, 'em all: he's gonna win :) ;) e.g. won't WON'T The THE the",
    "Alice's Half-Way-House, WORD. I.  ' ''x  he's e-mail: a@b.com http://x.org 3.5% $10",
    "co-op's \"Hi,\" she said... 'Tis 'twas y'all Ma'am -- 2nd! No. 7; St. Paul's, 1,000 men",
    "(a) [b] {c} x/y a.m. p.m. Ph.D. U.K.'s -- l'amour naïve Ångström — end.",
]


@pytest.fixture(scope="module")
def extractor():
    return ChunkCachedExtractor()


@pytest.mark.parametrize("text", TRICKY)
def test_word_counts_equal_spacy_tokens(extractor, text):
    sequence, counts = extractor.extract_with_words(text)
    assert counts == words_with_spacy(text)
    assert sum(counts.values()) == sequence.n_words
    assert sequence.n_words == extractor(text).n_words


def test_word_counts_of_a_hand_made_sentence(extractor):
    _, counts = extractor.extract_with_words("The dog's well-known; THE dog don't. Mr. Dog")
    assert counts == Counter({"the": 2, "dog": 3, "'s": 1, "well": 1, "known": 1, "do": 1, "n't": 1, "mr.": 1})
    assert word_key("N'T") == "n't"


def test_word_counts_survive_pieces_and_a_warm_cache():
    text = " ".join(TRICKY * 40)
    cold, cold_counts = ChunkCachedExtractor(piece_chars=300).extract_with_words(text)
    warm_extractor = ChunkCachedExtractor(max_cache=50)
    warm_extractor.extract_with_words(TRICKY[0])
    warm, warm_counts = warm_extractor.extract_with_words(text)
    assert cold_counts == warm_counts == words_with_spacy(text)
    assert np.array_equal(cold.marks, warm.marks)


def test_extract_book_writes_the_words_file(tmp_path):
    text = "Word, word. " * 60 + '"The end," he said.'
    (tmp_path / "1.txt.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "1.json").write_text(json.dumps({"status": "ok", "encoding": "utf-8"}))
    extract_book(
        tmp_path / "1.txt.gz", tmp_path / "1.json", tmp_path / "s.parquet", 1, words_path=tmp_path / "w.parquet"
    )
    words, counts, metadata = read_words(tmp_path / "w.parquet")
    assert words == ["word", "end", "he", "said", "the"] and counts.tolist() == [120, 1, 1, 1, 1]
    assert metadata["n_words"] == "124" == str(read_sequence(tmp_path / "s.parquet")[0].n_words)
    assert read_word_stream(tmp_path / "w.parquet").tolist() == ["word"] * 120 + ["the", "end", "he", "said"]


@pytest.mark.parametrize("piece_chars", [60, 250_000])
def test_the_word_ids_are_the_word_stream(piece_chars):
    text = " ".join(TRICKY * 3)
    extractor = ChunkCachedExtractor(piece_chars=piece_chars, max_cache=30)  # pieces, a renewed cache
    vocabulary: dict[str, int] = {}
    sequence, ids = extractor.extract_with_word_ids(text, vocabulary)
    plain, stream = ChunkCachedExtractor().extract_with_word_stream(text)
    by_id = list(vocabulary)
    assert [by_id[i] for i in ids.tolist()] == stream and ids.size == sequence.n_words
    assert np.array_equal(sequence.marks, plain.marks) and np.array_equal(sequence.gaps, plain.gaps)
    words, counts, ranked = ranked_word_ids(vocabulary, ids)
    assert [words[r] for r in ranked.tolist()] == stream
    assert dict(zip(words, counts.tolist(), strict=True)) == words_with_spacy(text)
    assert counts.tolist() == sorted(counts.tolist(), reverse=True)


def test_the_words_file_keeps_the_stream(tmp_path):
    vocabulary = {"b": 0, "a": 1, "c": 2}
    words, counts, ranked = ranked_word_ids(vocabulary, np.array([0, 2, 1, 2, 0, 2, 1]))
    assert words == ["c", "a", "b"] and counts.tolist() == [3, 2, 2] and ranked.tolist() == [2, 0, 1, 0, 2, 0, 1]
    write_words(tmp_path / "w.parquet", 3, dict(zip(words, counts.tolist())), stream=ranked)
    assert read_word_stream(tmp_path / "w.parquet").tolist() == ["b", "c", "a", "c", "b", "c", "a"]
    assert read_words(tmp_path / "w.parquet")[0] == ["c", "a", "b"] and words_file_has_stream(tmp_path / "w.parquet")
    with pytest.raises(ValueError, match="book 3: the word stream does not match the word counts"):
        write_words(tmp_path / "x.parquet", 3, {"c": 3, "a": 2, "b": 2}, stream=ranked[1:])
    # a stream whose positions do not cover each word once: one line naming the file
    positions = pa.ListArray.from_arrays(pa.array([0, 2, 3], pa.int32()), pa.array([0, 0, 1], pa.uint32()))
    table = pa.table({"word": ["c", "a"], "count": pa.array([2, 1], pa.uint32()), "positions": positions})
    pq.write_table(table.replace_schema_metadata({"book_id": "3"}), tmp_path / "bad.parquet")
    with pytest.raises(InputError, match=r"bad.parquet: column positions does not hold each counted word once"):
        read_word_stream(tmp_path / "bad.parquet")


def test_a_book_not_downloaded_gets_an_empty_words_file(tmp_path):
    (tmp_path / "2.json").write_text(json.dumps({"status": "missing", "reason": "404"}))
    extract_book(
        tmp_path / "2.txt.gz", tmp_path / "2.json", tmp_path / "s.parquet", 2, words_path=tmp_path / "w.parquet"
    )
    words, counts, metadata = read_words(tmp_path / "w.parquet")
    assert words == [] and counts.size == 0 and metadata["status"] == "missing"
    assert read_word_stream(tmp_path / "w.parquet").size == 0


def test_a_broken_words_file_is_one_line(tmp_path):
    (tmp_path / "w.parquet").write_text("no parquet")
    with pytest.raises(InputError, match=r"w.parquet: not a readable words Parquet file"):
        read_words(tmp_path / "w.parquet")


def test_words_file_round_trip_orders_by_count_then_word(tmp_path):
    write_words(tmp_path / "w.parquet", 5, {"b": 2, "a": 2, "c": 7})
    words, counts, metadata = read_words(tmp_path / "w.parquet")
    assert words == ["c", "a", "b"] and counts.tolist() == [7, 2, 2] and metadata["n_words"] == "11"


# ---------------------------------------------------------------- the corpus word matrix


def test_book_pool_keeps_the_top_words_and_the_cutoff():
    kept, counts, cutoff = book_pool(["x", "a", "b", "c"], np.array([1, 5, 3, 3]), 20, 2)
    assert kept.tolist() == ["a", "b"] and counts.tolist() == [5, 3]
    assert cutoff == 3 / 20  # c (3) is left out
    assert book_pool(["a"], np.array([4]), 4, 2)[2] == 0.0


def test_word_matrix_round_trip(tmp_path):
    books = [
        (10, ["the", "cat"], np.array([3, 1]), 4),
        (20, ["the", "dog", "zebra"], np.array([2, 2, 1]), 6),
    ]
    matrix = build_word_matrix(books, pool_per_book=2)
    assert matrix.vocabulary.tolist() == ["cat", "dog", "the"]
    assert matrix.counts.toarray().tolist() == [[1, 0, 3], [0, 2, 2]]
    assert matrix.cutoff.tolist() == [0.0, 1 / 6] and matrix.n_words.tolist() == [4, 6]
    write_word_matrix(tmp_path / "w.npz", matrix)
    back = read_word_matrix(tmp_path / "w.npz")
    assert back.vocabulary.tolist() == ["cat", "dog", "the"] and back.pool_per_book == 2
    assert back.book_ids.tolist() == [10, 20] and back.cutoff.tolist() == [0.0, 1 / 6]
    freqs = back.relative_frequencies([20, 10]).toarray()
    assert np.allclose(freqs, [[0, 2 / 6, 2 / 6], [1 / 4, 0, 3 / 4]])
    with pytest.raises(KeyError, match="book 30 is not in the word matrix"):
        back.rows_of([30])
    (tmp_path / "bad.npz").write_text("x")
    with pytest.raises(InputError, match="bad.npz: not a readable word matrix"):
        read_word_matrix(tmp_path / "bad.npz")


def test_relative_frequencies_leave_empty_books_at_zero():
    assert relative_frequencies(sp.csr_matrix([[0, 0], [1, 3]]), np.array([0, 4])).toarray().tolist() == [
        [0.0, 0.0],
        [0.25, 0.75],
    ]


def test_vocabulary_by_mean_relative_frequency_ties_alphabetical():
    # words a, b, c, d; mean relative frequencies: a 0.25, b 0.25, c 0.5, d 0
    freqs = sp.csr_matrix([[0.5, 0.0, 0.5, 0.0], [0.0, 0.5, 0.5, 0.0]])
    vocabulary = select_vocabulary(freqs, 2, np.array([0.1, 0.1]))
    assert vocabulary.columns.tolist() == [2, 0] and vocabulary.scores.tolist() == [0.5, 0.25]
    assert vocabulary.bound == pytest.approx(0.1) and vocabulary.proven
    assert select_vocabulary(freqs, 2, np.array([0.3, 0.2])).proven is False  # 0.25 <= 0.25
    every = select_vocabulary(freqs, 10)
    assert every.columns.tolist() == [2, 0, 1] and every.proven  # d (score 0) is never chosen
    assert select_vocabulary(freqs, 10, np.array([0.0, 0.1])).proven is False


# ------------------------------------------------------- word sets and the grid rows


def test_word_set_names():
    assert word_set_parts("words100") == (None, 100)
    assert word_set_parts("all+words500") == ("all", 500)
    assert word_set_parts("f1+f3+words7") == ("f1+f3", 7)
    assert word_set_parts("f3") is None
    with pytest.raises(ValueError, match="bad feature set"):
        word_set_parts("f9+words10")
    assert expand_word_sets(["words", "all+words"], [100, 500]) == [
        "words100",
        "words500",
        "all+words100",
        "all+words500",
    ]
    assert feature_set_label("words100") == "100 words"
    assert feature_set_label("f1+f3+words100") == "{f1, f3} + 100 words"


def _word_corpus(n_authors=4, docs=5, seed=0):
    """Authors whose documents favour their own word; the test split adds a leak word."""
    rng = np.random.default_rng(seed)
    labels = np.repeat([f"author{i}" for i in range(n_authors)], docs).astype(object)
    n_docs = labels.size
    counts = rng.integers(5, 10, size=(n_docs, n_authors + 1))
    for i in range(n_authors):
        counts[labels == f"author{i}", i] += 30
    return labels, counts, {"f1": rng.random((n_docs, 10))}


def test_vocabulary_comes_from_the_training_documents_only():
    labels, counts, features = _word_corpus()
    split = row_split(labels, 4, 0, "author", 0.2)
    leak = np.zeros((labels.size, 1), np.int64)
    leak[split.test_index] = 10_000  # the commonest word of the test documents, absent from training
    counts = np.hstack([counts, leak])
    freqs = relative_frequencies(sp.csr_matrix(counts), counts.sum(axis=1))
    assert select_vocabulary(freqs[split.test_index], 1).columns.tolist() == [counts.shape[1] - 1]
    for k in (1, 3, 6):
        chosen = select_vocabulary(freqs[split.train_index], k).columns.tolist()
        assert counts.shape[1] - 1 not in chosen, k
    experiments = list(
        word_experiments(
            features, labels, freqs, task="author", class_sizes=[4], seeds=[0],
            methods={"delta": ["words6"]}, test_fraction=0.2,
        )
    )  # fmt: skip
    (experiment,) = experiments
    assert experiment.diagnostics["n_vocabulary"] == 5  # the leak word has training score 0
    assert np.array_equal(experiment.test_index, split.test_index)


def test_word_rows_share_the_punctuation_split_and_delta_recognises_the_authors():
    labels, counts, features = _word_corpus(seed=1)
    freqs = relative_frequencies(sp.csr_matrix(counts), counts.sum(axis=1))
    punctuation = list(
        recognition_experiments(
            features, labels, task="author", class_sizes=[3], seeds=[2], methods={"kl": ["f1"]}, test_fraction=0.2
        )
    )
    words = list(
        word_experiments(
            features, labels, freqs, task="author", class_sizes=[3], seeds=[2],
            methods={"delta": ["words5", "f1+words2"]}, test_fraction=0.2,
        )
    )  # fmt: skip
    assert [e.feature_set for e in words] == ["words5", "f1+words2"]
    for experiment in words:
        assert np.array_equal(experiment.train_index, punctuation[0].train_index)
        assert np.array_equal(experiment.test_index, punctuation[0].test_index)
    assert words[0].row()["accuracy"] == 1.0
    frame = word_results_frame(words)
    assert frame[["top_k", "n_vocabulary", "vocabulary_proven"]].values.tolist() == [[5, 5, 1], [2, 2, 1]]


def test_word_experiments_refuse_a_punctuation_set():
    labels, counts, features = _word_corpus()
    with pytest.raises(ValueError, match="not a word feature set: 'f1'"):
        next(
            word_experiments(
                features, labels, sp.csr_matrix(counts, dtype=float), task="author", class_sizes=[2], seeds=[0],
                methods={"delta": ["f1"]}, test_fraction=0.2,
            )
        )  # fmt: skip


# ------------------------------------------------------------------- files and tables


def test_word_results_files_and_table(tmp_path):
    from punctstyle.analyses.recognition_files import read_word_results, write_word_results
    from punctstyle.report.recognition_tables import summarise, word_tables_markdown

    rows = [
        dict(task="author", n_classes=10, seed=seed, method=method, feature_set=name, n_train=80, n_test=20,
             accuracy=acc, baseline=0.1, n_fallback=0, epochs=0, top_k=100, n_vocabulary=100, vocabulary_proven=proven)
        for seed, method, name, acc, proven in [
            (0, "delta", "words100", 0.5, 1), (1, "delta", "words100", 0.7, 1),
            (0, "mlp", "all+words100", 0.9, 1), (1, "mlp", "all+words100", 0.8, 0),
        ]
    ]  # fmt: skip
    write_word_results(tmp_path / "a.csv", pd.DataFrame(rows[:2]))
    write_word_results(tmp_path / "b.csv", pd.DataFrame(rows[2:]))
    write_word_results(tmp_path / "empty.csv", None)
    results = read_word_results([tmp_path / "a.csv", tmp_path / "empty.csv", tmp_path / "b.csv"])
    assert len(results) == 4 and results["vocabulary_proven"].tolist() == [1, 1, 1, 0]
    markdown = word_tables_markdown(summarise(results), results, "author")
    assert "**author recognition, Burrows' Delta, word baselines**" in markdown
    assert "0.60 ± 0.14" in markdown  # mean and sample sd of 0.5 and 0.7
    assert "all + 100 words" in markdown and "0.85 ± 0.07" in markdown
    assert "in 3 of 4 experiments" in markdown
    assert word_tables_markdown(None, results.iloc[:0], "author").startswith("No author word baselines")


def test_a_large_pool_cutoff_leaves_the_vocabulary_unproven():
    labels, counts, features = _word_corpus(seed=2)
    freqs = relative_frequencies(sp.csr_matrix(counts), counts.sum(axis=1))
    common = dict(task="author", class_sizes=[4], seeds=[0], methods={"delta": ["words2"]}, test_fraction=0.2)
    (tight,) = word_experiments(features, labels, freqs, word_cutoff=np.full(labels.size, 1e-6), **common)
    (loose,) = word_experiments(features, labels, freqs, word_cutoff=np.full(labels.size, 0.9), **common)
    assert tight.diagnostics["vocabulary_proven"] == 1 and loose.diagnostics["vocabulary_proven"] == 0
    assert np.array_equal(tight.y_pred, loose.y_pred)  # the bound reports, it does not change the choice


def test_word_matrix_keeps_long_and_non_ascii_words(tmp_path):
    long_word = "x" * 5000
    matrix = build_word_matrix([(1, ["naïve", long_word, "ångström"], np.array([3, 2, 1]), 6)], pool_per_book=5)
    write_word_matrix(tmp_path / "w.npz", matrix)
    back = read_word_matrix(tmp_path / "w.npz")
    assert back.vocabulary.tolist() == ["naïve", long_word, "ångström"]  # code-point order: x < å
    assert back.counts.toarray().tolist() == [[3, 2, 1]]
    with np.load(tmp_path / "w.npz") as data:  # no fixed-width str array (as wide as the longest word)
        assert data["vocabulary_utf8"].size == len("naïveångström".encode()) + 5000
        assert not any(data[name].dtype.kind == "U" for name in data.files if name != "format")


# ------------------------------------- exact counts: the pool decides the columns, not the cells


def test_a_pool_word_below_a_books_own_top_words_keeps_its_exact_count(tmp_path):
    # pool 2: book 1 keeps "the", "cat"; book 2 keeps "dog", "the" and has "cat" only 1 time
    books = [
        (1, ["the", "cat", "hat"], np.array([5, 4, 1]), 10),
        (2, ["the", "dog", "cat", "emu"], np.array([6, 5, 1, 1]), 13),
    ]
    matrix = build_word_matrix(books, pool_per_book=2)
    assert matrix.vocabulary.tolist() == ["cat", "dog", "the"]  # "hat", "emu": in no book's top 2
    assert matrix.counts.toarray().tolist() == [[4, 0, 5], [1, 5, 6]]
    assert matrix.cutoff.tolist() == [1 / 10, 1 / 13]
    write_word_matrix(tmp_path / "w.npz", matrix)
    freqs = read_word_matrix(tmp_path / "w.npz").relative_frequencies([2]).toarray()
    assert freqs.tolist() == [[1 / 13, 5 / 13, 6 / 13]]  # n_words (13), not the stored counts' sum (12)


def test_the_word_matrix_reads_its_books_twice_and_checks_the_second_pass():
    books = [(1, ["a", "b"], np.array([2, 1]), 3), (2, ["b"], np.array([4]), 4)]
    once = build_word_matrix(iter(books), pool_per_book=1)  # an iterator is read into a list first
    assert once.counts.toarray().tolist() == [[2, 1], [0, 4]] and once.vocabulary.tolist() == ["a", "b"]

    class Changing:
        def __init__(self):
            self.passes = 0

        def __iter__(self):
            self.passes += 1
            return iter(books if self.passes == 1 else books[::-1])

    with pytest.raises(ValueError, match="second pass over the books differs from the first at book 2"):
        build_word_matrix(Changing(), pool_per_book=1)


def _zipf_books(n_books=12, n_words=40, seed=3):
    """Books of Poisson word counts whose favourite words differ (each its own tilt)."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i:02d}" for i in range(n_words)])
    law = 1.0 / np.arange(1, n_words + 1)
    counts = rng.poisson(400 * law * rng.lognormal(0.0, 0.8, size=(n_books, n_words)))
    books = []
    for b in range(n_books):
        present = np.flatnonzero(counts[b])
        books.append((100 + b, words[present].tolist(), counts[b, present], int(counts[b].sum())))
    return words, counts, books


def _below_own_pool(books, chosen, pool_per_book):
    """(book, word) of the chosen words a book uses but keeps out of its own pool."""
    below = []
    for book_id, book_words, book_counts, n_words in books:
        kept = set(book_pool(book_words, book_counts, n_words, pool_per_book)[0].tolist())
        below += [(book_id, w) for w in chosen.tolist() if w in book_words and w not in kept]
    return below


def test_the_chosen_words_matrix_equals_the_full_vocabulary_one():
    words, counts, books = _zipf_books()
    matrix = build_word_matrix(books, pool_per_book=8)
    full = relative_frequencies(sp.csr_matrix(counts), counts.sum(axis=1)).toarray()
    pool = matrix.relative_frequencies(matrix.book_ids)
    chosen = select_vocabulary(pool, 15, matrix.cutoff)
    full_columns = np.searchsorted(words, matrix.vocabulary[chosen.columns].astype(str))
    # the test means something: chosen words that books use below their own top 8
    assert len(_below_own_pool(books, matrix.vocabulary[chosen.columns], 8)) > 10
    assert np.array_equal(pool[:, chosen.columns].toarray(), full[:, full_columns])
    assert np.array_equal(matrix.counts.toarray(), counts[:, np.searchsorted(words, matrix.vocabulary.astype(str))])


def test_a_proven_vocabulary_gives_the_classifiers_the_full_vocabulary_inputs(monkeypatch):
    import punctstyle.analyses.recognition as recognition
    from tests.unit.recognition_data import mlp_params

    words, counts, books = _zipf_books(n_books=20, n_words=60, seed=5)
    labels = np.repeat(["a", "b", "c", "d"], 5).astype(object)
    features = {"f1": np.random.default_rng(0).random((labels.size, 10))}
    matrix = build_word_matrix(books, pool_per_book=20)
    pool = matrix.relative_frequencies(matrix.book_ids)
    full = relative_frequencies(sp.csr_matrix(counts), counts.sum(axis=1))
    real_build = recognition.build_classifier

    def recording_build(name, **kwargs):
        model = real_build(name, **kwargs)
        fit, predict = model.fit, model.predict

        def recording_fit(X, y):
            inputs.append(("fit", name, X.copy()))
            return fit(X, y)

        def recording_predict(X):
            inputs.append(("predict", name, X.copy()))
            return predict(X)

        model.fit, model.predict = recording_fit, recording_predict
        return model

    monkeypatch.setattr(recognition, "build_classifier", recording_build)
    common = dict(
        task="author", class_sizes=[4], seeds=[0, 1], test_fraction=0.2,
        methods={"delta": ["words5", "words10"], "mlp": ["f1+words10"]},
        classifier_options={"mlp": {"params": mlp_params(hidden=8, max_epochs=2), "num_threads": 1}},
    )  # fmt: skip
    inputs = []
    from_pool = list(word_experiments(features, labels, pool, word_cutoff=matrix.cutoff, **common))
    pool_inputs, inputs = inputs, []
    from_full = list(word_experiments(features, labels, full, **common))
    assert [e.diagnostics["vocabulary_proven"] for e in from_pool] == [1] * 6
    # the pool's counts are exact where a chosen word lies below a book's own top 20
    assert len(_below_own_pool(books, matrix.vocabulary[select_vocabulary(pool, 10).columns], 20)) > 10
    assert len(pool_inputs) == len(inputs) == 12
    for (step, name, X_pool), (_, _, X_full) in zip(pool_inputs, inputs, strict=True):
        assert np.array_equal(X_pool, X_full), (step, name)
    for a, b in zip(from_pool, from_full, strict=True):
        assert np.array_equal(a.y_pred, b.y_pred)
