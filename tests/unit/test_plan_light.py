"""The planning layer stays light: every ``snakemake`` call (a run, a dry run, ``--lint``, each
cluster job) parses the Snakefile, which imports ``punctstyle.plan``. Its constants and small
helpers live in light modules (``attribution.verification_settings``,
``descriptive.map_families``, ``training.distortion_modes``, ``classifiers``, ``featuresets``),
so the parse imports none of the numerical or deep-learning libraries; and our YAML loads on
that path (the config file check, the schema) use libyaml's C loader with the same results."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml

from punctstyle import settings
from punctstyle.settings import SCHEMA_PATH, config_file_error, load_schema, safe_load_yaml
from tests.conftest import REPO

HEAVY: tuple[str, ...] = ("scipy", "scipy.stats", "scipy.cluster", "torch", "matplotlib", "sklearn", "spacy")
"""Libraries the Snakefile's parse must not import (pandas and numpy are loaded anyway by
Snakemake's SLURM executor plugin)."""

PLAN_IMPORT = (
    "import pkgutil, importlib, sys\n"
    "import punctstyle.plan as plan\n"
    "for info in sorted(pkgutil.iter_modules(plan.__path__), key=lambda m: m.name):\n"
    "    importlib.import_module('punctstyle.plan.' + info.name)\n"
    "print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
)


def heavy_modules_after(code: str) -> str:
    """The last line ``code`` prints in a fresh interpreter run from the repository (this
    checkout's package first on the path)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_the_plan_imports_no_heavy_library():
    """Every module of ``punctstyle.plan`` (the only package modules the Snakefile and the rule
    files import: tests/unit/test_import_floors.py) together, in a fresh interpreter."""
    assert heavy_modules_after(PLAN_IMPORT.format(heavy=HEAVY)) == "[]"


def test_the_check_sees_a_heavy_import():
    """The same check reports a heavy library that an import pulls in."""
    code = "import scipy.stats, sys\n" + f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    assert heavy_modules_after(code) == "['scipy', 'scipy.stats']"


@pytest.mark.parametrize("path", [REPO / "config" / "config.yaml", REPO / "config" / "test.yaml", SCHEMA_PATH])
def test_the_yaml_loader_reads_what_safe_load_reads(path):
    text = path.read_text(encoding="utf-8")
    with open(path, encoding="utf-8") as handle:
        loaded = safe_load_yaml(handle)
    assert loaded == yaml.safe_load(text)
    assert safe_load_yaml(text) == loaded
    assert isinstance(loaded, dict) and loaded


def test_the_schema_and_the_config_check_use_the_c_loader(monkeypatch):
    """With libyaml (the wheels ship it) both loads of the parse path go through ``CSafeLoader``;
    without it, through the pure-Python ``SafeLoader``."""
    loaders = []
    real_load = yaml.load

    def recording_load(stream, Loader):
        loaders.append(Loader)
        return real_load(stream, Loader=Loader)

    monkeypatch.setattr(yaml, "load", recording_load)
    load_schema.cache_clear()
    try:
        assert load_schema()["properties"]
    finally:
        load_schema.cache_clear()
    assert config_file_error(REPO / "config" / "config.yaml") is None
    expected = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
    assert loaders == [expected, expected]
    monkeypatch.setattr(yaml, "__with_libyaml__", False)
    assert settings.safe_load_yaml("a: [1, 2]\n") == {"a": [1, 2]}
    assert loaders[-1] is yaml.SafeLoader


def test_a_yaml_error_still_names_its_line_with_the_c_loader(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("outdir: out\nseeds: [1, 2\nother: 3\n")
    error = config_file_error(bad)
    assert error.startswith(f"{bad}: not valid YAML: line ") and "\n" not in error
