"""Planning of the maps of the corpus and of the rolling-attribution check (rule files
workflow/rules/maps.smk and rolling.smk, issue 23): inputs, report labels and targets, as plain
functions of the config."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from punctstyle.descriptive.map_families import WORDS, family_features, family_is_distribution
from punctstyle.plan.rows import ROLLING_WORD_METHODS
from punctstyle.marks import DISTRIBUTION_FEATURES
from punctstyle.plan.targets import out, word_stream_inputs

SECTION_MAPS = "Maps of the corpus"
SECTION_ROLLING = "Rolling attribution"
MAP_FIGURES: tuple[str, ...] = ("pca", "mds_delta", "mds_kl", "dendrogram")
KL_MAP = "mds_kl"
"""The map drawn only for a family where KL applies (rule corpus_map_kl): never a placeholder."""
KL_FAMILY_PATTERN = "|".join(sorted(DISTRIBUTION_FEATURES))
"""Rule corpus_map_kl's families (:func:`punctstyle.descriptive.map_families.family_is_distribution`)."""


def family_map_figures(family: str) -> tuple[str, ...]:
    """The maps planned for ``family``: every one of :data:`MAP_FIGURES`, the KL map only when KL
    applies to the family."""
    return tuple(name for name in MAP_FIGURES if name != KL_MAP or family_is_distribution(family))
MAP_LABEL_POLICY = (
    "points and leaves coloured by author for the maps.top_k_authors authors with the most "
    "documents (legend), every other author grey; dendrogram leaves: surname and the title's "
    "first 18 characters, one leaf per author above maps.max_leaves documents"
)


def map_family_name(config: dict[str, Any], family: str) -> str:
    """How the figures name a family of features."""
    if family == WORDS:
        return f"the {config['maps']['words']} most frequent words"
    return f"punctuation {family}"


def map_tables(config: dict[str, Any], family: str) -> list[str]:
    """The corpus tables a family's maps read."""
    return [out(config, f"corpus/{feature}.parquet") for feature in family_features(family)]


def map_words(config: dict[str, Any], family: str) -> list[str]:
    """The corpus word matrix, for the words family only."""
    return [out(config, "corpus/words.npz")] if family == WORDS else []


def map_words_k(config: dict[str, Any], family: str) -> int:
    return int(config["maps"]["words"]) if family == WORDS else 0


def map_families(config: dict[str, Any]) -> list[str]:
    """maps.families as configured (on excerpts the corpus word matrix has each excerpt's own
    counts, so the words family runs too)."""
    return list(config["maps"]["families"])


def rolling_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The rolling block the job reads, as configured (its word methods read each excerpt's own
    words on excerpts)."""
    return {**config["rolling"], "methods": list(config["rolling"]["methods"])}


def maps_outputs(config: dict[str, Any]) -> list[str]:
    """Every file of the maps when maps.enabled, for rule all."""
    if not config["maps"]["enabled"]:
        return []
    files = []
    for family in map_families(config):
        files += [out(config, f"analysis/maps/{family}_{kind}") for kind in ("coordinates.csv", "consensus_edges.csv", "summary.json")]
        files += [out(config, f"figures/maps/{family}_{name}.{ext}")
                  for name in family_map_figures(family) for ext in ("png", "pdf")]
    return files


def rolling_word_inputs(config: dict[str, Any], book_ids: Iterable[int], rules_file: str) -> dict[str, Any]:
    """The word methods' inputs: the selected books' words files (their word streams, kept at
    extraction), texts and the tokenizer ``rules_file`` (for a words file of an older punctstyle,
    re-tokenized) and the corpus word matrix; none without a word method."""
    if not set(rolling_settings(config)["methods"]) & set(ROLLING_WORD_METHODS):
        return {}
    return {
        **word_stream_inputs(config, book_ids, rules_file, words_key="word_files"),
        "words": out(config, "corpus/words.npz"),
    }


def rolling_outputs(config: dict[str, Any]) -> list[str]:
    """Files of the rolling check when rolling.enabled, for rule all."""
    if not config["rolling"]["enabled"]:
        return []
    return [
        out(config, "analysis/rolling/collaborations.csv"),
        out(config, "analysis/rolling/summary.csv"),
        out(config, "figures/rolling/collaborations.png"),
        out(config, "figures/rolling/collaborations.pdf"),
    ]
