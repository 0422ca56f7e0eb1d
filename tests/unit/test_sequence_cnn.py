"""The classifier on raw punctuation sequences and its rows (punctstyle.classifiers.sequence_cnn,
punctstyle.training.sequence_recognition)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
import torch

from punctstyle import classifiers
from punctstyle.analyses.paper import recognition_run
from punctstyle.classifiers import sequence_cnn as S
from punctstyle.marks import FEATURES, feature_column_names
from punctstyle.settings import schema_default
from punctstyle.report.sequence_table import comparison_display
from punctstyle.training.sequence_recognition import (
    ROW_COLUMNS,
    comparison_table,
    read_sequence_rows,
    sequence_row,
    sequence_row_split,
    write_sequence_row,
)
from tests.unit.recognition_data import feature_dict

TINY = S.SequenceParams.from_config(dict(
    window_marks=64,
    windows_per_document=4,
    test_windows=8,
    channels=8,
    kernel_size=3,
    embedding_dim=4,
    epochs=2,
    batch_size=8,
    learning_rate=0.01,
))


def habit_documents(n_per_author: int, length: int, seed: int):
    """Two authors: A writes ', , .' with short word gaps (about 3 words); B writes '; ! ?' with long
    ones (about 12 words), each with 20% of the other's marks."""
    rng = np.random.default_rng(seed)
    docs, labels = [], []
    for author, (own, other, gap) in {"A": ([4, 4, 5], [7, 0, 8], 3), "B": ([7, 0, 8], [4, 4, 5], 12)}.items():
        for _ in range(n_per_author):
            marks = np.where(rng.random(length) < 0.8, rng.choice(own, length), rng.choice(other, length))
            docs.append((marks.astype(np.uint8), rng.poisson(gap, length).astype(np.uint32)))
            labels.append(author)
    return docs, np.array(labels, dtype=object)


def test_gap_transform_is_log1p_of_the_capped_gap_over_log1p_cap():
    t = S.gap_transform(np.array([0, 1, 200, 1000]), cap=200)
    assert t.dtype == np.float32
    np.testing.assert_allclose(t, [0.0, math.log(2) / math.log(201), 1.0, 1.0], rtol=1e-6)


def test_training_windows_are_seeded_and_exact():
    # default_rng(0).random(4) = 0.63696, 0.26979, 0.04097, 0.01653: floor(u * 7) for the first
    # document (10 marks, starts 0..6), 0 for the second (3 marks: one padded window)
    doc, start = S.sample_windows(np.array([10, 3]), 4, 2, np.random.default_rng(0))
    assert doc.tolist() == [0, 0, 1, 1]
    assert start.tolist() == [4, 1, 0, 0]
    again = S.sample_windows(np.array([10, 3]), 4, 2, np.random.default_rng(0))
    assert again[1].tolist() == start.tolist()
    other = S.sample_windows(np.array([1000]), 4, 3, np.random.default_rng(1))[1]
    assert other.tolist() != S.sample_windows(np.array([1000]), 4, 3, np.random.default_rng(2))[1].tolist()
    assert other.min() >= 0 and other.max() <= 996


def test_prediction_windows_tile_the_document_evenly():
    # 10 marks, window 4: ceil(10/4) = 3 windows at 0, 3, 6; 3 marks: one window at 0; 9 marks, at
    # most 2 windows: 0 and 5; 9 marks, 3 windows: 0, round(2.5) = 3, 5
    doc, start = S.tiling_windows(np.array([10, 3, 9]), 4, 3)
    assert doc.tolist() == [0, 0, 0, 1, 2, 2, 2]
    assert start.tolist() == [0, 3, 6, 0, 0, 3, 5]
    doc, start = S.tiling_windows(np.array([9]), 4, 2)
    assert start.tolist() == [0, 5]


