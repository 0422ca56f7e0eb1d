"""Fixtures shared by the workflow tests.

``default_fixture_run``: the default DAG of ``config/test.yaml`` on the mini mirror, run once per
test session and read by every test module that only needs its outputs (the whole-DAG checks, the
attribution CLI, and analyses added on top of the default run). Tests must not write into its
``outdir``: copy what they change to ``tmp_path`` first, or use ``derived_run``.

``derived_run``: an analysis that the default run leaves off (the length curve, the sequence
classifier) run on a copy of the default run's outputs, so that only its own jobs and those it
names to remake run (the books and corpus tables are the default run's).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import MiniMirrorRun, serve, served_mini_mirror_run


@pytest.fixture(scope="session")
def default_fixture_run(tmp_path_factory) -> dict:
    """The default run: ``outdir``, ``config`` (the run's overlay), ``mirror`` (the served folder),
    ``expected`` (what the mini mirror holds), ``first`` (the run) and ``second`` (a dry run after it)."""
    with served_mini_mirror_run(tmp_path_factory) as served:
        first = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(served.config))
        second = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(served.config), "--dry-run")
    return {"outdir": served.outdir, "expected": served.expected, "first": first, "second": second,
            "mirror": served.mirror, "config": served.config}


@contextmanager
def derived_run(default_run: dict, tmp_path_factory, overlay: dict, remake: tuple[str, ...] = ()) -> Iterator[MiniMirrorRun]:
    """A copy of ``default_run``'s outdir (files' modification times kept, so Snakemake finds them
    up to date) without the folders ``remake`` names, and a config of the default run's overlay
    with ``overlay``'s top-level keys on top and the copy as ``outdir``; the mini mirror served
    again while it is in use. The copy has no Snakemake metadata, so no rule reruns for a changed
    parameter: the outputs that ``overlay`` changes (the recognition rows, when it changes their
    settings or the fits they store) must be named in ``remake``."""
    outdir = tmp_path_factory.mktemp("derived") / "results"
    shutil.copytree(default_run["outdir"], outdir, symlinks=True)
    for folder in remake:
        shutil.rmtree(outdir / folder)
    base = yaml.safe_load(Path(default_run["config"]).read_text())
    config = tmp_path_factory.mktemp("config") / "derived.yaml"
    with serve(default_run["mirror"]) as base_url:
        config.write_text(yaml.safe_dump({**base, "outdir": str(outdir), "mirror": {"base_url": base_url}, **overlay}))
        yield MiniMirrorRun(default_run["mirror"], outdir, config, default_run["expected"])
