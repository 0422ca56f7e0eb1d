"""Config documentation where users look for it: every schema key has a description, and
config/README.md is the text generated from the schema."""

from __future__ import annotations

from pathlib import Path

import yaml

from punctstyle.report.config_docs import config_markdown, type_text, undocumented_keys
from punctstyle.settings import SCHEMA_PATH, coerce_config_types, config_error, schema_defaults

REPO = Path(__file__).resolve().parents[2]


def test_every_schema_key_has_a_description():
    assert undocumented_keys() == []


def test_config_readme_is_generated_from_the_schema():
    text = (REPO / "config" / "README.md").read_text(encoding="utf-8")
    assert text == config_markdown(), "config/README.md is stale: python -m punctstyle.report.config_docs > config/README.md"


def test_config_yaml_sets_the_schema_defaults():
    """config/config.yaml and the schema agree on every default (one place for defaults)."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    defaults = schema_defaults()

    def compare(ours, theirs, path):
        if isinstance(theirs, dict):
            for key, value in theirs.items():
                assert key in ours, f"config.yaml lacks {path}{key}"
                compare(ours[key], value, f"{path}{key}.")
        else:
            assert ours == theirs, f"{path[:-1]}: config.yaml {ours!r} != schema default {theirs!r}"

    compare(config, defaults, "")
    assert config_error(config) is None


def test_type_text():
    assert type_text({"type": "integer", "minimum": 1}) == "integer >= 1"
    assert type_text({"type": ["string", "null"]}) == "string or null"
    assert type_text({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}) == "list of `a` \\| `b`"
    assert type_text({"anyOf": [{"type": "integer"}, {"type": "string", "enum": ["all"]}]}) == "integer or `all`"


def test_command_line_strings_get_the_schema_types():
    """Snakemake hands nested --config values over as strings."""
    given = {
        "outdir": "out",
        "mirror": {"timeout_s": "3", "catalog_file": "null", "max_text_mb": "0.5"},
        "selection": {"min_docs_per_author": "3", "unique_titles": "false", "max_docs": "~"},
        "extraction": {},
        "recognition": {"class_sizes": ["10", "all"], "seeds": ["0", "1"], "mlp": {"device": "cpu"}},
    }
    config = coerce_config_types(given)
    assert config["mirror"] == {"timeout_s": 3, "catalog_file": None, "max_text_mb": 0.5}
    assert config["selection"] == {"min_docs_per_author": 3, "unique_titles": False, "max_docs": None}
    assert config["recognition"]["class_sizes"] == [10, "all"] and config["recognition"]["seeds"] == [0, 1]
    assert config["recognition"]["mlp"]["device"] == "cpu" and config["outdir"] == "out"


def test_config_errors_are_one_line_naming_the_key():
    base = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    unknown = config_error({**base, "seletion": {}})
    assert unknown.startswith("config: unknown key seletion (allowed: outdir, mirror, selection")
    nested = config_error({**base, "mirror": {**base["mirror"], "retry": 1}})
    assert nested.startswith("config: unknown key mirror.retry (allowed in mirror: base_url")
    wrong = config_error({**base, "selection": {**base["selection"], "min_docs_per_author": "x"}})
    assert wrong == "config selection.min_docs_per_author: 'x' is not of type 'integer'"
    for message in (unknown, nested, wrong):
        assert "\n" not in message
    assert SCHEMA_PATH.is_file()