def test_windows_are_read_from_the_packed_documents_and_padded():
    docs = [
        (np.array([0, 1, 2, 3, 4], np.uint8), np.array([0, 1, 2, 3, 4], np.uint32)),
        (np.array([9, 8], np.uint8), np.array([7, 0], np.uint32)),
    ]
    packed = S.PackedDocuments.pack(docs, gap_cap=3)
    codes, gaps, valid = packed.windows(np.array([0, 1]), np.array([2, 0]), 3)
    assert codes.tolist() == [[2, 3, 4], [9, 8, S.PAD]]
    assert valid.tolist() == [[True, True, True], [True, True, False]]
    np.testing.assert_allclose(gaps, [[math.log(3) / math.log(4), 1, 1], [1, 0, 0]], rtol=1e-6)


@pytest.mark.parametrize(
    ("docs", "message"),
    [
        ([(np.array([0, 10]), np.array([1, 1]))], "mark codes"),
        ([(np.array([0, 1]), np.array([1]))], "one length"),
        ([(np.array([], np.uint8), np.array([], np.uint32))], "no punctuation"),
        ([], "no documents"),
    ],
)
def test_bad_documents_are_rejected(docs, message):
    with pytest.raises(ValueError, match=message):
        S.PackedDocuments.pack(docs, 10)


def test_network_shapes_and_padding_does_not_change_the_logits():
    torch.manual_seed(0)
    net = S.SequenceCNN(3, channels=4, kernel_size=5, embedding_dim=2).eval()
    packed = S.PackedDocuments.pack([(np.arange(37) % 10, np.arange(37) % 7)], gap_cap=5)
    logits = {}
    for window in (37, 64, 100):
        tensors = S._batch_tensors(packed, np.array([0, 0]), np.array([0, 0]), window, "cpu")
        with torch.no_grad():
            logits[window] = net(*tensors)
        assert logits[window].shape == (2, 3)
    torch.testing.assert_close(logits[37], logits[64])
    torch.testing.assert_close(logits[37], logits[100])


def fixed_network(bias_b: float) -> S.SequenceCNN:
    """One channel that passes t(gap) through: the logit of class 0 is the largest t(g) of a window of
    at most 4 marks (mean and max of one pooled position), class 1's is ``bias_b``."""
    net = S.SequenceCNN(2, channels=1, kernel_size=1, embedding_dim=1)
    with torch.no_grad():
        for p in net.parameters():
            p.zero_()
        net.convolutions[0].weight[0, 1, 0] = 1.0  # input channels: [embedding, t(gap)]
        net.convolutions[1].weight.fill_(1.0)
        net.convolutions[2].weight.fill_(1.0)
        net.output.weight[0, 0] = 1.0  # the mean over the window
        net.output.bias[1] = bias_b
    return net.eval()


def test_document_scores_are_the_mean_of_window_log_probabilities_by_hand():
    params = S.SequenceParams.from_config(dict(window_marks=4, test_windows=2, channels=1, kernel_size=1, embedding_dim=1, gap_cap=1))
    model = S.TrainedSequenceCNN(fixed_network(0.1), np.array(["a", "b"], dtype=object), params)
    # document 1: windows [0..3] (all gaps 0: t = 0) and [4..7] (a gap >= cap: t = 1);
    # document 2: one window, gaps 0
    docs = [(np.zeros(8, np.uint8), np.array([0, 0, 0, 0, 0, 0, 0, 5], np.uint32)), (np.ones(3, np.uint8), np.zeros(3))]
    scores = model.predict_log_proba(docs)

    def log_probs(z):  # logits [z, 0.1]
        norm = math.log(math.exp(z) + math.exp(0.1))
        return [z - norm, 0.1 - norm]

    first = np.mean([log_probs(0.0), log_probs(1.0)], axis=0)
    np.testing.assert_allclose(scores, [first, log_probs(0.0)], rtol=1e-6)
    assert model.predict(docs).tolist() == ["a", "b"]  # 0.5 * (1 - 0.1) > 0; 0 < 0.1


