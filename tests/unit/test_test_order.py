"""The order of the test modules (tests/conftest.py): the slowest first, for test.sh's workers."""

from __future__ import annotations

from tests.conftest import REPO, SLOW_FIRST, slow_first


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
