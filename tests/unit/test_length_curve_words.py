"""Word methods on the length curve: the word stream of a book (aligned with its gaps), the
row's training-only vocabulary, the excerpt word frequencies, and whole documents equal to the
word baselines of Tables 2-3 (punctstyle.training.length_curve, punctstyle.corpus.words, punctstyle.text.extract)."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import numpy as np
import pytest

from punctstyle.book.steps import extract_book
from punctstyle.book.sequence_file import read_sequence, read_word_stream, read_words, words_file_has_stream, write_words
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.extract import WORD, classify_token, english_tokenizer, word_key
from punctstyle.features import compute_features
from punctstyle.io import InputError
from punctstyle.training.length_features import (
    WHOLE,
    WORD_RANKS,
    WORD_STREAM,
    excerpt_matrices,
    resolve_excerpt_features,
    row_word_features,
    with_word_ranks,
    word_feature_k,
    word_frequencies,
)
from punctstyle.book.excerpts import (
    Document,
    Excerpt,
    cut_excerpt,
)
from punctstyle.training.length_curve import (
    check_methods,
    length_curve_row,
)
from punctstyle.marks import PAPER_FEATURES
from punctstyle.analyses.recognition import word_experiments, word_results_frame
from punctstyle.corpus.words import (
    BookWordStreams,
    CorpusWordFiles,
    book_word_stream,
    build_word_matrix,
    select_vocabulary,
    training_vocabulary,
)
from tests.unit.test_words import TRICKY


def spacy_words(text: str) -> list[str]:
    """The reference word stream: spaCy's tokens of class WORD, lower-cased, in text order."""
    return [word_key(t.text) for t in english_tokenizer()(text) if classify_token(t.text) == WORD]


# ----------------------------------------------------------------------------- the word stream


@pytest.mark.parametrize("text", TRICKY)
def test_the_word_stream_is_spacys_words_in_order(text):
    extractor = ChunkCachedExtractor()
    sequence, stream = extractor.extract_with_word_stream(text)
    assert stream == spacy_words(text)
    assert len(stream) == sequence.n_words
    plain = extractor(text)
    assert np.array_equal(sequence.marks, plain.marks) and np.array_equal(sequence.gaps, plain.gaps)
    assert Counter(stream) == ChunkCachedExtractor().extract_with_words(text)[1]


def test_the_word_stream_survives_pieces_joined_chunks_and_a_renewed_cache():
    text = " ".join(TRICKY * 30) + " ' ''x :) he's"  # ' ''x: a special case across chunks
    expected = spacy_words(text)
    assert ChunkCachedExtractor(piece_chars=200).extract_with_word_stream(text)[1] == expected
    small = ChunkCachedExtractor(max_cache=40)  # emptied while extracting
    small.extract_with_word_stream(TRICKY[1])
    assert small.extract_with_word_stream(text)[1] == expected


def test_word_j_of_the_stream_is_word_j_of_the_gaps():
    sequence, stream = ChunkCachedExtractor().extract_with_word_stream(
        "One two, three. Don't go! (Mr. Smith's dog) said: nothing"
    )
    assert sequence.marks.tolist() == [4, 5, 0, 2, 3, 6]  # , . ! ( ) :
    assert sequence.gaps.tolist() == [2, 1, 3, 0, 4, 1]
    assert stream == ["one", "two", "three", "do", "n't", "go", "mr.", "smith", "'s", "dog", "said", "nothing"]
    # the words before mark l are stream[sum(gaps[:l]) : sum(gaps[:l + 1])]
    ends = np.cumsum(sequence.gaps)
    before = [stream[e - g : e] for g, e in zip(sequence.gaps.tolist(), ends.tolist(), strict=True)]
    assert before == [["one", "two"], ["three"], ["do", "n't", "go"], [], ["mr.", "smith", "'s", "dog"], ["said"]]
    assert sequence.n_words - int(ends[-1]) == 1  # "nothing": after the last mark
    # an excerpt of 3 marks spans the words before each of its marks
    for seed in range(6):
        excerpt = cut_excerpt(sequence.marks, sequence.gaps, 3, seed=seed, doc_id=1)
        spanned = [w for mark in range(excerpt.start, excerpt.start + 3) for w in before[mark]]
        assert stream[excerpt.word_start : excerpt.word_stop] == spanned


RAW = (
    "Header\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n"
    + "\u201cWell,\u201d said she\u2014\u2018no\u2019\u2014yes;no. It\u2019s late... " * 30
    + "The end\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\nLicence words"
)


