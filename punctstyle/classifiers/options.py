"""The options a job hands to a classifier factory, built in one place from the run's config,
the job's hyper-parameters (its ``params``) and its threads.

Hyper-parameters decide what a classifier computes and travel as the rule's ``params`` (so that
changing them re-runs the rule); the device and the number of threads decide only where and how
fast it runs, so they come from the config and the job's ``threads:`` at run time.

* ``mlp`` (recognition grid, word baselines, length curve, f3 importance, attribution bundle):
  ``{"params": <recognition.mlp hyper-parameters>, "device": config["recognition"]["mlp"]["device"],
  "num_threads": threads}``;
* ``sequence_cnn`` (the sequence network): ``{"params": <beyond.sequence hyper-parameters>,
  "device": resolve_device(config["beyond"]["sequence"]["device"]), "num_threads": threads}``
  (the device resolved once, as the network's test batches follow it);
* ``delta`` (recognition grid, word baselines, length curve): ``{"variant": ..., "zscore_over": ...}``
  from ``config["recognition"]["delta"]``; every job that builds Delta gets them whether or not
  its ``params`` name Delta;
* every other classifier: its hyper-parameters as ``{"params": <recognition.<name> block>}``
  when it has a block (``punctstyle.plan.rows.classifier_params``), else no options (``kl``): ``{}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEVICE_KEYS: dict[str, tuple[str, ...]] = {
    "mlp": ("recognition", "mlp", "device"),
    "sequence_cnn": ("beyond", "sequence", "device"),
}
"""Where in the config each classifier with options finds its device."""

CONFIG_OPTION_KEYS: dict[str, tuple[str, ...]] = {"delta": ("recognition", "delta")}
"""Where in the config each classifier whose options are config settings finds them (a block of
keyword options of its factory)."""


def _config_value(config: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    value: Any = config
    for key in keys:
        value = value[key]
    return value


def classifier_options(
    config: Mapping[str, Any], classifier_name: str, threads: int, params: Any = None
) -> dict[str, Any]:
    """The keyword options of ``build_classifier(classifier_name, ...)`` for a job with ``threads``
    threads: ``{"params": params, "device": ..., "num_threads": threads}`` for a classifier in
    :data:`DEVICE_KEYS`, the config block of one in :data:`CONFIG_OPTION_KEYS` (the schema's
    types: the Snakefile has coerced ``--config`` strings), ``{"params": params}`` for another one
    with hyper-parameters, ``{}`` for one without (``params`` None)."""
    if classifier_name in CONFIG_OPTION_KEYS:
        block = _config_value(config, CONFIG_OPTION_KEYS[classifier_name])
        return dict(block)
    if classifier_name not in DEVICE_KEYS:
        return {} if params is None else {"params": params}
    device = str(_config_value(config, DEVICE_KEYS[classifier_name]))
    if classifier_name == "sequence_cnn":
        from punctstyle.classifiers.mlp import resolve_device  # lazy: imports torch

        device = resolve_device(device)
    return {"params": params, "device": device, "num_threads": threads}


def options_by_classifier(
    config: Mapping[str, Any], params_by_classifier: Mapping[str, Any], threads: int
) -> dict[str, dict[str, Any]]:
    """``classifier_options`` of every classifier in ``params_by_classifier`` (name -> its
    hyper-parameters) and of every classifier of :data:`CONFIG_OPTION_KEYS` (its options are the
    config's), for the ``classifier_options`` argument of the experiment functions."""
    names = [*params_by_classifier, *(name for name in CONFIG_OPTION_KEYS if name not in params_by_classifier)]
    return {name: classifier_options(config, name, threads, params_by_classifier.get(name)) for name in names}
