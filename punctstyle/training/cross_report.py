"""The bodies of rule ``cross_analyses`` (issue 25) and of ``benchmarks/bench_cross_domain.py``:
read a run's corpus tables, word matrix, selection, catalog and sequence files, call
:mod:`punctstyle.training.cross_domain`, :mod:`punctstyle.training.translators` and
:mod:`punctstyle.descriptive.gap_weibull`, return their tables (the caller writes them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.descriptive import gap_weibull
from punctstyle.training import cross_domain, translators
from punctstyle.training.distortion_modes import reads_texts
from punctstyle.classifiers import build_classifier
from punctstyle.book.sequence_file import read_sequence
from punctstyle.corpus.words import read_word_matrix, select_vocabulary
from punctstyle.io import InputError
from punctstyle.corpus.tables import text_groups
from punctstyle.experiments.driver import Documents, Estimator, grid_splits, matrix_views, run_experiments
from punctstyle.featuresets import resolve_feature_set, word_set_parts


def _tables(corpus_dir: Path, features: Sequence[str]) -> dict[str, pd.DataFrame]:
    return {f: pd.read_parquet(corpus_dir / f"{f}.parquet") for f in features}


def method_features(methods: Mapping[str, Sequence[str]]) -> list[str]:
    """The punctuation features the configured methods read (f1 always: the masked unigrams'
    marks)."""
    needed = {"f1"}
    for inputs in methods.values():
        for name in inputs:
            if name in cross_domain.DISTORTIONS:
                continue
            parts = word_set_parts(name)
            base = name if parts is None else parts[0]
            if base is not None:
                needed.update(resolve_feature_set(base))
    return sorted(needed)


def distortion_options(genres: Mapping[str, Any]) -> cross_domain.DistortionOptions:
    """The distortion keys of a validated ``cross.genres`` block (cast: Snakemake passes strings)."""
    return cross_domain.DistortionOptions(tuple(int(k) for k in genres["distortion_k"]),
                                          int(genres["distortion_ngram"]), int(genres["distortion_features"]))


def text_reader(paths: Sequence[str | Path]) -> Callable[[int], str]:
    """``book_id -> cleaned text`` (:func:`punctstyle.text.clean.clean_text`) of the books'
    ``books/{id}.txt.gz`` files among ``paths``; a book without one: an :class:`InputError`."""
    from punctstyle.io import read_gzip_text
    from punctstyle.text.clean import clean_text

    by_id = {int(Path(p).name.split(".")[0]): Path(p) for p in paths}

    def read(book_id: int) -> str:
        if book_id not in by_id:
            raise InputError(f"book {book_id}: no books/{book_id}.txt.gz among the inputs of the distortion")
        return clean_text(read_gzip_text(by_id[book_id]))

    return read


def run_cross_domain(
    *,
    corpus_dir: Path,
    cross: Mapping[str, Any],
    methods: Mapping[str, Sequence[str]],
    seeds: Sequence[int],
    classifiers: Mapping[str, Mapping[str, Any]],
    config: Mapping[str, Any],
    threads: int,
    texts: Sequence[str | Path] = (),
) -> pd.DataFrame:
    """The records of :func:`punctstyle.training.cross_domain.cross_domain_records` on a run's
    corpus; ``texts``: the books' ``books/{id}.txt.gz`` files (methods reading ``dv_ma``, ``dv_sa``);
    ``classifiers``: the methods' hyper-parameters (:func:`punctstyle.classifiers.options.classifier_params`),
    their options with ``config``'s devices and ``threads``."""
    from punctstyle.classifiers.options import options_by_classifier

    genres = cross["genres"]
    methods = {name: list(inputs) for name, inputs in methods.items() if inputs}
    tables = _tables(corpus_dir, method_features(methods))
    first = next(iter(tables.values()))
    table = cross_domain.with_subjects(first, pd.read_parquet(corpus_dir / "selection.parquet"))
    groupings = {g: cross_domain.book_groups(table, g) for g in genres["groupings"]}
    labels = table["author"].to_numpy(dtype=object)
    inputs = cross_domain.corpus_inputs(
        tables, read_word_matrix(corpus_dir / "words.npz"), text_reader(texts) if reads_texts(methods) else None,
        cross_domain.pair_books(labels, groupings, int(genres["min_docs"]), int(genres["min_authors"])),
    )
    return cross_domain.cross_domain_records(
        inputs, labels, groupings, methods, seeds,
        min_docs=int(genres["min_docs"]), min_authors=int(genres["min_authors"]),
        test_fraction=float(genres["test_fraction"]), distortion_options=distortion_options(genres),
        classifier_options=options_by_classifier(config, classifiers, threads),
    )  # fmt: skip