def _book(tmp_path, book_id, text):
    (tmp_path / f"{book_id}.txt.gz").write_bytes(gzip.compress(text.encode("utf-8")))
    (tmp_path / f"{book_id}.json").write_text(json.dumps({"status": "ok", "encoding": "utf-8"}))
    extract_book(
        tmp_path / f"{book_id}.txt.gz",
        tmp_path / f"{book_id}.json",
        tmp_path / f"{book_id}.seq.parquet",
        book_id,
        words_path=tmp_path / f"{book_id}.words.parquet",
    )


def test_a_re_tokenized_book_matches_its_sequence_and_words_files(tmp_path):
    _book(tmp_path, 7, RAW)
    sequence, _ = read_sequence(tmp_path / "7.seq.parquet")
    words, counts, metadata = read_words(tmp_path / "7.words.parquet")
    stream = BookWordStreams().read(tmp_path / "7.txt.gz", sequence.marks, sequence.gaps)
    assert stream.dtype == object and len(stream) == sequence.n_words == int(metadata["n_words"])
    assert Counter(stream.tolist()) == dict(zip(words, counts.tolist(), strict=True))
    assert "licence" not in stream and stream[-2:].tolist() == ["the", "end"]  # cleaned as extraction cleans
    again, plain = book_word_stream(RAW, ChunkCachedExtractor(piece_chars=100))
    assert plain == stream.tolist() and np.array_equal(again.gaps, sequence.gaps)
    files = CorpusWordFiles([7], [tmp_path / "7.txt.gz"], [tmp_path / "7.words.parquet"])
    assert files.stream(0, sequence.marks, sequence.gaps).tolist() == plain
    assert files.counts(0)[0] == words
    # the stream is read from the words file (kept at extraction): the text is not read again
    (tmp_path / "7.txt.gz").write_bytes(gzip.compress(b"another text entirely, with other words."))
    assert CorpusWordFiles([7], [], [tmp_path / "7.words.parquet"]).stream(0, sequence.marks, sequence.gaps).tolist() == plain
    assert files.stream(0, sequence.marks, sequence.gaps).tolist() == plain
    with pytest.raises(InputError, match=r"7.words.parquet: its word stream is shorter than the book's gaps"):
        files.stream(0, sequence.marks, sequence.gaps + 1)
    (tmp_path / "7.txt.gz").write_bytes(gzip.compress(RAW.encode("utf-8")))
    with pytest.raises(InputError, match=r"7.txt.gz: its re-tokenized marks and gaps differ"):
        BookWordStreams().read(tmp_path / "7.txt.gz", sequence.marks[1:], sequence.gaps[1:])
    with pytest.raises(InputError, match="no words file for 1 corpus books, e.g. book 8"):
        CorpusWordFiles([7, 8], [tmp_path / "7.txt.gz", tmp_path / "8.txt.gz"], [tmp_path / "7.words.parquet"])


def test_a_words_file_without_its_stream_is_re_tokenized_from_the_text(tmp_path):
    _book(tmp_path, 9, RAW)
    sequence, _ = read_sequence(tmp_path / "9.seq.parquet")
    expected = read_word_stream(tmp_path / "9.words.parquet").tolist()
    words, counts, _ = read_words(tmp_path / "9.words.parquet")
    write_words(tmp_path / "9.words.parquet", 9, dict(zip(words, counts.tolist(), strict=True)))  # as before
    assert not words_file_has_stream(tmp_path / "9.words.parquet")
    files = CorpusWordFiles([9], [tmp_path / "9.txt.gz"], [tmp_path / "9.words.parquet"])
    assert files.stream(0, sequence.marks, sequence.gaps).tolist() == expected
    with pytest.raises(InputError, match=r"9.words.parquet: no word stream .* delete it to re-extract the book"):
        CorpusWordFiles([9], [], [tmp_path / "9.words.parquet"]).stream(0, sequence.marks, sequence.gaps)


# ----------------------------------------------------------------------------- the row's words


def test_training_vocabulary_by_hand():
    books = [(["the", "a"], np.array([3, 1])), (["dog", "the"], np.array([1, 1]))]
    # scores: the (3/4 + 1/2) / 2 = 0.625, dog 0.25, a 0.125
    assert training_vocabulary(books, 2) == ["the", "dog"]
    assert training_vocabulary(books, 10) == ["the", "dog", "a"]  # only words with a positive score
    # ties by word: b and c both 0.25
    assert training_vocabulary([(["c", "b", "x"], np.array([1, 1, 2]))], 2) == ["x", "b"]
    with pytest.raises(ValueError, match="no training document"):
        training_vocabulary([], 3)


