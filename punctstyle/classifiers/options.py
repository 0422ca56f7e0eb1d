"""The options a job hands to a classifier factory, built in one place from the run's config,
the job's hyper-parameters (its ``params``) and its threads.

Each registered classifier (:class:`punctstyle.classifiers.ClassifierSpec`) names its config
section (``recognition.<name>`` unless ``config_section`` says otherwise) and how it reaches the
factory. Hyper-parameters decide what a classifier computes and travel as the rule's ``params``
(:func:`classifier_params`: so that changing them re-runs the rule); the device and the number of
threads decide only where and how fast it runs, so they come from the config and the job's
``threads:`` at run time (:func:`options_by_classifier`). Every analysis that trains (the
recognition grid, the word baselines, the length curve, the f3 importance, the sequence network,
the attribution bundle, the cross-domain records) receives the mapping name -> options of
:func:`options_by_classifier`:

* ``runs_on_device`` (``mlp``, ``sequence_cnn``): ``{"params": <its section's hyper-parameters>,
  "device": <its section's device>, "num_threads": threads}``; a sequence classifier's device is
  resolved once (``resolve_device``), as the network's test batches follow it;
* ``option_kind="keywords"`` (``delta``): its config block, e.g. ``{"variant": ...,
  "zscore_over": ...}``; every job that builds Delta gets them whether or not its ``params`` name
  Delta;
* every other classifier: its hyper-parameters as ``{"params": <section>}`` when it has a section,
  else no options (``kl``): ``{}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from punctstyle.classifiers import CLASSIFIERS, SEQUENCE_CLASSIFIERS, any_classifier_spec
from punctstyle.settings import EXECUTION_ONLY_KEYS


def _config_value(config: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    value: Any = config
    for key in keys:
        value = value[key]
    return value


def _section(config: Mapping[str, Any], keys: tuple[str, ...]) -> Mapping[str, Any] | None:
    """The block at ``keys`` of ``config``; None when a key is missing or the value is no mapping."""
    value: Any = config
    for key in keys:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value if isinstance(value, Mapping) else None


def keyword_classifiers() -> list[str]:
    """The registered classifiers whose options are their config block (``option_kind="keywords"``)."""
    return [name for name, spec in {**CLASSIFIERS, **SEQUENCE_CLASSIFIERS}.items() if spec.option_kind == "keywords"]


def hyper_parameters(config: Mapping[str, Any], classifier_name: str) -> dict[str, Any] | None:
    """The hyper-parameters of ``classifier_name`` in ``config``: its section without the
    execution-only keys (:data:`punctstyle.settings.EXECUTION_ONLY_KEYS`: device, threads) and
    without its ``plan_keys``; None when the config has no such section (``kl``)."""
    spec = any_classifier_spec(classifier_name)
    section = spec.section(classifier_name)
    block = _section(config, section)
    if block is None:
        return None
    dropped = {path[-1] for path in EXECUTION_ONLY_KEYS if path[:-1] == section} | set(spec.plan_keys)
    return {key: value for key, value in block.items() if key not in dropped}


def classifier_params(config: Mapping[str, Any], names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Classifier -> its :func:`hyper_parameters`, for each of ``names`` that has a config
    section: what a training rule's ``params`` carry (one road for every analysis) and
    :func:`options_by_classifier` hands to the factories."""
    found = {name: hyper_parameters(config, name) for name in names}
    return {name: block for name, block in found.items() if block is not None}


def classifier_options(
    config: Mapping[str, Any], classifier_name: str, threads: int, params: Any = None
) -> dict[str, Any]:
    """The keyword options of ``build_classifier(classifier_name, ...)`` for a job with ``threads``
    threads: ``{"params": params, "device": ..., "num_threads": threads}`` for a classifier that
    ``runs_on_device`` (the device of its config section), its config block for one of
    ``option_kind="keywords"`` (the schema's types: the Snakefile has coerced ``--config``
    strings), ``{"params": params}`` for another one with hyper-parameters, ``{}`` for one without
    (``params`` None)."""
    spec = any_classifier_spec(classifier_name)
    section = spec.section(classifier_name)
    if spec.option_kind == "keywords":
        return dict(_config_value(config, section))
    if not spec.runs_on_device:
        return {} if params is None else {"params": params}
    device = str(_config_value(config, (*section, "device")))
    if spec.input_kind == "sequence":
        from punctstyle.classifiers.mlp import resolve_device  # lazy: imports torch

        device = resolve_device(device)
    return {"params": params, "device": device, "num_threads": threads}


def options_by_classifier(
    config: Mapping[str, Any], params_by_classifier: Mapping[str, Any], threads: int
) -> dict[str, dict[str, Any]]:
    """``classifier_options`` of every classifier in ``params_by_classifier`` (name -> its
    hyper-parameters, :func:`classifier_params`) and of every classifier of
    :func:`keyword_classifiers` (its options are the config's): the ``classifier_options``
    argument of every job that trains."""
    keywords = keyword_classifiers()
    names = [*params_by_classifier, *(name for name in keywords if name not in params_by_classifier)]
    return {name: classifier_options(config, name, threads, params_by_classifier.get(name)) for name in names}
