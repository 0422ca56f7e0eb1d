"""Which recognition rows keep their fitted networks, and which store files a later analysis's
row reads: the planning half of the fit store (:mod:`punctstyle.experiments.fit_store` writes and
reads the files; issue 26: a trained network is trained once)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from punctstyle.experiments.fit_store import STORED_METHOD
from punctstyle.featuresets import word_methods


def stored_views(config: Mapping[str, Any], task: str) -> list[str]:
    """The MLP feature views of ``task``'s recognition rows that later analyses read: the
    length curve's MLP sets when it trains on whole books (``length_curve.training`` holds
    ``"whole"``), and ``"f3"`` for the f3 importance, each only when the recognition grid trains
    that view: a punctuation set in ``recognition.methods.mlp``, a word set (``words1000``,
    ``all+words1000``) among the MLP sets of the word baselines (``recognition.words``, whose
    tasks must hold ``task``: :func:`punctstyle.featuresets.word_methods`). Author task only."""
    if task != "author":
        return []
    grid = set(config["recognition"]["methods"].get(STORED_METHOD) or [])
    words = config["recognition"].get("words")
    grid |= set(word_methods(words, task).get(STORED_METHOD) or []) if words else set()
    views: list[str] = []
    length = config["length_curve"]
    if length["enabled"] and "whole" in length["training"]:
        views += list(length["methods"].get(STORED_METHOD) or [])
    if config["beyond"]["importance"]["enabled"]:
        views.append("f3")
    return [name for name in dict.fromkeys(views) if name in grid]


def consumer_class_sizes(config: Mapping[str, Any]) -> list[int]:
    """The class sizes of the analyses that read stored fits (length curve, f3 importance)."""
    sizes: list[int] = []
    if config["length_curve"]["enabled"]:
        sizes += [int(s) for s in config["length_curve"]["class_sizes"]]
    if config["beyond"]["importance"]["enabled"]:
        sizes += [int(s) for s in config["beyond"]["importance"]["class_sizes"]]
    return sorted(set(sizes))


def fitted_file(outdir: str, task: str, class_size: int | str, seed: int | str) -> str:
    """The store file of one recognition row, next to its models folder (the ``recognition``
    rule's ``fitted`` output: ``{outdir}/models/{task}/{classes}_classes/seed{seed}_fitted.npz``)."""
    return f"{outdir}/models/{task}/{class_size}_classes/seed{seed}_fitted.npz"


def fitted_inputs(config: Mapping[str, Any], task: str, class_size: int | str, seed: int | str) -> list[str]:
    """The store files a consumer row (``class_size``, ``seed``) may read: the recognition row of
    the same size and, when ``"all"`` is configured, the ``"all"`` row (a size capped to every
    class is computed there); none when the grid does not run that seed or stores no view."""
    recognition = config["recognition"]
    if not stored_views(config, task) or int(seed) not in [int(s) for s in recognition["seeds"]]:
        return []
    sizes = [str(s) for s in recognition["class_sizes"]]
    files = [fitted_file(config["outdir"], task, s, seed) for s in (str(class_size), "all") if s in sizes]
    return list(dict.fromkeys(files))
