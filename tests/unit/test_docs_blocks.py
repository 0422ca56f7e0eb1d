"""Every YAML and shell block of README.md and docs/*.md is checked: YAML parses (and config
snippets validate against the schema over the defaults); command lines name existing flags and
repository files; relative links point to existing files. A block preceded by
``<!-- not-checked: reason -->`` is skipped."""

from __future__ import annotations

import copy
import re
import shlex
from pathlib import Path

import pytest
import yaml

from punctstyle.cli import build_parser
from punctstyle.settings import config_error, schema_defaults

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"(<!-- not-checked:[^>]*-->\s*)?```(\w*)\n(.*?)```", re.S)
REPO_PATH = re.compile(r"^(config|benchmarks|profiles)/")


def blocks(path: Path) -> list[tuple[str, str]]:
    """(language, text) of every fenced block not marked not-checked."""
    text = path.read_text(encoding="utf-8")
    return [(m.group(2), m.group(3)) for m in BLOCK.finditer(text) if not m.group(1)]


def option_strings(parser) -> set[str]:
    found = set()
    for action in parser._actions:
        found.update(action.option_strings)
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):
            for sub in choices.values():
                if hasattr(sub, "_actions"):
                    found |= option_strings(sub)
    return found


def snakemake_flags() -> set[str]:
    from snakemake.cli import get_argument_parser

    return option_strings(get_argument_parser())


def merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def yaml_errors(text: str) -> list[str]:
    """Errors of one YAML block: it must parse; a config snippet must validate over the defaults."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        return [f"YAML does not parse: {str(error).splitlines()[0]}"]
    defaults = schema_defaults()
    if isinstance(data, dict) and set(data) <= set(defaults):
        error = config_error(merge(defaults, data))
        if error:
            return [f"config snippet invalid: {error}"]
    return []


def command_lines(text: str) -> list[str]:
    lines, current = [], ""
    for raw in text.splitlines():
        line = raw.split("  #")[0].rstrip() if "  #" in raw else raw.rstrip()
        line = line.lstrip("$ ").strip()
        current = f"{current} {line[:-1]}" if line.endswith("\\") else f"{current} {line}"
        if not line.endswith("\\"):
            if current.strip():
                lines.append(current.strip())
            current = ""
    return lines


def shell_errors(text: str, snake_flags: set[str], cli_flags: set[str]) -> list[str]:
    """Unknown flags and missing repository files in the command lines of one shell block."""
    errors = []
    for line in command_lines(text):
        words = shlex.split(line)
        while words and "=" in words[0] and not words[0].startswith("-"):
            words = words[1:]  # environment assignments
        if not words:
            continue
        program = Path(words[0]).name
        if words[:2] in (["bash", "run.sh"],) or program == "snakemake":
            args, flags = words[2:] if program == "bash" else words[1:], snake_flags
        elif program == "punctstyle":
            args, flags = words[1:], cli_flags
        elif words[:2] == ["bash", "test.sh"]:
            args, flags = [], set()
        elif program in ("python", "python3") and len(words) > 1 and words[1].startswith("benchmarks/"):
            args, flags = words[1:], None
        else:
            continue
        for arg in args:
            name = arg.split("=")[0]
            if arg.startswith("--") and flags is not None and name not in flags:
                errors.append(f"{line}: unknown flag {name}")
            elif REPO_PATH.match(arg) and not (REPO / arg).exists():
                errors.append(f"{line}: no file {arg}")
    return errors


LINK = re.compile(r"\]\(([^)\s#]+)(#[^)]*)?\)")


def link_errors(path: Path) -> list[str]:
    errors = []
    for target, _ in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):
            continue
        if not (path.parent / target).exists():
            errors.append(f"{path.name}: link to missing {target}")
    return errors


@pytest.fixture(scope="module")
def flags():
    return snakemake_flags(), option_strings(build_parser())


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_blocks_are_valid(path, flags):
    errors = []
    for language, text in blocks(path):
        if language == "yaml":
            errors += yaml_errors(text)
        elif language in ("bash", "sh", "console"):
            errors += shell_errors(text, *flags)
    assert errors == []


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_relative_links_exist(path):
    assert link_errors(path) == []


def test_the_checker_finds_bad_blocks(flags, tmp_path):
    assert yaml_errors("mirror:\n  url_templates: [cache/epub/{id}/pg{id}.txt, files/{id}.zip]\n")
    assert yaml_errors("mirror:\n  timeout_s: lots\n")
    assert yaml_errors("mirror:\n  no_such_key: 1\n")
    assert not yaml_errors('mirror:\n  url_templates:\n    - "files/{id}/{id}.zip"\n')
    assert shell_errors("bash run.sh --cores 4 --no-such-flag\n", *flags)
    assert shell_errors("bash run.sh --configfile config/missing.yaml\n", *flags)
    assert shell_errors(".venv/bin/punctstyle attribute x.txt --topp 5\n", *flags)
    assert not shell_errors(".venv/bin/punctstyle attribute x.txt --top 5\n", *flags)
    page = tmp_path / "page.md"
    page.write_text("see [there](nowhere.md)\n", encoding="utf-8")
    assert link_errors(page)


def test_readme_is_a_first_page():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 170
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    (language, block), = [(m.group(2), m.group(3)) for m in BLOCK.finditer(quick)]
    assert command_lines(block) == [
        "bash run.sh --cores 4",
        "bash test.sh",
    ]