def test_training_vocabulary_is_the_word_matrix_choice_when_the_pool_holds_every_word():
    rng = np.random.default_rng(0)
    words = np.array([f"w{i:02d}" for i in range(40)])
    books = []
    for b in range(12):
        chosen = rng.choice(words, size=25, replace=False)
        books.append((b, chosen.tolist(), rng.integers(1, 30, size=25)))
    matrix = build_word_matrix(((b, w, c, int(c.sum())) for b, w, c in books), pool_per_book=100)
    train = [0, 2, 3, 5, 8, 11]
    expected = select_vocabulary(matrix.relative_frequencies(train), 15, matrix.cutoff[matrix.rows_of(train)])
    assert expected.proven
    chosen = training_vocabulary(((books[i][1], books[i][2]) for i in train), 15)
    assert chosen == matrix.vocabulary[expected.columns].tolist()


def _document(words, marks, gaps, doc_id=1):
    return Document(doc_id, np.asarray(marks), np.asarray(gaps), {WORD_STREAM: np.array(words, dtype=object)})


def test_excerpt_word_frequencies_by_hand():
    # 4 marks with gaps 2 1 2 1 (6 words) and one word after the last mark
    document = _document(["a", "b", "a", "c", "a", "d", "b"], [4, 5, 4, 5], [2, 1, 2, 1])
    ranked = with_word_ranks(lambda i: document, ["a", "b"])(0)
    assert ranked.streams[WORD_RANKS].tolist() == [0, 1, 0, -1, 0, -1, 1]
    excerpt = cut_excerpt(document.marks, document.gaps, 2, seed=0, doc_id=1)
    assert excerpt.start == 1 and (excerpt.word_start, excerpt.word_stop) == (2, 5)  # words a c a
    assert word_frequencies(2)(excerpt, ranked).tolist() == [2 / 3, 0.0]
    assert word_frequencies(1)(excerpt, ranked).tolist() == [2 / 3]
    # the whole document is the whole text: 7 words, "b" after the last mark included
    whole = cut_excerpt(document.marks, document.gaps, None, seed=0, doc_id=1)
    assert whole.n_words == 6 and word_frequencies(2)(whole, ranked).tolist() == [3 / 7, 2 / 7]
    short = cut_excerpt(document.marks, document.gaps, 9, seed=0, doc_id=1)  # shorter than n: whole
    assert word_frequencies(2)(short, ranked).tolist() == [3 / 7, 2 / 7]
    no_words = Excerpt(document.marks[:1], np.zeros(1, int), 0, 0, 0, True)  # a mark with no word before it
    assert word_frequencies(2)(no_words, ranked).tolist() == [0.0, 0.0]
    features = row_word_features(["f1", "words5", "words1"], n_vocabulary=2)
    assert sorted(features) == ["words1", "words5"] and features["words5"](excerpt, ranked).size == 2
    with pytest.raises(ValueError, match="has no word stream"):
        with_word_ranks(lambda i: Document(3, document.marks, document.gaps), ["a"])(0)


def test_word_feature_sets():
    assert word_feature_k("words1000") == 1000 and word_feature_k("words0") is None and word_feature_k("f1") is None
    assert resolve_excerpt_features("words100") == ("words100",)
    assert resolve_excerpt_features("all+words500") == (*PAPER_FEATURES, "words500")
    assert resolve_excerpt_features("f3+words5") == ("f3", "words5")
    for bad in ("words100+f1", "words5+words6", "word5", "all+all"):
        with pytest.raises(ValueError, match="bad feature set"):
            resolve_excerpt_features(bad)
    check_methods({"delta": ["words100"], "mlp": ["words1000", "all+words1000"]})
    with pytest.raises(ValueError, match="one distribution feature"):
        check_methods({"kl": ["words100"]})


# ----------------------------------------------------------------------------- rows


def _text(rng, words, p, n_sentences, trailing):
    marks = np.array([",", ".", ";", "!", "?"])
    parts = []
    for _ in range(n_sentences):
        parts.append(" ".join(rng.choice(words, size=rng.integers(2, 9), p=p)) + rng.choice(marks))
    if trailing:
        parts.append(" ".join(rng.choice(words, size=trailing, p=p)))  # words after the last mark
    return " ".join(parts)


