"""The workflow's settings: the schema (punctstyle/schemas/config.schema.yaml, package data;
workflow/schemas/config.schema.yaml is a link to it for Snakemake's ``validate``) is the one
place where every key, its type and its default are defined.

* :func:`schema_defaults` / :func:`schema_default`: the defaults the schema declares, for code
  that runs outside the workflow (the CLI) and must agree with it.
* :func:`load_settings`: the one loader of the settings classes (``MLPParams``,
  ``SequenceParams``, ``VerificationSettings``, ``AttributionSettings``, ``MapSettings``,
  ``RollingSettings``): a config block, completed with the schema's defaults and given the
  schema's types, as a frozen dataclass. No class states a default of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"
"""The configuration schema of the workflow (shipped in the package, so found from a wheel)."""


def safe_load_yaml(stream: Any) -> Any:
    """``yaml.safe_load`` of a string or an open file, with libyaml's C loader
    (``yaml.CSafeLoader``) when PyYAML was built with it, else the pure-Python ``SafeLoader``:
    the same safe subset and the same objects, parsed in C (the workflow reads its config and
    schema at every Snakemake start)."""
    import yaml

    loader = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader
    return yaml.load(stream, Loader=loader)


@cache
def load_schema(path: str | Path = SCHEMA_PATH) -> dict[str, Any]:
    """The schema as a dict (read once per process)."""
    with open(path, encoding="utf-8") as handle:
        return safe_load_yaml(handle)


def _defaults_of(node: dict[str, Any]) -> Any:
    properties = node.get("properties")
    if node.get("type") == "object" and properties:
        base = dict(node.get("default") or {})
        for key, child in properties.items():
            value = _defaults_of(child)
            if value is not _MISSING:
                base[key] = value
        return base
    return node.get("default", _MISSING)


_MISSING = object()


def schema_defaults(path: str | Path = SCHEMA_PATH) -> dict[str, Any]:
    """Every default of the schema, nested like the configuration."""
    return _defaults_of(load_schema(path))


def schema_default(*keys: str, path: str | Path = SCHEMA_PATH) -> Any:
    """The schema's default of one key, e.g. ``schema_default("mirror", "max_text_mb")``."""
    value: Any = schema_defaults(path)
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise KeyError(f"{'.'.join(keys)} has no default in {path}")
        value = value[key]
    return value


# ------------------------------------------------------------ command-line values and errors

_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}
_NULL = {"null", "~", "none"}