def test_document_log_probs_averages_each_documents_windows():
    lp = np.log(np.array([[0.5, 0.5], [0.9, 0.1], [0.2, 0.8]]))
    got = S.document_log_probs(lp, np.array([0, 1, 0]), 2)
    np.testing.assert_allclose(
        got,
        [[(math.log(0.5) + math.log(0.2)) / 2, (math.log(0.5) + math.log(0.8)) / 2], [math.log(0.9), math.log(0.1)]],
    )
    with pytest.raises(ValueError, match="at least one window"):
        S.document_log_probs(lp, np.array([0, 0, 0]), 2)


def test_training_is_deterministic_on_cpu_and_restores_torch_state():
    docs, labels = habit_documents(3, 150, seed=0)
    threads = torch.get_num_threads()
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    first = S.train_sequence_cnn(docs, labels, params=TINY, seed=7, num_threads=1)
    assert torch.rand(1).item() == before.item()  # global RNG untouched
    assert torch.get_num_threads() == threads
    second = S.train_sequence_cnn(docs, labels, params=TINY, seed=7, num_threads=1)
    third = S.train_sequence_cnn(docs, labels, params=TINY, seed=8, num_threads=1)
    for name, value in first.network.state_dict().items():
        torch.testing.assert_close(value, second.network.state_dict()[name], rtol=0, atol=0)
    assert first.history == second.history and first.history != third.history
    assert len(first.history) == TINY.epochs


def test_the_device_argument_places_every_tensor(monkeypatch):
    # the CUDA code path is the device argument: the same code on CPU tensors via torch.device
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert S.resolve_device("auto") == "cuda"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert S.resolve_device("auto") == "cpu"
    with pytest.raises(ValueError, match="CUDA is not available"):
        S.train_sequence_cnn(*habit_documents(1, 50, 0), params=TINY, seed=0, device="cuda")
    docs, labels = habit_documents(2, 100, seed=1)
    packed = S.PackedDocuments.pack(docs, TINY.gap_cap)
    device = torch.device("cpu")
    tensors = S._batch_tensors(packed, np.array([0, 1]), np.array([0, 5]), 64, device)
    assert all(t.device == device for t in tensors)
    model = S.train_sequence_cnn(docs, labels, params=TINY, seed=0)
    model.device = device  # what a CUDA model holds, a torch.device
    doc, start = S.tiling_windows(packed.lengths, TINY.window_marks, TINY.test_windows)
    lp = S.window_log_probs(model.network, packed, doc, start, TINY.window_marks, 3, device)
    np.testing.assert_allclose(S.document_log_probs(lp, doc, len(docs)), model.predict_log_proba(docs), rtol=1e-6)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_cuda_training_agrees_with_cpu():
    docs, labels = habit_documents(20, 300, seed=3)
    params = S.SequenceParams.from_config(dict(
        window_marks=100,
        windows_per_document=4,
        channels=8,
        kernel_size=3,
        embedding_dim=4,
        epochs=6,
        batch_size=16,
        learning_rate=0.01,
    ))
    cpu = S.SequenceCNNClassifier(seed=0, params=params, device="cpu").fit(docs, labels)
    gpu = S.SequenceCNNClassifier(seed=0, params=params, device="cuda").fit(docs, labels)
    assert gpu.model.device == "cuda"
    test_docs, test_labels = habit_documents(10, 300, seed=4)
    assert (gpu.predict(test_docs) == cpu.predict(test_docs)).mean() >= 0.95
    np.testing.assert_allclose(gpu.model.history[0], cpu.model.history[0], rtol=1e-3)


def test_two_authors_with_different_habits_are_learned_on_cpu():
    docs, labels = habit_documents(20, 300, seed=0)
    test_docs, test_labels = habit_documents(10, 300, seed=1)
    params = S.SequenceParams.from_config(dict(
        window_marks=100,
        windows_per_document=4,
        channels=8,
        kernel_size=3,
        embedding_dim=4,
        epochs=6,
        batch_size=16,
        learning_rate=0.01,
    ))
    model = classifiers.build_sequence_classifier("sequence_cnn", seed=0, params=params, num_threads=1)
    model.fit(docs, labels)
    assert (model.predict(test_docs) == test_labels).mean() > 0.9
    assert model.diagnostics() == {"epochs": 6}
    shuffled = classifiers.build_sequence_classifier("sequence_cnn", seed=0, params=params, num_threads=1)
    shuffled.fit(docs, np.random.default_rng(0).permutation(labels))
    assert (shuffled.predict(test_docs) == test_labels).mean() < 0.9