def _word_corpus(n_authors=3, per_author=8, seed=0):
    """Texts of authors who prefer different words; each with its sequence, words and counts."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(60)])
    preferences = rng.dirichlet(np.full(words.size, 0.4), size=n_authors)
    labels = np.repeat([f"author{a}" for a in range(n_authors)], per_author)[rng.permutation(n_authors * per_author)]
    extractor = ChunkCachedExtractor()
    documents = []
    for i, label in enumerate(labels):
        text = _text(rng, words, preferences[int(label[-1])], 120, trailing=int(i % 3 == 0) * 5)
        sequence, stream = extractor.extract_with_word_stream(text)
        documents.append((sequence, stream, Counter(stream)))
    return labels, documents


def _row_inputs(documents, calls=None):
    def document(i):
        sequence, stream, _ = documents[i]
        return Document(100 + i, sequence.marks, sequence.gaps, {WORD_STREAM: np.array(stream, dtype=object)})

    def word_counts(i):
        if calls is not None:
            calls.append(i)
        counts = documents[i][2]
        return list(counts), np.array(list(counts.values()))

    return document, word_counts


def test_whole_documents_are_the_word_baselines():
    """At n = whole the row's word vectors, vocabulary and accuracies are those of the word
    baselines (punctstyle.analyses.recognition.word_experiments) on the same split, when the corpus
    word matrix's pool holds every word (then both count every word of every book)."""
    from tests.unit.recognition_data import mlp_params

    labels, documents = _word_corpus()
    assert sum(s.n_words > int(s.gaps.sum()) for s, _, _ in documents) == 8  # trailing words counted
    matrix = build_word_matrix(
        ((100 + i, list(c), np.array(list(c.values())), s.n_words) for i, (s, _, c) in enumerate(documents)),
        pool_per_book=1000,
    )
    features = {name: [] for name in PAPER_FEATURES}
    for sequence, _, _ in documents:
        for name, vector in compute_features(sequence.marks, sequence.gaps).items():
            if name in features:
                features[name].append(vector)
    features = {name: np.vstack(rows) for name, rows in features.items()}
    options = {"mlp": {"params": mlp_params(hidden=8, max_epochs=4), "num_threads": 1}}
    methods = {"delta": ["words5", "words40"], "mlp": ["words5", "all+words5"]}
    for seed in (0, 1):
        baseline = word_results_frame(
            word_experiments(
                features,
                labels,
                matrix.relative_frequencies(100 + np.arange(labels.size)),
                task="author",
                class_sizes=[3],
                seeds=[seed],
                methods=methods,
                test_fraction=0.25,
                word_cutoff=matrix.cutoff,
                classifier_options=options,
            )
        )
        document, word_counts = _row_inputs(documents)
        row = length_curve_row(
            document,
            labels,
            task="author",
            n_classes=3,
            seed=seed,
            test_fraction=0.25,
            lengths=[20],
            methods=methods,
            training=["whole"],
            classifier_options=options,
            word_counts=word_counts,
        )
        whole = row.results[row.results["length"] == WHOLE].set_index(["method", "feature_set"])
        for _, line in baseline.iterrows():
            assert whole.at[(line["method"], line["feature_set"]), "accuracy"] == line["accuracy"], (seed, line)
        # the vectors themselves
        train = row.split.train_index
        vocabulary = select_vocabulary(matrix.relative_frequencies(100 + train), 40, matrix.cutoff[train])
        assert list(row.vocabulary) == matrix.vocabulary[vocabulary.columns].tolist()
        ranked = with_word_ranks(document, row.vocabulary)
        functions = row_word_features(["words40"], len(row.vocabulary))
        got = excerpt_matrices(ranked, row.split.test_index, [WHOLE], ["words40"], seed=seed, role="test",
                               functions=functions)  # fmt: skip
        expected = matrix.relative_frequencies(100 + row.split.test_index)[:, vocabulary.columns].toarray()
        assert np.array_equal(got.features[WHOLE]["words40"], expected)
    assert 0.5 < baseline["accuracy"].max()  # the authors are told apart (not a trivially equal 0)


class RecordingCentroid:
    """Nearest class mean; records what each instance was fitted on."""

    fits: list[np.ndarray] = []

    def __init__(self, *, seed, feature_set):
        self.feature_set = feature_set

    def fit(self, X, y):
        RecordingCentroid.fits.append(np.asarray(X))
        self.classes = np.unique(y)
        self.means = np.vstack([X[np.asarray(y) == c].mean(axis=0) for c in self.classes])

    def predict(self, X):
        return self.classes[np.argmin(((X[:, None, :] - self.means[None]) ** 2).sum(axis=2), axis=1)]


