"""The configuration schema ships in the package (one source: workflow/schemas links to it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from punctstyle.settings import SCHEMA_PATH, schema_default

REPO = Path(__file__).resolve().parents[2]


def test_the_workflows_schema_is_the_packages():
    workflow_schema = REPO / "workflow" / "schemas" / "config.schema.yaml"
    assert workflow_schema.resolve() == SCHEMA_PATH.resolve()
    assert SCHEMA_PATH.parent.parent.name == "punctstyle"


def test_a_wheel_holds_the_schema_and_its_defaults_load(tmp_path):
    source = tmp_path / "source"  # a copy, so that the build leaves nothing in the checkout
    shutil.copytree(REPO / "punctstyle", source / "punctstyle", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, text=True, timeout=600,
    )
    (wheel,) = tmp_path.glob("punctstyle-*.whl")
    target = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:
        assert "punctstyle/schemas/config.schema.yaml" in archive.namelist()
        archive.extractall(target)  # a wheel is installed by unpacking it (pure Python)
    code = "from punctstyle.settings import schema_default, SCHEMA_PATH; print(SCHEMA_PATH); print(schema_default('mirror', 'max_text_mb'))"
    env = {**os.environ, "PYTHONPATH": str(target)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True, capture_output=True, text=True)
    path, value = proc.stdout.split()
    assert Path(path).is_relative_to(target)
    assert float(value) == float(schema_default("mirror", "max_text_mb"))