def _options(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a schema node: itself (its ``type``, one or a list) and its ``anyOf``s."""
    options = []
    kind = node.get("type")
    for name in [kind] if isinstance(kind, str) else list(kind or []):
        options.append({**node, "type": name})
    for option in node.get("anyOf", []) + node.get("oneOf", []):
        options += _options(option)
    return options


def _string_admits(option: dict[str, Any], value: str) -> bool:
    enum = option.get("enum")
    return enum is None or value in enum


def coerce_scalar(value: str, node: dict[str, Any]) -> Any:
    """A string from the command line as the schema type it reads as, else unchanged.

    Snakemake hands nested ``--config`` values over as strings (``'3'``, ``'true'``,
    ``'null'``): ``'3'`` -> 3 for ``integer`` (or ``number``), ``'0.5'`` -> 0.5 for
    ``number``, ``'true'``/``'false'`` -> bool for ``boolean``, ``'null'``/``'~'`` -> None for
    ``null``. A string that the schema admits as a string (an enumerated value such as
    ``all``, any text for a free string) stays a string, except the null words where null is
    allowed.
    """
    text = value.strip()
    lower = text.lower()
    types = {option["type"]: option for option in _options(node)}
    if "null" in types and lower in _NULL:
        return None
    if "string" in types and _string_admits(types["string"], value):
        return value
    if "boolean" in types and lower in _TRUE | _FALSE:
        return lower in _TRUE
    if "integer" in types or "number" in types:
        try:
            return int(text)
        except ValueError:
            pass
    if "number" in types:
        try:
            return float(text)
        except ValueError:
            pass
    return value


def coerce_config_types(config: Any, schema: dict[str, Any] | None = None) -> Any:
    """``config`` with every string leaf converted to the type its schema key asks for.

    Walks objects (``properties``) and arrays (``items``); returns a new structure. Strings
    that read as no allowed type stay as they are (validation then names the key).
    """
    schema = load_schema() if schema is None else schema
    if isinstance(config, dict):
        properties = schema.get("properties", {})
        return {
            key: coerce_config_types(value, properties[key]) if key in properties else value
            for key, value in config.items()
        }
    if isinstance(config, list):
        items = schema.get("items", {})
        return [coerce_config_types(value, items) for value in config]
    if isinstance(config, str):
        return coerce_scalar(config, schema)
    return config


def _key_path(path: Any) -> str:
    parts = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts) or "(top level)"


def config_error(config: dict[str, Any], schema: dict[str, Any] | None = None) -> str | None:
    """One line describing the first thing wrong with ``config``, or None when it is valid.

    Unknown keys name the key and the allowed keys of that block (not the whole schema).
    """
    import jsonschema

    schema = load_schema() if schema is None else schema
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.absolute_path), list(map(str, e.path))))
    if not errors:
        return None
    error = errors[0]
    where = _key_path(error.absolute_path)
    if error.validator == "additionalProperties":
        node = error.schema
        unknown = sorted(set(error.instance) - set(node.get("properties", {})))
        allowed = ", ".join(node.get("properties", {}))
        prefix = "" if where == "(top level)" else f"{where}."
        names = ", ".join(f"{prefix}{key}" for key in unknown)
        return f"config: unknown key {names} (allowed{' in ' + where if prefix else ''}: {allowed})"
    message = error.message
    if error.validator in ("anyOf", "oneOf"):
        alternatives = " or ".join(_describe_schema(node) for node in error.validator_value)
        message = f"{error.instance!r} is not allowed: expected {alternatives}"
    if len(message) > 200:
        message = message[:197] + "..."
    return f"config {where}: {message}"


_TYPE_WORDS = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "null"}


def _describe_schema(node: dict[str, Any]) -> str:
    """A schema alternative in words: ``an integer of at least 2``, ``'all'``, ``a list``."""
    if "enum" in node:
        return " or ".join(repr(value) for value in node["enum"])
    if "const" in node:
        return repr(node["const"])
    kind = node.get("type")
    words = _TYPE_WORDS.get(kind, "a value") if isinstance(kind, str) else "a value"
    bounds = []
    if "minimum" in node:
        bounds.append(f"at least {node['minimum']}")
    if "exclusiveMinimum" in node:
        bounds.append(f"above {node['exclusiveMinimum']}")
    if "maximum" in node:
        bounds.append(f"at most {node['maximum']}")
    if "exclusiveMaximum" in node:
        bounds.append(f"below {node['exclusiveMaximum']}")
    if "minItems" in node:
        bounds.append(f"with at least {node['minItems']} item{'s' if node['minItems'] != 1 else ''}")
    joiner = " of " if kind in ("integer", "number") else " "
    return words + (joiner + " and ".join(bounds) if bounds else "")


# ------------------------------------------------------------ settings classes from the schema

SettingsClass = TypeVar("SettingsClass")


def schema_node(*keys: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The schema of one config block, e.g. ``schema_node("recognition", "mlp")``."""
    node = load_schema() if schema is None else schema
    for key in keys:
        properties = node.get("properties", {})
        if key not in properties:
            raise KeyError(f"the schema has no key {'.'.join(keys)}")
        node = properties[key]
    return node


def schema_typed(value: Any, node: dict[str, Any]) -> Any:
    """``value`` as the type the schema ``node`` asks for.

    A string reads as :func:`coerce_scalar` reads it (``'3'`` -> 3, ``'null'`` -> None); an
    integer where only ``number`` is allowed becomes a float (``1`` -> ``1.0``); an array
    becomes a tuple of its items, each typed by ``items``; anything else is unchanged.
    """
    if isinstance(value, str):
        value = coerce_scalar(value, node)
    if isinstance(value, (list, tuple)):
        items = node.get("items", {})
        return tuple(schema_typed(item, items) for item in value)
    types = {option["type"] for option in _options(node)}
    if isinstance(value, int) and not isinstance(value, bool) and "number" in types and "integer" not in types:
        return float(value)
    return value


def schema_values(keys: tuple[str, ...], block: Mapping[str, Any] | None,
                  schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The config block at ``keys``: every key the schema declares there, ``block``'s value
    where it has one, else the schema's default, each :func:`schema_typed`. Keys of ``block``
    that the schema does not declare there are left out."""
    node = schema_node(*keys, schema=schema)
    given = dict(block or {})
    values: dict[str, Any] = {}
    for key, child in node.get("properties", {}).items():
        value = given[key] if key in given else _defaults_of(child)
        if value is not _MISSING:
            values[key] = schema_typed(value, child)
    return values


def load_settings(cls: type[SettingsClass], block: Mapping[str, Any] | None,
                  schema: dict[str, Any] | None = None) -> SettingsClass:
    """A settings dataclass from its config block: ``cls.SECTION`` names the block (e.g.
    ``("recognition", "mlp")``), ``cls.SCHEMA_NAMES`` maps a field to its config key where the
    two differ (``hidden`` <- ``hidden_units``). Field ``f`` gets :func:`schema_values`' value
    of its key (the block's, else the schema's default, with the schema's type); a field
    without a config key keeps the class default."""
    values = schema_values(tuple(cls.SECTION), block, schema)
    names = getattr(cls, "SCHEMA_NAMES", {})
    arguments = {f.name: values[names.get(f.name, f.name)] for f in fields(cls)
                 if f.init and names.get(f.name, f.name) in values}
    return cls(**arguments)


# ------------------------------------------------------------ what decides the results

EXECUTION_ONLY_KEYS: tuple[tuple[str, ...], ...] = (
    ("mirror", "timeout_s"),
    ("mirror", "retries"),
    ("mirror", "backoff_s"),
    ("mirror", "attempt_deadline_s"),
    ("mirror", "user_agent"),
    ("recognition", "mlp", "threads"),
    ("recognition", "mlp", "device"),
    ("beyond", "sequence", "threads"),
    ("beyond", "sequence", "device"),
    ("scheduler_timers",),
)
"""Keys that decide how a run goes (retries, threads, device), not what it computes: they
are left out of every rule's ``params`` so that changing them reruns nothing."""


def without_execution_keys(config: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of ``config`` without :data:`EXECUTION_ONLY_KEYS` (what decides the results)."""
    import copy

    result = copy.deepcopy(dict(config))
    for path in EXECUTION_ONLY_KEYS:
        node = result
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
            if node is None:
                break
        if isinstance(node, dict):
            node.pop(path[-1], None)
    return result


# ------------------------------------------------------------ config files that do not parse


def config_file_error(path: str | Path) -> str | None:
    """One line naming ``path`` and what is wrong when it is not a YAML (or JSON) mapping, or
    None when it parses: ``my.yaml: not valid YAML: line 3, column 28: <problem>``. Snakemake's
    own message ("Config file is not valid JSON or YAML") names no file."""
    import yaml

    try:
        with open(path, encoding="utf-8") as handle:
            data = safe_load_yaml(handle)
    except OSError as exc:
        return f"{path}: cannot read the config file ({exc.strerror or exc})"
    except UnicodeDecodeError as exc:
        return f"{path}: not a UTF-8 text ({exc.reason} at byte {exc.start})"
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        detail = f"{context}, {problem}" if context else problem
        return f"{path}: not valid YAML: {where}{' '.join(str(detail).split())}"
    if data is not None and not isinstance(data, dict):
        return f"{path}: the config file must be a mapping of keys (found a {type(data).__name__})"
    return None


def configfile_arguments(arguments: list[str]) -> list[str]:
    """The files named by ``--configfile``/``--configfiles`` in a Snakemake command line (each
    option takes the words up to the next ``-`` word; ``--configfile=x`` too)."""
    files: list[str] = []
    taking = False
    for word in arguments:
        if word.startswith("-"):
            name, _, value = word.partition("=")
            taking = name in ("--configfile", "--configfiles")
            if taking and value:
                files.append(value)
                taking = False
        elif taking:
            files.append(word)
    return files


def main(arguments: list[str] | None = None) -> int:
    """``python -m punctstyle.settings SNAKEMAKE-ARGUMENTS``: exit 2 with one line on stderr
    when a ``--configfile`` does not parse (run.sh calls it before Snakemake)."""
    import sys

    words = sys.argv[1:] if arguments is None else arguments
    for path in configfile_arguments(words):
        error = config_file_error(path)
        if error:
            print(f"punctstyle: {error}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
