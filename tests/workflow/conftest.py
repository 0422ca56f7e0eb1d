"""Fixtures shared by the workflow tests.

``default_fixture_run``: the default DAG of ``config/test.yaml`` on the mini mirror, run once per
test session and read by every test module that only needs its outputs (the whole-DAG checks, the
attribution CLI, and analyses added on top of the default run). Tests must not write into its
``outdir``: copy what they change to ``tmp_path`` first, or use ``derived_run``. Under
pytest-xdist (``test.sh`` runs two workers) the run is still made once: the first worker that
asks makes it under a file lock in the session's shared temporary folder, the others wait for
it and read what it returned.

``derived_run``: an analysis that the default run leaves off (the length curve, the sequence
classifier) run on a copy of the default run's outputs, so that only its own jobs and those it
names to remake run (the books and corpus tables are the default run's).
"""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from filelock import FileLock

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import MiniMirrorRun, serve, served_mini_mirror_run


def made_once(tmp_path_factory, name: str, make: Callable[[], object]) -> object:
    """``make()``'s value, made once per test session however many pytest-xdist workers ask.

    Without workers: ``make()``. With workers: the first to take the lock
    ``<shared temp folder>/<name>.lock`` makes it and stores it pickled beside the lock; the
    others wait on the lock and load it (the value's files must lie in the shared temp folder,
    which ``tmp_path_factory`` folders do)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make()
    shared = tmp_path_factory.getbasetemp().parent
    stored = shared / f"{name}.pickle"
    with FileLock(str(shared / f"{name}.lock")):
        if not stored.is_file():
            value = make()
            partial = stored.with_name(f".{stored.name}.tmp")
            partial.write_bytes(pickle.dumps(value))
            partial.replace(stored)
        return pickle.loads(stored.read_bytes())


def _default_run(tmp_path_factory) -> dict:
    with served_mini_mirror_run(tmp_path_factory) as served:
        first = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(served.config))
        second = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(served.config), "--dry-run")
    return {"outdir": served.outdir, "expected": served.expected, "first": first, "second": second,
            "mirror": served.mirror, "config": served.config}


@pytest.fixture(scope="session")
def default_fixture_run(tmp_path_factory) -> dict:
    """The default run: ``outdir``, ``config`` (the run's overlay), ``mirror`` (the served folder),
    ``expected`` (what the mini mirror holds), ``first`` (the run) and ``second`` (a dry run after it)."""
    return made_once(tmp_path_factory, "default_fixture_run", lambda: _default_run(tmp_path_factory))


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
