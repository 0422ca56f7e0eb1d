"""Fixtures shared by the workflow tests.

``default_fixture_run``: the default DAG of ``config/test.yaml`` on the mini mirror, run once per
test session and read by every test module that only needs its outputs (the whole-DAG checks, the
attribution CLI, and analyses added on top of the default run). Tests must not write into its
``outdir``: copy what they change to ``tmp_path`` first.
"""

from __future__ import annotations

import pytest

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import served_mini_mirror_run


@pytest.fixture(scope="session")
def default_fixture_run(tmp_path_factory) -> dict:
    """The default run: ``outdir``, ``config`` (the run's overlay), ``mirror`` (the served folder),
    ``expected`` (what the mini mirror holds), ``first`` (the run) and ``second`` (a dry run after it)."""
    with served_mini_mirror_run(tmp_path_factory) as served:
        first = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(served.config))
        second = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(served.config), "--dry-run")
    return {"outdir": served.outdir, "expected": served.expected, "first": first, "second": second,
            "mirror": served.mirror, "config": served.config}
