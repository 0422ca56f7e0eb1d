"""The classifier on raw punctuation sequences on the CPU and on a CUDA GPU, in one run: seconds to
train and to predict one (class size, seed) row of the author task, and the ratio CPU / GPU.

    python benchmarks/bench_sequence_model.py --corpus results/corpus [--sequences results/sequences]
        [--classes 50] [--seed 0] [--threads 2] [--devices cpu cuda] [--epochs 12 ...]
    python benchmarks/bench_sequence_model.py --synthetic [--classes 50] [--docs-per-class 15]

With ``--corpus`` (a run's ``corpus`` folder: ``f1.parquet`` gives the books and authors) the row
is the one of Tables 2-3 (:class:`punctstyle.experiments.row.Row` on the labelled rows of the table, the
split the workflow's ``sequence_row`` uses) and the documents are the books' ``sequences/{id}.parquet``
(``--sequences``, default: the ``sequences`` folder beside ``--corpus``). ``--synthetic`` needs no
corpus: each author writes marks from its own Markov chain (random transition matrix) with word gaps
drawn around an author mean. The network's settings are the schema's defaults (``beyond.sequence``),
overridden by the options. Needs numpy, pandas, pyarrow and torch only.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from punctstyle.classifiers.sequence_cnn import SequenceCNNClassifier, SequenceParams
from punctstyle.marks import N_MARKS
from punctstyle.experiments.row import Row
from punctstyle.experiments.splits import effective_class_size


def corpus_row(corpus: Path, sequences: Path, classes: int, seed: int, test_fraction: float):
    """Documents and labels of the row's books, and its train / test indices (into the documents)."""
    from punctstyle.book.sequence_file import read_sequence

    table = pd.read_parquet(corpus / "f1.parquet", columns=["book_id", "author"])
    table = table[table["author"].notna()].reset_index(drop=True)
    labels = table["author"].to_numpy(dtype=object)
    n_classes = effective_class_size(classes, np.unique(labels).size)
    split = Row.from_table(table, labels, task="author", n_classes=n_classes, seed=seed).split(test_fraction)
    keep = np.concatenate([split.train_index, split.test_index])
    docs = {}
    for i in keep:
        sequence, _ = read_sequence(sequences / f"{int(table['book_id'].iloc[i])}.parquet")
        docs[i] = (sequence.marks, sequence.gaps)
    return docs, labels, split.train_index, split.test_index


def synthetic_row(classes: int, docs_per_class: int, seed: int, test_fraction: float, length: int = 8000):
    """Authors with their own mark transition matrix (Dirichlet rows) and mean word gap (3..12);
    documents of ``length / 2`` to ``2 * length`` marks (the chains run for all documents at once)."""
    rng = np.random.default_rng(seed)
    author = np.repeat(np.arange(classes), docs_per_class)
    cumulative = np.cumsum(rng.dirichlet(np.full(N_MARKS, 0.7), size=(classes, N_MARKS)), axis=2)
    mean_gap = rng.uniform(3, 12, size=classes)
    lengths = rng.integers(length // 2, 2 * length, size=author.size)
    marks = np.empty((author.size, lengths.max()), dtype=np.uint8)
    marks[:, 0] = rng.integers(N_MARKS, size=author.size)
    for t in range(1, marks.shape[1]):  # a Markov chain is sequential in t, vectorised over documents
        rows = cumulative[author, marks[:, t - 1]]
        marks[:, t] = np.minimum((rng.random(author.size)[:, None] > rows).sum(axis=1), N_MARKS - 1)
    docs = {
        i: (marks[i, :n].copy(), rng.poisson(mean_gap[author[i]], n).astype(np.uint32)) for i, n in enumerate(lengths)
    }
    labels = np.array([f"author{a:03d}" for a in author], dtype=object)
    split = Row("author", classes, seed, labels).split(test_fraction)
    return docs, labels, split.train_index, split.test_index


def timed(device: str, fn):
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    start = time.perf_counter()
    result = fn()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--corpus", type=Path, help="a run's corpus folder (f1.parquet)")
    source.add_argument("--synthetic", action="store_true", help="synthetic authors, no corpus needed")
    parser.add_argument("--sequences", type=Path, help="the books' sequence files (default: ../sequences)")
    parser.add_argument("--classes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--docs-per-class", type=int, default=15, help="--synthetic only")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads (the profile's beyond.sequence.threads)")
    parser.add_argument("--devices", nargs="+", default=None, help="default: cpu, and cuda when present")
    defaults = SequenceParams.from_config({})  # the schema's beyond.sequence
    for field in dataclasses.fields(SequenceParams):
        flag = "--" + field.name.replace("_", "-")
        default = getattr(defaults, field.name)
        parser.add_argument(flag, type=type(default), default=None, help=f"default {default}")
    args = parser.parse_args()
    overrides = {f.name: getattr(args, f.name) for f in dataclasses.fields(SequenceParams)}
    params = dataclasses.replace(defaults, **{k: v for k, v in overrides.items() if v is not None})
    devices = args.devices or ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])

    if args.synthetic:
        docs, labels, train, test = synthetic_row(args.classes, args.docs_per_class, args.seed, args.test_fraction)
        what = f"synthetic, {args.classes} authors x {args.docs_per_class} documents"
    else:
        sequences = args.sequences or args.corpus.parent / "sequences"
        docs, labels, train, test = corpus_row(args.corpus, sequences, args.classes, args.seed, args.test_fraction)
        what = f"corpus {args.corpus}, {np.unique(labels[train]).size} authors, seed {args.seed}"
    train_docs, test_docs = [docs[i] for i in train], [docs[i] for i in test]
    marks = sum(d[0].size for d in train_docs)
    print(f"row: {what}; {train.size} training books ({marks:,} marks), {test.size} test books")
    print(f"params: {params}")
    names = {"cpu": f"{platform.processor() or platform.machine()} ({args.threads} threads)"}
    for device in devices:
        if device.startswith("cuda"):
            names[device] = torch.cuda.get_device_name(torch.device(device))
    print("devices: " + "; ".join(f"{d} = {names[d]}" for d in devices))
    print(f"{'device':>8} {'train s':>9} {'s/epoch':>8} {'predict s':>10} {'accuracy':>9}")
    seconds = {}
    for device in devices:
        model = SequenceCNNClassifier(seed=args.seed, params=params, device=device, num_threads=args.threads)
        fit_s, _ = timed(device, lambda m=model: m.fit(train_docs, labels[train]))
        predict_s, predicted = timed(device, lambda m=model: m.predict(test_docs))
        acc = float(np.mean(predicted == labels[test]))
        seconds[device] = fit_s
        print(f"{device:>8} {fit_s:9.1f} {fit_s / params.epochs:8.2f} {predict_s:10.2f} {acc:9.3f}", flush=True)
    if "cpu" in seconds:
        for device in (d for d in seconds if d != "cpu"):
            print(f"training time CPU / {names[device]}: {seconds['cpu'] / seconds[device]:.1f}x")


if __name__ == "__main__":
    main()