def group_size_table(corpus_dir: Path, cross: Mapping[str, Any]) -> pd.DataFrame:
    """Every pair of groups of every configured grouping: authors and books taking part, and
    whether it reaches ``min_authors``."""
    genres = cross["genres"]
    table = cross_domain.with_subjects(
        pd.read_parquet(corpus_dir / "f1.parquet", columns=["book_id", "author", "bookshelves"]),
        pd.read_parquet(corpus_dir / "selection.parquet"),
    )
    frames = []
    for grouping in genres["groupings"]:
        sizes = cross_domain.group_sizes(table["author"], cross_domain.book_groups(table, grouping), int(genres["min_docs"]))
        sizes.insert(0, "grouping", grouping)
        frames.append(sizes)
    sizes = pd.concat(frames, ignore_index=True)
    sizes["compared"] = sizes["n_authors"] >= int(genres["min_authors"])
    return sizes


def sequence_paths(paths: Sequence[str | Path]) -> dict[int, Path]:
    """Book id -> its ``sequences/{id}.parquet`` path, from a list of such paths."""
    return {int(Path(p).name.split(".")[0]): Path(p) for p in paths}


def run_gap_weibull(table_path: Path, sequences: Mapping[int, Path]) -> pd.DataFrame:
    """Per corpus book: the discrete Weibull fits of its word gaps and of its sentence lengths
    (:mod:`punctstyle.descriptive.gap_weibull`), with its author, birth year and the number of zero
    gaps dropped."""
    table = pd.read_parquet(table_path, columns=["book_id", "title", "author", "birth"])
    rows = []
    for book_id in table["book_id"]:
        if int(book_id) not in sequences:
            raise InputError(f"{table_path}: book {int(book_id)} has no sequence file among the inputs")
        sequence, _ = read_sequence(sequences[int(book_id)])
        gaps = gap_weibull.fit_discrete_weibull(gap_weibull.word_gaps(sequence.gaps))
        sentences = gap_weibull.fit_discrete_weibull(gap_weibull.sentence_lengths(sequence.marks, sequence.gaps))
        rows.append((int(book_id), int(np.sum(np.asarray(sequence.gaps) == 0)),
                     gaps.n, gaps.p, gaps.beta, gaps.ks, sentences.n, sentences.p, sentences.beta, sentences.ks))  # fmt: skip
    fits = pd.DataFrame(rows, columns=[
        "book_id", "zero_gaps", "n_gaps", "p", "beta", "ks", "n_sentences", "sentence_p", "sentence_beta", "sentence_ks",
    ])  # fmt: skip
    return table.merge(fits, on="book_id")


