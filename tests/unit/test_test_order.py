"""The test helpers for test.sh's workers (tests/conftest.py): the slowest modules first, and
each worker's own Snakemake working directory."""

from __future__ import annotations

from tests.conftest import NOT_LINKED, REPO, SLOW_FIRST, link_checkout, slow_first, snakemake_workdir


def test_listed_modules_come_first_in_their_order_and_the_rest_keep_theirs():
    nodeids = [
        "tests/unit/test_a.py::test_one",
        "tests/workflow/test_b.py::test_one[x]",
        "tests/unit/test_a.py::test_two",
        "tests/workflow/test_c.py::test_one",
        "tests/workflow/test_b.py::test_two",
        "tests/unit/test_d.py::Class::test_one",
    ]
    order = ("tests/workflow/test_c.py", "tests/workflow/test_b.py")
    assert [nodeids[i] for i in slow_first(nodeids, order)] == [
        "tests/workflow/test_c.py::test_one",
        "tests/workflow/test_b.py::test_one[x]",
        "tests/workflow/test_b.py::test_two",
        "tests/unit/test_a.py::test_one",
        "tests/unit/test_a.py::test_two",
        "tests/unit/test_d.py::Class::test_one",
    ]


def test_no_order_keeps_the_collected_order():
    nodeids = ["tests/x.py::b", "tests/x.py::a", "tests/y.py::c"]
    assert slow_first(nodeids, ()) == [0, 1, 2]


def test_every_listed_module_exists_once():
    assert len(set(SLOW_FIRST)) == len(SLOW_FIRST)
    assert [m for m in SLOW_FIRST if not (REPO / m).is_file()] == []


def test_a_scratch_working_directory_links_the_checkout_but_its_run_state(tmp_path):
    work = link_checkout(tmp_path / "work")
    names = {path.name for path in work.iterdir()}
    assert names == {path.name for path in REPO.iterdir()} - NOT_LINKED and ".snakemake" not in names
    assert all((work / name).is_symlink() and (work / name).resolve() == (REPO / name).resolve() for name in names)


def test_a_test_worker_runs_snakemake_in_its_own_working_directory(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    work = snakemake_workdir.__wrapped__()  # not the cached one of this process
    try:
        assert work.name.startswith("punctstyle-gw7-") and work != REPO
        assert (work / "Snakefile").resolve() == (REPO / "Snakefile").resolve()
    finally:
        for link in work.iterdir():
            link.unlink()
        work.rmdir()
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert snakemake_workdir.__wrapped__() == REPO