def test_save_load_round_trip(tmp_path):
    docs, labels = habit_documents(2, 100, seed=2)
    model = S.SequenceCNNClassifier(seed=0, params=TINY).fit(docs, labels)
    model.save(tmp_path / "model.pt")
    loaded = S.load_model(tmp_path / "model.pt")
    assert loaded.params == TINY and loaded.classes.tolist() == ["A", "B"] and loaded.history == model.model.history
    np.testing.assert_allclose(loaded.predict_log_proba(docs), model.predict_log_proba(docs), rtol=1e-6)
    with pytest.raises(RuntimeError, match="before fit"):
        S.SequenceCNNClassifier(seed=0).predict(docs)


def test_params_from_the_config_block():
    params = S.SequenceParams.from_config(
        {"window_marks": "500", "learning_rate": 0.01, "enabled": True, "device": "auto"}
    )
    assert params.window_marks == 500 and params.learning_rate == 0.01
    assert params.epochs == schema_default("beyond", "sequence", "epochs")
    with pytest.raises(ValueError, match="channels"):
        S.SequenceParams.from_config({"channels": 0})


def test_the_schema_holds_the_models_defaults():
    # stated once: the class has no default of its own, an empty block reads the schema's
    assert all(field.default is dataclasses.MISSING for field in dataclasses.fields(S.SequenceParams))
    block = schema_default("beyond", "sequence")
    assert S.SequenceParams.from_config({}) == S.SequenceParams.from_config(block)
    assert S.SequenceParams.from_config({}).window_marks == block["window_marks"]
    assert set(block) - set(S.SequenceParams.__dataclass_fields__) == {"enabled", "class_sizes", "device", "threads"}


def test_sequence_classifiers_are_registered_apart_from_the_feature_classifiers():
    spec = classifiers.SEQUENCE_CLASSIFIERS["sequence_cnn"]
    assert spec.input_kind == "sequence" and spec.load_factory() is S.SequenceCNNClassifier
    assert all(s.input_kind == "features" for s in classifiers.CLASSIFIERS.values())
    assert classifiers.display_name("sequence_cnn") == "sequence CNN"
    with pytest.raises(ValueError, match="unknown sequence classifier"):
        classifiers.build_sequence_classifier("mlp", seed=0)
    with pytest.raises(ValueError, match="input kind"):
        classifiers.ClassifierSpec("x", "a:b", input_kind="words")


def corpus_tables(seed: int):
    """Corpus-like f1..f7 tables of 8 authors x 6 books (shuffled), a genre missing for some books."""
    features, labels = feature_dict(8, 6, seed)
    book_ids = np.arange(100, 100 + labels.size)
    genre = np.where(np.arange(labels.size) % 5 == 0, None, np.array(["g1", "g2", "g3"])[np.arange(labels.size) % 3])
    meta = pd.DataFrame({"book_id": book_ids, "author": labels, "genre": pd.array(genre, dtype=object)})
    tables = {}
    for name in FEATURES:
        X = features.get(
            name, np.full((labels.size, len(feature_column_names(name))), 1.0 / len(feature_column_names(name)))
        )
        tables[name] = pd.concat([meta, pd.DataFrame(X, columns=feature_column_names(name))], axis=1)
    return tables


@pytest.mark.parametrize(
    ("task", "class_size", "seed"), [("author", 3, 0), ("author", 5, 2), ("author", "all", 1), ("genre", 2, 4)]
)
def test_the_split_is_the_recognition_grids(task, class_size, seed):
    tables = corpus_tables(seed)
    run = recognition_run(
        tables, task, class_size, seed, methods={"kl": ["f1"]}, test_fraction=0.2, classifier_options={}
    )
    grid = run.experiments[0]
    data = sequence_row_split(tables["f1"], task, class_size, seed, 0.2)
    assert data.n_classes == grid.n_classes
    np.testing.assert_array_equal(data.split.train_index, grid.train_index)
    np.testing.assert_array_equal(data.split.test_index, grid.test_index)
    np.testing.assert_array_equal(data.split.classes, grid.classes)
    assert data.labels[data.split.test_index].tolist() == grid.y_true.tolist()


