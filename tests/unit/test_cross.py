"""Issue 25: the discrete Weibull fit, the group-pair split, the text-distortion vectors and
the translator labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from punctstyle.descriptive import gap_weibull
from punctstyle.training import cross_domain, translators
from punctstyle.experiments.splits import group_pair_split
from punctstyle.marks import MARK_CODE

SHARED_CATALOG = Path(__file__).resolve().parents[2] / ".." / "shared" / "catalogs" / "pg_catalog_2018_full.csv"


# ------------------------------------------------------------------ discrete Weibull


@pytest.mark.parametrize(("p", "beta"), [(0.1, 1.3), (0.25, 0.8), (0.05, 1.0), (0.4, 1.8)])
def test_the_fit_recovers_p_and_beta_from_known_samples(p, beta):
    """5,000 draws (a book holds a few thousand gaps): p within 10 % and β within 5 % of the truth."""
    rng = np.random.default_rng(7)
    fitted = gap_weibull.fit_discrete_weibull(gap_weibull.sample(p, beta, 5000, rng))
    assert fitted.p == pytest.approx(p, rel=0.10)
    assert fitted.beta == pytest.approx(beta, rel=0.05)
    assert fitted.n == 5000
    assert fitted.ks < 0.03


def test_the_law_cdf_hazard_and_sampler_agree():
    p, beta = 0.2, 1.5
    k = np.arange(1, 40)
    pmf = gap_weibull.survival(k - 1, p, beta) - gap_weibull.survival(k, p, beta)
    assert gap_weibull.cdf(np.array([0]), p, beta)[0] == 0.0
    np.testing.assert_allclose(gap_weibull.hazard(k, p, beta), pmf / gap_weibull.survival(k - 1, p, beta))
    assert gap_weibull.hazard(np.array([1]), p, beta)[0] == pytest.approx(p)
    # β = 1: the geometric law, a constant hazard p
    np.testing.assert_allclose(gap_weibull.hazard(k, 0.3, 1.0), 0.3)
    draws = gap_weibull.sample(p, beta, 200_000, np.random.default_rng(1))
    assert draws.min() >= 1
    np.testing.assert_allclose(np.bincount(draws, minlength=40)[1:40] / draws.size, pmf, atol=0.005)


def test_zero_gaps_are_dropped_and_sentences_run_between_ending_marks():
    period, comma, question = MARK_CODE["."], MARK_CODE[","], MARK_CODE["?"]
    marks = np.array([comma, period, comma, period, period, question])
    gaps = np.array([3, 2, 4, 1, 0, 6])
    np.testing.assert_array_equal(gap_weibull.word_gaps(gaps), [3, 2, 4, 1, 6])
    # words up to each mark: 3 5 9 10 10 16; ending marks at 5, 10, 10, 16 -> 5, 0 (dropped), 6
    np.testing.assert_array_equal(gap_weibull.sentence_lengths(marks, gaps), [5, 6])
    with pytest.raises(ValueError, match="k >= 1"):
        gap_weibull.fit_discrete_weibull(np.array([0, 1, 2]))
    assert np.isnan(gap_weibull.fit_discrete_weibull(np.array([3, 3, 3])).p)


# ------------------------------------------------------------------ group splits


def _grouped_corpus(rng):
    authors = np.repeat([f"author{i}" for i in range(6)], 12)
    groups = rng.choice(["fiction", "poetry", "drama"], size=authors.size)
    return authors, groups


@pytest.mark.parametrize("seed", range(5))
def test_a_group_split_never_trains_on_a_book_of_the_test_group(seed):
    authors, groups = _grouped_corpus(np.random.default_rng(seed))
    split = group_pair_split(authors, groups, "fiction", "poetry", seed, min_docs=2)
    assert split.classes.size > 0
    assert np.all(groups[split.cross_train_index] == "fiction")
    assert np.all(groups[split.test_index] == "poetry")
    assert np.all(groups[split.within_train_index] == "poetry")
    assert not set(split.test_index) & set(split.within_train_index)
    # the same authors, as many books of each in both training sets, every test author trained
    for index in (split.cross_train_index, split.within_train_index, split.test_index):
        assert set(authors[index]) == set(split.classes)
    cross_counts = pd.Series(authors[split.cross_train_index]).value_counts().sort_index()
    within_counts = pd.Series(authors[split.within_train_index]).value_counts().sort_index()
    pd.testing.assert_series_equal(cross_counts, within_counts)


def test_group_split_keeps_only_authors_with_books_in_both_groups():
    authors = np.array(["a"] * 4 + ["b"] * 4 + ["c"] * 3)
    groups = np.array(["x", "x", "y", "y", "x", "x", "x", "y", "x", "y", "y"])
    split = group_pair_split(authors, groups, "x", "y", 0, min_docs=2)
    assert split.classes.tolist() == ["a"]  # b has one y book, c one x book
    np.testing.assert_array_equal(
        group_pair_split(authors, groups, "x", "y", 3, min_docs=2).classes, split.classes
    )
    with pytest.raises(ValueError, match="differ"):
        group_pair_split(authors, groups, "x", "x", 0)


def test_book_form_and_pairs():
    assert cross_domain.book_form(["Short stories, English", "Fiction"]) == "short stories"
    assert cross_domain.book_form(["English poetry"]) == "poetry"
    assert cross_domain.book_form(["Norwegian drama -- Translations into English"]) == "drama"
    assert cross_domain.book_form(["Love stories -- Fiction"]) == "fiction"
    assert cross_domain.book_form(["Italy -- Description and travel"]) == "nonfiction"
    assert cross_domain.book_audience(["Children's Literature"]) == "children"
    assert cross_domain.book_audience([]) == "adult"
    authors = ["a", "a", "a", "a", "b", "b", "b", "b", "c", "c"]
    groups = ["x", "x", "y", "y", "x", "x", "y", "y", "x", "y"]
    assert cross_domain.group_pairs(authors, groups, 2, 2) == [("x", "y"), ("y", "x")]
    assert cross_domain.group_pairs(authors, groups, 2, 3) == []


def test_masked_unigram_vectors_mask_the_rare_words_and_keep_the_marks():
    f1 = np.zeros((1, 10))
    f1[0, MARK_CODE[","]] = 0.5
    f1[0, MARK_CODE["."]] = 0.5
    inputs = cross_domain.CorpusInputs(
        features={"f1": f1},
        word_freqs=sp.csr_matrix(np.array([[0.5, 0.3, 0.2]])),
        n_words=np.array([10]),
        cutoff=np.zeros(1),
        n_marks=np.array([4]),
    )
    vector = cross_domain.masked_unigram_vectors(inputs, np.array([0]), np.array([0]))
    # 14 tokens: the kept word 5 times, 5 masked words, 2 commas, 2 periods
    expected = np.zeros(12)
    expected[0], expected[1] = 5 / 14, 5 / 14
    expected[2 + MARK_CODE[","]] = expected[2 + MARK_CODE["."]] = 2 / 14
    np.testing.assert_allclose(vector[0], expected)


# ------------------------------------------------------------------ translators


def test_translator_labels_from_catalog_rows():
    catalog = pd.DataFrame(
        {
            "Text#": [1, 2, 3],
            "Authors": [
                "Tolstoy, Leo, graf, 1828-1910; Maude, Louise, 1855-1939 [Translator]; Maude, Aylmer, 1858-1938 [Translator]",
                "Gogol, Nikolai Vasilevich, 1809-1852; Somebody, A. [Illustrator]",
                "Garnett, Constance, 1861-1946 [Translator]; Chekhov, Anton Pavlovich, 1860-1904",
            ],
        }
    )
    labels = translators.translator_labels(catalog)
    assert labels["original_author"].tolist() == ["Tolstoy, Leo, graf", "Gogol, Nikolai Vasilevich", "Chekhov, Anton Pavlovich"]
    assert labels["translator"].isna().tolist() == [False, True, False]
    assert labels["translator"].dropna().tolist() == ["Maude, Louise", "Garnett, Constance"]
    assert labels["translators"].dropna().tolist() == ["Maude, Louise; Maude, Aylmer", "Garnett, Constance"]


def test_nearest_label_follows_the_nearer_mean():
    # books 0, 1: author A by T1 and T2; book 2: author B by T1
    distance = np.array([[0.0, 0.9, 0.1], [0.9, 0.0, 0.5], [0.1, 0.5, 0.0]])
    table = translators.nearest_label(distance, ["A", "A", "B"], ["T1", "T2", "T1"], [10, 11, 12])
    assert table["book_id"].tolist() == [10]
    assert table["follows"].tolist() == ["translator"]


def test_translator_labels_of_the_shared_catalog():
    if not SHARED_CATALOG.is_file():
        pytest.skip(f"the shared catalog is not here ({SHARED_CATALOG}): run with ../shared")
    from punctstyle.sources.catalog import read_catalog

    catalog = read_catalog(SHARED_CATALOG)
    garnett = catalog[catalog["Authors"].fillna("").str.contains(r"Garnett, Constance.*\[Translator\]")]
    labels = translators.translator_labels(garnett)
    assert len(labels) >= 15
    assert labels["translator"].str.contains("Garnett, Constance").all()
    assert {"Tolstoy, Leo, graf", "Turgenev, Ivan Sergeevich"} <= set(labels["original_author"])
    assert not (labels["original_author"] == "Garnett, Constance").any()


# ------------------------------------------------------------------ figures


def test_the_figures_draw_and_keep_their_text_inside(monkeypatch):
    from matplotlib.text import Text

    from punctstyle.report.plots import cross as plots
    from punctstyle.report.plots.base import close_figure

    long = "a title that is far too long to fit on one line of any figure " * 3
    summary = pd.DataFrame({"method": ["kl:f3", "delta:words100"], "within_mean": [0.6, 0.9], "within_sd": [0.1, 0.05],
                            "cross_mean": [0.5, 0.6], "cross_sd": [0.1, 0.1]})  # fmt: skip
    k = np.arange(1, 11)
    examples = pd.DataFrame({"which": "median beta", "title": "t", "p": 0.1, "beta": 1.2, "k": k,
                             "observed_survival": gap_weibull.survival(k, 0.1, 1.2),
                             "fitted_survival": gap_weibull.survival(k, 0.1, 1.2), "hazard": gap_weibull.hazard(k, 0.1, 1.2)})  # fmt: skip
    fits = pd.DataFrame({"p": [0.1, 0.2, 0.15], "beta": [1.1, 0.9, 1.3], "author": ["a", "b", "a"], "birth": [1800, 1850, 1800]})
    recognition = pd.DataFrame({"label": ["original author", "translator"] * 2, "method": ["kl", "kl", "delta", "delta"],
                                "accuracy": [0.6, 0.7, 0.8, 0.7], "baseline": [0.1, 0.2, 0.1, 0.2]})  # fmt: skip
    for fig in (plots.plot_cross_domain(summary, long), plots.plot_gap_fit(examples, long),
                plots.plot_weibull_plane(fits, long), plots.plot_translators(recognition, long)):  # fmt: skip
        drawn, original = [], Text.draw

        def recording(self, renderer, drawn=drawn, original=original):
            if self.get_visible() and self.get_text().strip():
                drawn.append(self)
            return original(self, renderer)

        monkeypatch.setattr(Text, "draw", recording)
        fig.canvas.draw()
        monkeypatch.setattr(Text, "draw", original)
        renderer = fig.canvas.get_renderer()
        assert drawn
        for text in drawn:
            extent = text.get_window_extent(renderer)
            assert extent.x0 >= -1 and extent.x1 <= fig.bbox.width + 1, text.get_text()
            assert extent.y0 >= -1 and extent.y1 <= fig.bbox.height + 1, text.get_text()
        close_figure(fig)


def _text_inputs(texts):
    from punctstyle.training import distortion

    ids: dict[str, int] = {}
    prepared = [distortion.prepare_text(t, ids) for t in texts]
    n = len(texts)
    return cross_domain.CorpusInputs(
        features={"f1": np.zeros((n, 10))}, word_freqs=sp.csr_matrix((n, 1)), n_words=np.ones(n, np.int64),
        cutoff=np.zeros(n), n_marks=np.ones(n, np.int64), texts=prepared,
        text_words=distortion.word_counts(prepared, len(ids)),
    )


def test_dv_sa_vectors_keep_the_training_books_words_only():
    # training books "the cat, the dog." and "the cow."; the test book's own frequent word
    # ("zebra") is masked: k = 1 keeps "the" only
    inputs = _text_inputs(["the cat, the dog.", "the cow.", "zebra zebra the"])
    options = cross_domain.DistortionOptions((1,), ngram=3, n_features=2)
    X_train, X_test = cross_domain.distortion_vectors(inputs, "dv_sa", np.array([0, 1]), np.array([2]), 1, options)
    # distorted: "the *, the *." (11 trigrams: "the" 2, "he " 2, "e *" 2, ...), "the *." (4: "the",
    # "he ", "e *", " *."), "* * the" (5: "* *", " * ", "* t", " th", "the"); the two n-grams of
    # largest mean relative frequency: "e *" and "he " (2/11 + 1/4) tie with "the", ties to the smaller code
    np.testing.assert_allclose(X_train, [[2 / 11, 2 / 11], [1 / 4, 1 / 4]])
    np.testing.assert_allclose(X_test, [[0.0, 0.0]])


def test_the_distortion_k_is_chosen_on_the_training_books_only():
    texts = ["the cat sat. a dog ran.", "the cat ran. a dog sat.", "a cat, the dog.", "the dog, a cat.",
             "cat cat cat dog.", "dog dog the a."]
    labels = np.array(["x", "x", "y", "y", "x", "y"], dtype=object)
    train, test = np.array([0, 1, 2, 3]), np.array([4, 5])
    options = cross_domain.DistortionOptions((1, 2, 4), ngram=3, n_features=20)
    first = cross_domain.method_matrices(_text_inputs(texts), "dv_ma", train, test, labels,
                                         distortion_options=options, seed=0)
    other = texts[:4] + ["zebra zebra zebra.", "quite other words here."]
    second = cross_domain.method_matrices(_text_inputs(other), "dv_ma", train, test, labels,
                                          distortion_options=options, seed=0)
    assert first[2] == second[2] and first[2] in (1, 2, 4)
    np.testing.assert_array_equal(first[0], second[0])
    assert not np.array_equal(first[1], second[1])


def test_pair_books_are_the_books_a_compared_pair_can_draw():
    authors = np.array(["a", "a", "a", "a", "b", "b", "b", "b", "c", "c", "a"], dtype=object)
    groups = np.array(["x", "x", "y", "y", "x", "x", "y", "y", "x", "y", "z"], dtype=object)
    # a and b have two books in x and in y; c one in each; a's book in z is in no pair
    taking_part = cross_domain.pair_books(authors, {"form": groups}, 2, 2)
    assert taking_part.tolist() == [True] * 8 + [False, False, False]
    assert not cross_domain.pair_books(authors, {"form": groups}, 2, 3).any()