def test_no_test_document_decides_the_words_or_the_training_rows(monkeypatch):
    """The vocabulary reads the training documents' counts only; a word that fills the test
    documents is never chosen, and changing the test documents changes no training row."""
    from punctstyle import classifiers

    monkeypatch.setitem(
        classifiers.CLASSIFIERS, "centroid", classifiers.ClassifierSpec("centroid", f"{__name__}:RecordingCentroid")
    )
    labels, documents = _word_corpus(seed=2)
    common = dict(task="author", n_classes=3, seed=0, test_fraction=0.25, lengths=[30],
                  methods={"centroid": ["words10"]}, training=["whole", "excerpt"])  # fmt: skip
    monkeypatch.setattr(RecordingCentroid, "fits", [])
    calls = []
    document, word_counts = _row_inputs(documents, calls)
    row = length_curve_row(document, labels, word_counts=word_counts, **common)
    assert sorted(calls) == sorted(row.split.train_index.tolist())
    fits = RecordingCentroid.fits
    assert len(fits) == 2 and fits[0].shape == (row.split.train_index.size, 10)  # whole, then excerpts of 30
    # the test documents made of one new word, 10,000 times
    leaked = list(documents)
    for i in row.split.test_index:
        sequence, stream, _ = documents[i]
        stream = ["zzz"] * len(stream)
        leaked[i] = (sequence, stream, Counter(stream))
    monkeypatch.setattr(RecordingCentroid, "fits", [])
    document, word_counts = _row_inputs(leaked)
    again = length_curve_row(document, labels, word_counts=word_counts, **common)
    assert again.vocabulary == row.vocabulary and "zzz" not in again.vocabulary
    assert all(np.array_equal(a, b) for a, b in zip(RecordingCentroid.fits, fits, strict=True))
    accuracy = again.results.set_index(["training", "length"])["accuracy"]
    # every test word is outside the vocabulary: all-zero vectors, one class for all 6 (2 per class)
    assert row.split.test_index.size == 6 and accuracy[("whole", WHOLE)] == pytest.approx(1 / 3)
    # the excerpt-trained fit saw the training excerpts' own vectors (30 marks each)
    document, _ = _row_inputs(documents)
    ranked = with_word_ranks(document, row.vocabulary)
    train = excerpt_matrices(ranked, row.split.train_index, ["30"], ["words10"], seed=0, role="train",
                             functions=row_word_features(["words10"], 10))  # fmt: skip
    assert np.array_equal(fits[1], train.features["30"]["words10"])


def test_word_features_need_word_counts():
    labels, documents = _word_corpus(per_author=4)
    document, _ = _row_inputs(documents)
    with pytest.raises(ValueError, match="need the documents' word counts"):
        length_curve_row(document, labels, task="author", n_classes=3, seed=0, test_fraction=0.25, lengths=[10],
                         methods={"delta": ["words5"]}, training=["whole"])  # fmt: skip


def test_the_summary_orders_word_sets_by_k_and_labels_them():
    from punctstyle.training.length_curve import RESULT_COLUMNS
    from punctstyle.training.length_summary import summarise, summary_markdown

    rows = [
        {"task": "author", "n_classes": 10, "seed": 0, "method": "delta", "feature_set": name, "training": "whole",
         "length": WHOLE, "n_train": 8, "n_test": 2, "n_short_train": 0, "n_short_test": 0, "accuracy": acc,
         "baseline": 0.1, "n_fallback": 0, "epochs": 0}
        for name, acc in (("words1000", 1.0), ("words500", 0.5), ("words100", 0.25), ("all+words100", 0.75))
    ]  # fmt: skip
    excerpts = {"n_classes": [10], "seed": [0], "length": [WHOLE], "book_id": [1], "role": ["test"], "start": [0],
                "n_marks": [9], "n_words": [90], "complete": [True]}  # fmt: skip
    import pandas as pd

    summary = summarise(pd.DataFrame(rows, columns=RESULT_COLUMNS), pd.DataFrame(excerpts))
    assert summary["feature_set"].tolist() == ["all+words100", "words100", "words500", "words1000"]
    markdown = summary_markdown(summary, str)
    assert (
        "| delta | 100 words | whole | 0.250 |" in markdown
        and "| delta | all + 100 words | whole | 0.750 |" in markdown
    )