def test_a_row_trains_on_the_training_books_and_round_trips(tmp_path):
    tables = corpus_tables(0)
    data = sequence_row_split(tables["f1"], "author", 2, 0, 0.2)
    docs, _ = habit_documents(len(data.book_ids), 60, seed=0)
    seen = {}

    class Recorder:
        def fit(self, documents, y):
            seen["train"] = [d[0].tolist() for d in documents]
            seen["classes"] = sorted(set(y))

        def predict(self, documents):
            return np.array([seen["classes"][0]] * len(documents), dtype=object)

    row = sequence_row(data, docs, task="author", seed=0, method="sequence_cnn", make=Recorder)
    assert seen["train"] == [docs[i][0].tolist() for i in data.split.train_index]
    assert seen["classes"] == data.split.classes.tolist()
    y_test = data.labels[data.split.test_index]
    assert row.loc[0, "accuracy"] == pytest.approx(np.mean(y_test == seen["classes"][0]))
    assert row.loc[0, "n_train"] == data.split.train_index.size and row.loc[0, "feature_set"] == "sequence"
    write_sequence_row(tmp_path / "row.csv", row)
    write_sequence_row(tmp_path / "empty.csv", None)
    back = read_sequence_rows([tmp_path / "row.csv", tmp_path / "empty.csv"])
    assert list(back.columns) == ROW_COLUMNS and len(back) == 1 and back.loc[0, "accuracy"] == row.loc[0, "accuracy"]


def test_comparison_table_averages_both_classifiers_over_the_same_seeds():
    def rows(method, feature_set, n_classes, accs, seeds, **extra):
        return pd.DataFrame(
            {
                "task": "author",
                "n_classes": n_classes,
                "seed": seeds,
                "method": method,
                "feature_set": feature_set,
                "n_train": 40,
                "n_test": 10,
                "accuracy": accs,
                "baseline": 0.1,
                "n_fallback": 0,
                "epochs": 3,
                **extra,
            }
        )

    seq = pd.concat(
        [
            rows(
                "sequence_cnn",
                "sequence",
                10,
                [0.5, 0.7],
                [0, 1],
                train_seconds=[10.0, 20.0],
                predict_seconds=1.0,
                device="cpu",
            )
        ]
    )
    rec = pd.concat(
        [
            rows("mlp", "f3", 10, [0.6, 0.8, 0.1], [0, 1, 2]),
            rows("kl", "f3", 10, [0.3, 0.3], [0, 1]),
            rows("mlp", "f3", 50, [0.2], [0]),
        ]
    )
    table = comparison_table(seq, rec)
    assert table[["method", "feature_set", "n_seeds"]].values.tolist() == [
        ["sequence_cnn", "sequence", 2],
        ["mlp", "f3", 2],
    ]
    np.testing.assert_allclose(table["accuracy"], [0.6, 0.7])  # seed 2 of the MLP has no sequence row
    np.testing.assert_allclose(table["accuracy_std"], [math.sqrt(0.02), math.sqrt(0.02)])
    assert table.loc[0, "train_seconds"] == 15.0 and math.isnan(table.loc[1, "train_seconds"])
    shown = comparison_display(table)
    assert shown.loc[0, "sequence CNN"] == "0.60 ± 0.14" and shown.loc[0, "neural network f3"] == "0.70 ± 0.14"
    assert shown.loc[0, "training s (sequence)"] == "15"