def empty_translator_tables(books: pd.DataFrame, handling: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The translator tables when fewer than two corpus books are translated: ``books`` and
    ``handling`` as given, ``consistency``, ``follows`` and ``recognition`` empty (their columns only)."""
    return {
        "books": books,
        "consistency": pd.DataFrame(columns=["pairs", "n_pairs", "kl_mean", "kl_sd", "kl_median", "measure"]),
        "follows": pd.DataFrame(columns=["book_id", "author", "translator", "to_translator", "to_author", "follows", "measure"]),
        "recognition": pd.DataFrame(columns=["label", "method", "seed", "accuracy", "baseline", "n_classes", "n_books"]),
        "handling": handling,
    }


def translator_consistency(
    X: np.ndarray, W: np.ndarray, authors: np.ndarray, translator_names: np.ndarray, feature: str
) -> pd.DataFrame:
    """The pair kinds of the translated books (:func:`punctstyle.training.translators.pair_consistency`)
    on KL of ``feature`` (rows ``X``) and on word Delta (rows ``W``, :func:`_delta_consistency`)."""
    return pd.concat(
        [translators.pair_consistency(X, authors, translator_names).assign(measure=f"KL {feature}"),
         _delta_consistency(W, authors, translator_names)],
        ignore_index=True,
    )  # fmt: skip


def translator_follows(
    X: np.ndarray, W: np.ndarray, authors: np.ndarray, translator_names: np.ndarray, book_ids: np.ndarray, feature: str
) -> pd.DataFrame:
    """Whom each translated book is nearest to (:func:`punctstyle.training.translators.nearest_label`),
    on KL of ``feature`` (rows ``X``) and on Burrows' Delta of the 100 words (rows ``W``)."""
    return pd.concat(
        [translators.nearest_label(translators.pairwise_kl(X), authors, translator_names, book_ids).assign(measure=f"KL {feature}"),
         translators.nearest_label(translators.delta_distances(W), authors, translator_names, book_ids).assign(measure="Delta words100")],
        ignore_index=True,
    )  # fmt: skip


def run_translators(
    corpus_dir: Path, catalog_path: Path, cross: Mapping[str, Any], seeds: Sequence[int], *, min_docs_per_author: int = 10,
    test_fraction: float,
) -> dict[str, pd.DataFrame]:
    """The translator tables: ``books`` (each translated corpus book, its labels), ``consistency``
    (:func:`punctstyle.training.translators.pair_consistency`, KL and word Delta), ``follows``
    (:func:`punctstyle.training.translators.nearest_label`, both), ``recognition``
    (:func:`punctstyle.training.translators.label_recognition`) and ``handling`` (the main
    analyses with translated books kept or dropped: books, authors, KL accuracy, at the grid's
    ``test_fraction``). A text's excerpts (the table's ``source_id``) stay on one side of every split."""
    from punctstyle.sources.catalog import read_catalog

    feature = cross["translators"]["feature"]
    min_books = int(cross["translators"]["min_books"])
    table = pd.read_parquet(corpus_dir / f"{feature}.parquet")
    from punctstyle.corpus.tables import feature_matrix

    labels = translators.translator_labels(read_catalog(catalog_path))
    merged = table[["book_id", "title", "author"]].merge(labels, on="book_id", how="left")
    translated = merged["translator"].notna().to_numpy()
    X = feature_matrix(table, feature)
    matrix = read_word_matrix(corpus_dir / "words.npz")
    freqs = matrix.relative_frequencies(table["book_id"].to_numpy())
    idx = np.flatnonzero(translated)
    groups = text_groups(table)
    handling = translated_handling(X, merged["author"].to_numpy(dtype=object), translated, seeds, min_docs_per_author,
                                   groups=groups, test_fraction=test_fraction)  # fmt: skip
    if idx.size < 2:
        return empty_translator_tables(merged[translated].reset_index(drop=True), handling)
    columns = select_vocabulary(freqs[idx], 100, matrix.cutoff[matrix.rows_of(table["book_id"].to_numpy()[idx])]).columns
    W = freqs[idx][:, columns].toarray()
    authors = merged["author"].to_numpy(dtype=object)[idx]
    translator_names = merged["translator"].to_numpy(dtype=object)[idx]
    book_ids = merged["book_id"].to_numpy()[idx]
    consistency = translator_consistency(X[idx], W, authors, translator_names, feature)
    follows = translator_follows(X[idx], W, authors, translator_names, book_ids, feature)
    # recognition: the 100 words chosen on each split's training books only (the training-only rule)
    translated_freqs = freqs[idx]
    translated_cutoff = matrix.cutoff[matrix.rows_of(table["book_id"].to_numpy()[idx])]

    def training_vocabulary(train_rows: np.ndarray) -> np.ndarray:
        return select_vocabulary(translated_freqs[train_rows], 100, translated_cutoff[train_rows]).columns

    recognition = translators.label_recognition(
        {"kl": X[idx], "delta": translated_freqs}, {"original author": authors, "translator": translator_names},
        seeds, min_books, columns_for={"delta": training_vocabulary}, groups=None if groups is None else groups[idx],
    )
    return {
        "books": merged[translated].reset_index(drop=True),
        "consistency": consistency,
        "follows": follows,
        "recognition": recognition,
        "handling": handling,
    }


def _delta_consistency(W: np.ndarray, authors: np.ndarray, translator_names: np.ndarray) -> pd.DataFrame:
    """The pair kinds of :func:`punctstyle.training.translators.pair_consistency` on word Delta."""
    D = translators.delta_distances(W)
    same_a = authors[:, None] == authors[None, :]
    same_t = translator_names[:, None] == translator_names[None, :]
    off = ~np.eye(authors.size, dtype=bool)
    rows = []
    for kind, mask in {"same translator": same_t & ~same_a & off, "same author": same_a & ~same_t & off,
                       "same both": same_a & same_t & off, "neither": ~same_a & ~same_t}.items():  # fmt: skip
        v = D[mask]
        rows.append((kind, int(v.size), float(v.mean()) if v.size else np.nan,
                     float(v.std(ddof=1)) if v.size > 1 else np.nan, float(np.median(v)) if v.size else np.nan))  # fmt: skip
    return pd.DataFrame(rows, columns=["pairs", "n_pairs", "kl_mean", "kl_sd", "kl_median"]).assign(measure="Delta words100")


def translated_handling(
    X: np.ndarray, authors: np.ndarray, translated: np.ndarray, seeds: Sequence[int], min_docs_per_author: int,
    *, groups: np.ndarray | None, test_fraction: float,
) -> pd.DataFrame:
    """Author recognition (KL nearest class on f3, every author, the grid's closed-set split at
    ``test_fraction`` per seed, :func:`punctstyle.experiments.driver.grid_splits`; ``groups``: the text
    of each book, None for whole texts) with the translated books kept (labelled by original
    author, the default) or dropped (authors left with fewer than ``min_docs_per_author`` books
    dropped too): books, authors, accuracy."""
    rows = []
    kl = [Estimator("kl", lambda seed, view: build_classifier("kl", seed=int(seed), feature_set=("f3",)), ("f3",))]
    for choice, keep in (("kept (original author)", np.ones(authors.size, bool)), ("dropped", ~translated)):
        names, counts = np.unique(authors[keep].astype(str), return_counts=True)
        keep = keep & np.isin(authors.astype(str), names[counts >= min_docs_per_author])
        documents = Documents(authors[keep], None if groups is None else groups[keep])
        n_classes = documents.n_available
        if n_classes < 2:  # nothing to recognise: counted, no accuracy
            rows.append((choice, -1, int(keep.sum()), n_classes, int(translated[keep].sum()), np.nan))
            continue
        splits = grid_splits(documents, task="author", class_sizes=[n_classes], seeds=seeds, test_fraction=test_fraction)
        for record in run_experiments(documents, splits, matrix_views({"f3": X[keep]}), kl):
            rows.append((choice, record.split.seed, int(keep.sum()), n_classes, int(translated[keep].sum()),
                         record.scored.accuracy))  # fmt: skip
    return pd.DataFrame(rows, columns=["translated_books", "seed", "n_books", "n_authors", "n_translated", "accuracy"])


def gap_examples(fits: pd.DataFrame, sequences: Mapping[int, Path], max_k: int = 60) -> pd.DataFrame:
    """The goodness of fit of three books (the smallest, the median and the largest β of the word
    gaps): per gap length ``k = 1 .. max_k`` the observed share of gaps, the fitted ``P(k)``, the
    empirical and fitted survival ``S(k)``, and the fitted hazard ``h(k)``."""
    ranked = fits.dropna(subset=["beta"]).sort_values("beta").reset_index(drop=True)
    if ranked.empty:
        return pd.DataFrame(columns=["book_id", "title", "author", "which", "p", "beta", "k", "observed", "fitted",
                                     "observed_survival", "fitted_survival", "hazard"])  # fmt: skip
    picks = {"smallest beta": 0, "median beta": len(ranked) // 2, "largest beta": len(ranked) - 1}
    frames = []
    k = np.arange(1, max_k + 1)
    for which, position in picks.items():
        row = ranked.iloc[position]
        sequence, _ = read_sequence(sequences[int(row["book_id"])])
        gaps = gap_weibull.word_gaps(sequence.gaps)
        counts = np.bincount(np.minimum(gaps, max_k + 1), minlength=max_k + 2)[1 : max_k + 1]
        p, beta = float(row["p"]), float(row["beta"])
        frames.append(pd.DataFrame({
            "book_id": int(row["book_id"]), "title": row["title"], "author": row["author"], "which": which,
            "p": p, "beta": beta, "k": k, "observed": counts / gaps.size,
            "fitted": gap_weibull.survival(k - 1, p, beta) - gap_weibull.survival(k, p, beta),
            "observed_survival": 1.0 - np.cumsum(counts) / gaps.size,
            "fitted_survival": gap_weibull.survival(k, p, beta), "hazard": gap_weibull.hazard(k, p, beta),
        }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def weibull_by_era(fits: pd.DataFrame, years: int = 50) -> pd.DataFrame:
    """The word-gap and sentence-length ``(p, β)`` by the author's birth in bins of ``years``
    (mean, sd, books), and a last row ``all`` with Spearman's correlation of each parameter with
    the birth year (columns ``*_rho``)."""
    from scipy.stats import spearmanr

    known = fits.dropna(subset=["birth", "p", "beta"]).copy()
    known["era"] = (known["birth"].astype(int) // years) * years
    columns = ["p", "beta", "sentence_p", "sentence_beta"]
    table = known.groupby("era")[columns].agg(["mean", "std"])
    table.columns = [f"{a}_{b}" for a, b in table.columns]
    table["n_books"] = known.groupby("era").size()
    table["n_authors"] = known.groupby("era")["author"].nunique()
    table = table.reset_index()
    table["era"] = table["era"].astype(str)
    correlations = {"era": "all", "n_books": len(known), "n_authors": known["author"].nunique()}
    for column in columns:
        valid = known[column].notna()
        correlations[f"{column}_rho"] = float(spearmanr(known.loc[valid, "birth"], known.loc[valid, column]).statistic) if valid.sum() > 2 else np.nan
    return pd.concat([table, pd.DataFrame([correlations])], ignore_index=True)


F8_COLUMNS: tuple[str, ...] = ("p", "beta", "sentence_p", "sentence_beta")
"""The f8 vector of a book: the discrete Weibull (p, β) of its word gaps and of its sentence lengths."""


def weibull_consistency(fits: pd.DataFrame) -> pd.DataFrame:
    """Per f8 parameter: how much of its spread over books the author explains,
    ``eta^2 = 1 - sum_a sum_{d in a} (x_d - mean_a)^2 / sum_d (x_d - mean)^2`` (0: the author
    tells nothing; 1: every book of an author has its author's value), with the books and authors."""
    rows = []
    for column in F8_COLUMNS:
        known = fits.dropna(subset=[column])
        x = known[column].to_numpy(dtype=np.float64)
        within = known.groupby("author")[column].transform("mean").to_numpy()
        total = float(np.sum((x - x.mean()) ** 2))
        rows.append((column, len(known), known["author"].nunique(),
                     1.0 - float(np.sum((x - within) ** 2)) / total if total > 0 else np.nan))  # fmt: skip
    return pd.DataFrame(rows, columns=["parameter", "n_books", "n_authors", "eta_squared"])


def weibull_recognition(fits: pd.DataFrame, corpus_dir: Path, seeds: Sequence[int], *, test_fraction: float) -> pd.DataFrame:
    """Author recognition (every author, the grid's closed-set split at ``test_fraction`` per seed,
    :func:`punctstyle.experiments.driver.grid_splits`, a text's excerpts on one side) by Burrows'
    Delta on f8 (the four Weibull parameters), on f5 (the gap distribution f8 summarises) and on f8
    with f5, and by the KL nearest class on f5: one row per (input, seed). Books without a fit are
    left out of every input (the same books throughout)."""
    from punctstyle.corpus.tables import feature_matrix

    f5 = pd.read_parquet(corpus_dir / "f5.parquet")
    merged = f5.merge(fits[["book_id", *F8_COLUMNS]], on="book_id", how="inner").dropna(subset=list(F8_COLUMNS))
    y = merged["author"].to_numpy(dtype=object)
    f8 = merged[list(F8_COLUMNS)].to_numpy(dtype=np.float64)
    gap_distribution = feature_matrix(merged, "f5")
    inputs = {
        "delta:f8": ("delta", f8), "delta:f5": ("delta", gap_distribution),
        "delta:f5+f8": ("delta", np.hstack([gap_distribution, f8])), "kl:f5": ("kl", gap_distribution),
    }  # fmt: skip
    n_classes = int(np.unique(y).size)
    rows = []
    if n_classes < 2:
        return pd.DataFrame(columns=["input", "seed", "n_books", "n_authors", "accuracy", "baseline"])
    documents = Documents.from_table(merged, y)
    estimators = [Estimator(name, _input_classifier(classifier), (name,)) for name, (classifier, _) in inputs.items()]
    views = matrix_views({name: X for name, (_, X) in inputs.items()})
    splits = grid_splits(documents, task="author", class_sizes=[n_classes], seeds=seeds, test_fraction=test_fraction)
    for record in run_experiments(documents, splits, views, estimators):
        rows.append((record.feature_set, record.split.seed, len(y), n_classes, record.scored.accuracy,
                     record.scored.baseline))  # fmt: skip
    return pd.DataFrame(rows, columns=["input", "seed", "n_books", "n_authors", "accuracy", "baseline"])


def _input_classifier(classifier: str) -> Callable[[int, str], Any]:
    """``make(seed, input)``: the registered ``classifier`` built for one named input."""
    return lambda seed, view: build_classifier(classifier, seed=int(seed), feature_set=(view,))
