"""Building the attribution bundle (:mod:`punctstyle.attribution.bundle`: its files, writers and
readers): the network of the registered classifier trained on every corpus book, the author
signatures, the length curves and calibration, and the manifest.

The held-out curves go through the experiment driver
(:func:`punctstyle.experiments.driver.run_points`), their rounds the driver splits of
:func:`punctstyle.attribution.length.fold_rounds` on the folds of :func:`bundle_folds`, their
classifiers from the registry: KL (:func:`punctstyle.attribution.length.kl_length_counts`), the
network (:func:`cross_fitted_mlp`, :meth:`Trainer.estimator`) and the Delta word methods
(:func:`punctstyle.attribution.bundle_words.word_length_curves`). The network's round is one
point whose test documents come once per length (whole, then cut to each grid length) with their
model inputs stacked the same way: one forward pass predicts every length, and the calibration
reads the probabilities of that same pass, as it did before the driver (a pass per length would
batch the network's float32 arithmetic differently, and its probabilities could move in the last
bits). Not through the driver, because nothing there is fitted and scored on held-out
documents: the deployed network and word models (fitted on every book) and the rolling choice's
synthetic collaborations (:func:`rolling_round`: change points, not attributions; its word
models are fitted on the first round's training books from the corpus tables' f1..f6)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from punctstyle import __version__
from punctstyle.attribution.bundle import (
    BUNDLE_FILES,
    BUNDLE_FORMAT,
    AttributionSettings,
    read_manifest,
    write_manifest,
    write_signatures,
    write_threshold,
)
from punctstyle.attribution.bundle_words import (
    WORD_METHODS,
    WordModels,
    count_frequencies,
    fit_word_models,
    punctuation_block,
    rolling_choice,
    word_length_curves,
    write_word_models,
)
from punctstyle.attribution.calibration import (
    aligned_probabilities,
    cross_fitted_record,
    length_inputs,
    text_folds,
)
from punctstyle.attribution.length import HeldOutRound, fold_rounds, threshold_record
from punctstyle.attribution.rolling import rolling_choice_record
from punctstyle.classifiers import build_classifier
from punctstyle.classifiers.options import options_by_classifier
from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.tables import text_groups
from punctstyle.experiments.driver import Documents, Estimator, Point, View, run_points
from punctstyle.features import compute_features
from punctstyle.text.language_rules import RECORD_FIELD as EXTRACTION_FIELD, ExtractionLanguage
from punctstyle.featuresets import matrices_from_tables, resolve_feature_set, stack_features
from punctstyle.marks import PAPER_FEATURES
from punctstyle.rule_names import FEATURES

if TYPE_CHECKING:  # torch is imported only when a model is trained or loaded
    from punctstyle.classifiers.mlp import TrainedMLP


CLASSIFIER = "mlp"
"""The registered classifier of the bundle (:data:`punctstyle.classifiers.CLASSIFIERS`)."""


@dataclass(frozen=True)
class Trainer:
    """How the bundle's networks are trained: the registered :data:`CLASSIFIER` built with
    ``options`` (:func:`punctstyle.classifiers.options.classifier_options`: its hyper-parameters,
    and where, not what, it runs), on the features of ``feature_set``, with ``seed``."""

    options: Mapping[str, Any]
    feature_set: tuple[str, ...]
    seed: int

    def estimator(self) -> Estimator:
        """The classifier as an estimator of the experiment driver (view :data:`INPUTS`), seeded
        by the split it is fitted on (the bundle's rounds carry ``attribution.seed``, :attr:`seed`)."""
        return Estimator(CLASSIFIER, lambda seed, view: build_classifier(
            CLASSIFIER, seed=seed, feature_set=self.feature_set, **self.options), (INPUTS,))

    @staticmethod
    def network(fitted: Any) -> TrainedMLP:
        """The trained network of a fitted classifier (``predict_proba``, ``classes``, ``save``)."""
        return fitted.model

    def train(self, X: np.ndarray, labels: np.ndarray) -> TrainedMLP:
        """A network fitted on every row given (the deployed one)."""
        return self.network(self.estimator().make(self.seed, INPUTS).fit(X, labels))

    def inputs_of(self, marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
        """The model inputs of one text (its features of :attr:`feature_set`, stacked)."""

        return stack_features(compute_features(marks, gaps), self.feature_set)[0]


INPUTS = "inputs"
"""The view the bundle's networks are trained on: the stacked features of :attr:`Trainer.feature_set`."""


def length_curves(sequences: Sequence[Any], features: Mapping[str, np.ndarray], labels: np.ndarray,
                  settings: AttributionSettings, trainer: Trainer,
                  groups: Sequence[Any] | None = None, kept: list[Any] | None = None) -> dict[str, Any]:
    """``threshold.json``: the KL threshold record plus ``mlp_curve``/``mlp_full_accuracy``/
    ``mlp_full`` and ``calibration``, every curve cross-fitted over the folds of
    :func:`bundle_folds` (each text held out once; :func:`punctstyle.attribution.length.fold_rounds`):
    KL signatures (:func:`punctstyle.attribution.length.threshold_record`) and one network per fold
    (:func:`cross_fitted_mlp`, which also gives the calibration). ``groups``: each document's text
    when documents are excerpts (whole texts are held out); ``kept``: a list that receives the
    network of the first round (fold 0 when it has a test text), trained without that fold's texts
    (the rolling choice's, :func:`build_word_models`)."""

    folds = bundle_folds(labels, groups, settings)
    record = threshold_record(sequences, labels, grid=settings.mark_grid, fraction=settings.fraction,
                              features=settings.threshold_features, test_fraction=settings.test_fraction,
                              seed=settings.seed, groups=groups, folds=folds)
    full_features = stack_features(features, trainer.feature_set)
    mlp = cross_fitted_mlp(sequences, labels, full_features, settings, trainer, folds, groups)
    if mlp["model"] is not None and kept is not None:
        kept.append(mlp["model"])
    return {**record, "folds": int(np.unique(folds).size), "mlp_full_accuracy": mlp["full_accuracy"],
            "mlp_full": mlp["full"], "mlp_curve": mlp["curve"], "calibration": mlp["calibration"]}


def calibration_folds(test_fraction: float) -> int:
    """The folds of the cross-fitted curves and calibration: ``K = max(2, round(1 / test_fraction))``
    (5 for the default 80/20 split: each network trains on the share of texts the former split's did)."""
    return max(2, int(round(1.0 / test_fraction)))


def bundle_folds(labels: Sequence[Any], groups: Sequence[Any] | None, settings: AttributionSettings) -> np.ndarray:
    """The fold of each document: :func:`punctstyle.attribution.calibration.text_folds` into
    :func:`calibration_folds` folds, seeded by ``attribution.seed`` (stratified by author, a text's
    excerpts together)."""
    return text_folds(np.asarray(labels, dtype=object), groups, calibration_folds(settings.test_fraction),
                      np.random.default_rng(settings.seed))


def counted_curve(right: np.ndarray, n_test: int, grid: Sequence[int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``({"n_test", "n_right"}`` at full length``, [{"n_marks", "accuracy", "n_test", "n_right"}])``
    from ``right`` (held-out texts attributed right: full length, then each length of ``grid``,
    ascending); ``accuracy = n_right / n_test`` (None without a test text)."""
    lengths = sorted({int(n) for n in grid})
    share = [None if n_test == 0 else float(r) / n_test for r in right]
    full = {"n_test": int(n_test), "n_right": int(right[0]), "accuracy": share[0]}
    return full, [{"n_marks": n, "accuracy": share[j + 1], "n_test": int(n_test), "n_right": int(right[j + 1])}
                  for j, n in enumerate(lengths)]


def network_point(held_out: HeldOutRound, sequences: Sequence[Any], full_features: np.ndarray, trainer: Trainer,
                  lengths: Sequence[int]) -> Point:
    """One round's point for the network: its test documents once per length, whole then cut to
    each of ``lengths`` (the split's ``test_index`` repeats them in that order), and the view of
    their model inputs stacked alike (:func:`punctstyle.attribution.calibration.length_inputs`),
    its training inputs the training documents' at full length."""
    split = replace(held_out, test_index=np.tile(held_out.test, len(lengths) + 1))
    test_inputs = length_inputs(sequences, held_out.test.tolist(), full_features, trainer.inputs_of, lengths)
    return split, {INPUTS: View(np.asarray(full_features)[held_out.train], test_inputs)}


def cross_fitted_mlp(sequences: Sequence[Any], labels: np.ndarray, full_features: np.ndarray,
                     settings: AttributionSettings, trainer: Trainer, folds: np.ndarray,
                     groups: Sequence[Any] | None = None) -> dict[str, Any]:
    """The MLP's held-out curve and the calibration from one network per fold: for each round of
    :func:`punctstyle.attribution.length.fold_rounds` (seeded with ``attribution.seed``), the
    driver fits ``trainer``'s estimator (the deployed recipe) on the other folds and predicts the
    fold's texts whole and cut to each grid length (:func:`network_point`). The curve counts the
    right top-1 answers, ``accuracy(n) = sum_k right_k(n) / sum_k n_k``; the probabilities of the
    same predictions give :func:`punctstyle.attribution.calibration.cross_fitted_record`. Returns
    ``{"full_accuracy", "full": {"n_test", "n_right"}, "curve", "calibration", "model"}``
    (``model``: the first round's network; None, an empty curve and no calibration without a round)."""
    y = np.asarray(labels, dtype=object)
    classes = np.unique(y.astype(str))
    index = {c: j for j, c in enumerate(classes.tolist())}
    lengths = sorted({int(n) for n in settings.mark_grid})
    points = [network_point(r, sequences, full_features, trainer, lengths)
              for r in fold_rounds(y, folds, settings.seed)]
    right = np.zeros(len(lengths) + 1, dtype=np.int64)
    n_test, first = 0, None
    blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    records = run_points(Documents(y, groups), points, [trainer.estimator()])
    for (split, views), record in zip(points, records, strict=True):
        network = trainer.network(record.scored.model)
        first = network if first is None else first
        y_test = y[split.test_index]
        right += (record.y_pred == y_test).reshape(len(lengths) + 1, -1).sum(axis=1)
        n_test += y_test.size // (len(lengths) + 1)
        truth = np.array([index[str(label)] for label in y_test], dtype=np.int64)
        proba = aligned_probabilities(network.predict_proba(views[INPUTS].test), [str(c) for c in network.classes],
                                      classes.tolist())
        blocks.append((proba, truth, np.full(truth.size, split.fold)))
    if not blocks:  # no test text: the KL record says so in its note
        return {"full_accuracy": None, "full": None, "curve": [], "calibration": None, "model": None}
    full, curve = counted_curve(right, n_test, lengths)
    proba, truth, fold = (np.concatenate(parts) for parts in zip(*blocks, strict=True))
    return {"full_accuracy": full.pop("accuracy"), "full": full, "curve": curve,
            "calibration": cross_fitted_record(proba, truth, fold), "model": first}


def cross_fitted_calibration(sequences: Sequence[Any], labels: np.ndarray, full_features: np.ndarray,
                             settings: AttributionSettings, trainer: Trainer,
                             groups: Sequence[Any] | None = None) -> dict[str, Any] | None:
    """The ``calibration`` of :func:`cross_fitted_mlp` on the folds of :func:`bundle_folds` (None
    without a prediction)."""
    folds = bundle_folds(labels, groups, settings)
    return cross_fitted_mlp(sequences, labels, full_features, settings, trainer, folds, groups)["calibration"]


def corpus_matrices(tables: Mapping[str, pd.DataFrame]) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """The features, ``author`` labels and book ids of the corpus tables f1..f6; a ValueError
    without a table of :data:`punctstyle.rule_names.FEATURES` or without a book."""
    missing = [f for f in FEATURES if f not in tables]
    if missing:
        raise ValueError(f"no corpus table for feature {missing[0]}")
    features, labels, book_ids = matrices_from_tables({f: tables[f] for f in FEATURES}, "author")
    if labels.size == 0:
        raise ValueError("the corpus has no book: nothing to attribute to")
    return features, labels, book_ids


def build_attribution_bundle(
    tables: Mapping[str, pd.DataFrame],
    sequence_paths: Sequence[Any],
    outputs: Mapping[str, Any],
    *,
    settings: AttributionSettings,
    classifier_options: Mapping[str, Mapping[str, Any]],
    log: Callable[[str], None] = lambda message: None,
    word_files: Any = None,
    extraction: ExtractionLanguage | None = None,
) -> dict[str, Any]:
    """Train, measure and write the attribution bundle; return the manifest.

    ``tables``: the corpus tables f1..f6 (one row per book, ``author`` labels; or per excerpt,
    then the length curves hold out whole texts and read excerpts with
    :func:`document_sequences`); ``sequence_paths``: ``sequences/{id}.parquet`` files, those of
    the corpus books among them (others are ignored); ``outputs``: paths keyed like
    :data:`BUNDLE_FILES`; ``classifier_options``: classifier name -> its options
    (:func:`punctstyle.classifiers.options.options_by_classifier`), the networks trained with
    those of :data:`CLASSIFIER`; ``word_files``: the books' words
    (:class:`punctstyle.corpus.words.CorpusWordFiles`, indexed like the tables' rows: ``stream(i,
    marks, gaps)`` and ``counts(i)``), for the word methods (:func:`build_word_models`; none without
    it or with ``settings.words`` 0); ``extraction``: the language and dialogue-dash option the
    corpus was extracted with (default: English, none), recorded in the manifest's ``extraction``
    field so that new texts are extracted alike (:mod:`punctstyle.text.language_rules`). Every
    file is written atomically, the manifest last.
    """
    features, labels, book_ids = corpus_matrices(tables)
    trainer = Trainer(classifier_options[CLASSIFIER], resolve_feature_set(settings.feature_set), settings.seed)
    log(f"training the MLP on {labels.size} books by {np.unique(labels).size} authors, "
        f"features {'+'.join(trainer.feature_set)}")
    model = trainer.train(stack_features(features, trainer.feature_set), labels)
    log(f"MLP: {model.epochs} epochs (best {model.best_epoch})")
    table = tables[FEATURES[0]]
    sequences = document_sequences(sequence_paths, table, book_ids)
    groups = text_groups(table, book_ids)
    kept: list[TrainedMLP] = []
    threshold = length_curves(sequences, features, labels, settings, trainer, groups, kept)
    log(f"minimum marks for attribution: {threshold['min_marks']} ({threshold['note']})")
    word_models = None
    if word_files is not None and settings.words > 0:
        word_models, extra = build_word_models(sequences, features, labels, settings, trainer, groups,
                                          kept[-1] if kept else None, threshold, word_files)
        threshold = {**threshold, **extra}
        rolling = extra["rolling"] or {}
        log(f"word methods: {len(word_models.words)} words; rolling default {rolling.get('default')} "
            f"(change-point F1 on {rolling.get('n_collaborations', 0)} collaborations of held-out books)")
    return write_bundle(outputs, model, features, labels, threshold, word_models, settings, groups, extraction)


def write_bundle(outputs: Mapping[str, Any], model: TrainedMLP, features: Mapping[str, np.ndarray], labels: np.ndarray,
                 threshold: Mapping[str, Any], word_models: WordModels | None, settings: AttributionSettings,
                 groups: Sequence[Any] | None, extraction: ExtractionLanguage | None) -> dict[str, Any]:
    """Write the bundle's files (:data:`BUNDLE_FILES`, ``words`` when the rule asks for it: empty
    without word methods), each atomically, the manifest last; return the manifest as read back."""
    from punctstyle.classifiers.mlp import save_model  # lazy: loads torch

    save_model(outputs["model"], model)
    write_signatures(outputs["signatures"], features, labels)
    write_threshold(outputs["threshold"], threshold)
    if "words" in outputs:  # the rule's output: without word methods an empty file (no words, no method)
        write_word_models(outputs["words"], word_models or WordModels((), {}))
    manifest = bundle_manifest(model, settings, labels, threshold, groups)
    manifest["word_methods"] = list(WORD_METHODS) if word_models is not None else []
    manifest["rolling_choice"] = rolling_choice_record(threshold)
    manifest[EXTRACTION_FIELD] = (extraction or ExtractionLanguage()).as_record()
    write_manifest(outputs["manifest"], manifest)
    return read_manifest(outputs["manifest"])


def build_word_models(sequences: Sequence[Any], features: Mapping[str, np.ndarray], labels: np.ndarray,
                 settings: AttributionSettings, trainer: Trainer, groups: Sequence[Any] | None,
                 split_model: TrainedMLP | None, threshold: Mapping[str, Any],
                 word_files: Any) -> tuple[WordModels, dict]:
    """The deployed word models (:mod:`punctstyle.attribution.bundle_words`, the ``settings.words``
    most frequent words of every corpus book, Delta fitted on every book) and what
    ``threshold.json`` gains: ``word_curves`` (held-out accuracy per length, cross-fitted over the
    folds of the MLP's and KL's curves, :func:`bundle_folds`, through the experiment driver:
    :func:`punctstyle.attribution.bundle_words.word_length_curves`) and ``rolling``
    (:func:`rolling_round` on the first round of those folds, ``split_model`` its network).
    Without held-out books (``split_model`` None) ``word_curves`` is empty and ``rolling`` None."""
    from punctstyle.corpus.words import training_vocabulary

    y = np.asarray(labels, dtype=object)

    def stream(i: int) -> np.ndarray:
        return np.asarray(word_files.stream(i, *sequences[i]), dtype=object)

    book_counts = [word_files.counts(int(i)) for i in np.arange(y.size)]  # each words file read once
    words = training_vocabulary(book_counts, settings.words)
    word_rows = np.vstack([count_frequencies(*c, words) for c in book_counts])
    models = fit_word_models(punctuation_block(features), word_rows, y, words)
    rounds = fold_rounds(y, bundle_folds(y, groups, settings), settings.seed)
    if split_model is None or not rounds:
        return models, {"word_curves": {}, "words": len(words), "rolling": None}
    curves = word_length_curves(sequences, stream, book_counts.__getitem__, y, rounds, settings.mark_grid,
                                settings.words, groups)
    choice = rolling_round(sequences, stream, features, y, settings, trainer, rounds[0], split_model, threshold,
                           book_counts)
    return models, {"word_curves": curves, "words": len(words), "rolling": choice}


def rolling_round(sequences: Sequence[Any], stream: Callable[[int], np.ndarray], features: Mapping[str, np.ndarray],
                  y: np.ndarray, settings: AttributionSettings, trainer: Trainer, held_out: HeldOutRound,
                  split_model: TrainedMLP, threshold: Mapping[str, Any],
                  book_counts: Sequence[tuple[Any, np.ndarray]]) -> dict[str, Any]:
    """``rolling`` of ``threshold.json``: :func:`punctstyle.attribution.bundle_words.rolling_choice`
    on one round (``held_out``: its held-out books in the collaborations, its training books for
    the word models and KL signatures, ``split_model`` its network), at the window ``punctstyle
    rolling`` uses by default (:func:`punctstyle.attribution.rolling.rolling_window`), shrunk to
    what the collaboration parts hold (:func:`punctstyle.attribution.rolling.choice_window`;
    ``window`` and ``command_window`` record both; ``fold`` the fold held out); the punctuation
    method is the one :func:`punctstyle.attribution.rolling.best_method_at` picks at that window,
    scored by that network or KL signatures."""
    from punctstyle.attribution.rolling import (
        PROBABILITY, SliceScores, best_method_at, choice_window, default_step, kl_slice_scores, rolling_window)
    from punctstyle.classifiers.kl_nearest import class_signatures
    from punctstyle.corpus.words import training_vocabulary

    train, test = held_out.train, held_out.test
    split_words = training_vocabulary((book_counts[int(i)] for i in train), settings.words)
    split_rows = np.vstack([count_frequencies(*book_counts[int(i)], split_words) for i in train])
    split_models = fit_word_models(punctuation_block({f: features[f][train] for f in PAPER_FEATURES}),
                                   split_rows, y[train], split_words)
    command_window = rolling_window(threshold)
    window = choice_window(command_window, settings.part_marks[0])
    punctuation_method = best_method_at(threshold, settings.kl_features, window)[0]
    if punctuation_method == "mlp":
        def punctuation(slices: Mapping[str, np.ndarray]) -> Any:
            proba = split_model.predict_proba(stack_features(slices, trainer.feature_set))
            return SliceScores("mlp", PROBABILITY, np.asarray(split_model.classes, dtype=object), proba)
    else:
        feature = punctuation_method[3:]
        authors, signatures, _ = class_signatures(features[feature][train], y[train])

        def punctuation(slices: Mapping[str, np.ndarray]) -> Any:
            return kl_slice_scores(signatures, authors, slices[feature], feature)

    choice = rolling_choice(sequences, stream, y, train, test, split_models, punctuation, window=window,
                            step=default_step(window), per_kind=settings.collaborations,
                            part_marks=settings.part_marks, seed=settings.seed,
                            feature_names=tuple(dict.fromkeys([*PAPER_FEATURES, *trainer.feature_set])))
    choice["punctuation_method"] = punctuation_method
    choice["fold"] = int(held_out.fold)
    choice["command_window"] = int(command_window)
    return choice


def bundle_manifest(model: TrainedMLP, settings: AttributionSettings, labels: np.ndarray,
                    threshold: Mapping[str, Any], groups: Sequence[Any] | None = None) -> dict[str, Any]:
    """What ``manifest.json`` records: versions, the model, the corpus size (``n_books``: its
    documents; ``n_texts`` too when they are excerpts of texts, ``groups``), the settings."""
    import torch  # lazy: torch is slow to import


    texts = {} if groups is None else {"n_texts": int(np.unique(np.asarray(groups, dtype=object)).size)}
    return {
        "format": BUNDLE_FORMAT,
        "punctstyle_version": __version__,
        "torch_version": str(torch.__version__),
        "files": dict(BUNDLE_FILES),
        "feature_set_name": settings.feature_set,
        "feature_set": list(model.feature_set),
        "kl_features": list(settings.kl_features),
        "classes": [str(c) for c in model.classes],
        "n_authors": int(np.unique(labels).size),
        "n_books": int(labels.size),
        **texts,
        "min_marks": threshold["min_marks"],
        "mlp": {
            "params": asdict(model.params),
            "seed": int(model.seed),
            "epochs": int(model.epochs),
            "best_epoch": int(model.best_epoch),
            "device": str(model.device),
        },
        "settings": {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(settings).items()},
    }


def attribution_model_job(config: Mapping[str, Any], params: Any, threads: int, inputs: Any, outputs: Any, log: Any) -> dict:
    """Rule attribution_model: the bundle from the corpus tables (``inputs.tables``, in the order of
    :data:`punctstyle.rule_names.FEATURES`) and ``inputs.sequences``, written to ``outputs``;
    ``params``: the ``attribution`` settings (:attr:`AttributionSettings.KEYS`), ``language`` and
    ``dialogue_dash`` (the corpus's extraction, recorded in the manifest) and ``classifiers``, the
    hyper-parameters of :data:`CLASSIFIER` keyed by its name (its options:
    :func:`punctstyle.classifiers.options.options_by_classifier` with the job's ``threads`` and
    the config's device). Returns the manifest."""
    options = options_by_classifier(config, params.classifiers, threads)
    tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, inputs.tables, strict=True)}
    word_files = None
    if "word_files" in inputs.keys():  # excerpts: each excerpt's own words (document_word_files)
        from punctstyle.corpus.words import document_word_files
        from punctstyle.text.tokenizer import TokenizerRules

        table = tables[FEATURES[0]]
        book_ids = table["book_id"].tolist()
        documents = document_sequences(list(inputs.sequences), table, book_ids)
        word_files = document_word_files(
            documents, table, book_ids, inputs.texts, inputs.word_files, TokenizerRules.load(inputs.rules)
        )
    manifest = build_attribution_bundle(
        tables,
        list(inputs.sequences),
        dict(outputs.items()),
        word_files=word_files,
        settings=AttributionSettings.from_config({key: getattr(params, key) for key in AttributionSettings.KEYS}),
        classifier_options=options,
        log=log.info,
        extraction=ExtractionLanguage.of(params.language, params.dialogue_dash),
    )
    log.info(
        "bundle: %d books, %d authors, min_marks %s", manifest["n_books"], manifest["n_authors"], manifest["min_marks"]
    )
    return manifest