def test_excerpt_accuracies_score_the_length_curves_excerpts():
    """The sequence classifier on test books cut to n marks: the same excerpts as the length
    curve (cut_excerpt with the row's seed and the book id), books shorter than n used whole and
    counted, or left out."""
    import pandas as pd

    from punctstyle.book.excerpts import cut_excerpt
    from punctstyle.training.sequence_recognition import excerpt_accuracies, length_summary, sequence_row_split

    table = pd.DataFrame({"book_id": [11, 12, 13, 14, 15, 16, 17, 18, 19, 20], "author": list("aaaaabbbbb")})
    data = sequence_row_split(table, "author", 2, 0, 0.2)
    rng = np.random.default_rng(3)
    lengths_of = {11: 300, 12: 40, 13: 300, 14: 300, 15: 300, 16: 300, 17: 40, 18: 300, 19: 300, 20: 300}
    documents = [
        (
            rng.integers(0, 10, lengths_of[int(b)]).astype(np.uint8),
            rng.integers(0, 9, lengths_of[int(b)]).astype(np.uint32),
        )
        for b in data.book_ids
    ]
    seen = []

    class Recorder:
        """Predicts "a" when the excerpt starts with an even mark; records what it is given."""

        def predict(self, docs):
            seen.append([(m.copy(), g.copy()) for m, g in docs])
            return np.array(["a" if m[0] % 2 == 0 else "b" for m, _ in docs], dtype=object)

    frame = excerpt_accuracies(Recorder(), data, documents, task="author", seed=0, method="x", lengths=[50, 100])
    test = data.split.test_index
    for k, n in enumerate((50, 100)):
        expected = [cut_excerpt(*documents[i], n, seed=0, doc_id=int(data.book_ids[i])) for i in test]
        assert [m.tolist() for m, _ in seen[k]] == [e.marks.tolist() for e in expected]
        truth = data.labels[test]
        predicted = ["a" if e.marks[0] % 2 == 0 else "b" for e in expected]
        assert frame["accuracy"].iloc[k] == pytest.approx(np.mean([p == y for p, y in zip(predicted, truth)]))
        assert frame["n_short_test"].iloc[k] == sum(not e.complete for e in expected)
    assert frame["length"].tolist() == ["50", "100"] and (frame["n_test"] == test.size).all()
    excluded = excerpt_accuracies(
        Recorder(), data, documents, task="author", seed=0, method="x", lengths=[50], short_documents="exclude"
    )
    assert excluded["n_test"].iloc[0] == test.size - frame["n_short_test"].iloc[0]
    with pytest.raises(ValueError, match="short-document rule"):
        excerpt_accuracies(
            Recorder(), data, documents, task="author", seed=0, method="x", lengths=[50], short_documents="x"
        )
    two = pd.concat([frame, frame.assign(seed=1, accuracy=frame["accuracy"] + 0.1)])
    summary = length_summary(two)
    assert summary["length"].tolist() == ["50", "100"] and (summary["n_seeds"] == 2).all()
    assert summary["accuracy"].tolist() == pytest.approx((frame["accuracy"] + 0.05).tolist())
    assert summary["accuracy_std"].tolist() == pytest.approx([0.1 / np.sqrt(2)] * 2)


@pytest.mark.parametrize("seed", [0, 3])
def test_with_excerpts_the_split_is_the_grids_and_keeps_texts_whole(seed):
    tables = corpus_tables(seed)
    sources = 7000 + np.arange(len(tables["f1"])) // 3  # three consecutive rows are one text's excerpts
    authors = tables["f1"]["author"].to_numpy(dtype=object)[np.arange(len(sources)) // 3 * 3]  # one author a text
    tables = {name: t.assign(source_id=sources, author=authors) for name, t in tables.items()}
    run = recognition_run(
        tables, "author", "all", seed, methods={"kl": ["f1"]}, test_fraction=0.2, classifier_options={}
    )
    grid = run.experiments[0]
    data = sequence_row_split(tables["f1"], "author", "all", seed, 0.2)
    np.testing.assert_array_equal(data.split.train_index, grid.train_index)
    np.testing.assert_array_equal(data.split.test_index, grid.test_index)
    assert data.split.test_index.size and not set(sources[data.split.train_index]) & set(sources[data.split.test_index])
