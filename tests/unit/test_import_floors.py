"""The package's folders import one way (issue 32): each folder (or top-level module) of
``punctstyle/`` imports only from floors below its own, so the import graph has no cycle and
follows the order docs/CONVENTIONS.md documents ("Floors"). Imports inside functions count."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "punctstyle"

FLOORS: list[set[str]] = [
    {"marks", "io", "logs", "settings", "job_threads", "divergence", "snakemake_patches"},
    {"features", "rule_names", "text", "distances"},
    {"sources"},
    {"book"},
    {"corpus"},
    {"featuresets", "experiments"},
    {"classifiers"},
    {"analyses", "attribution", "descriptive"},
    {"training"},
    {"report"},
    {"jobs", "api"},
    {"plan", "app"},
    {"cli"},
    {"__main__"},
]
"""The floors, lowest first: the order of docs/CONVENTIONS.md's folder table."""


def room(path: Path) -> str:
    """The folder (or top-level module) of ``path`` under ``punctstyle/``."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def imported_rooms(path: Path) -> set[str]:
    """The package rooms ``path`` imports (``import punctstyle.x...`` and ``from punctstyle.x
    import ...``, at any depth of the file)."""
    rooms = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        rooms |= {name.split(".")[1] for name in names if name.startswith("punctstyle.")}
    return rooms


def import_edges() -> list[tuple[str, str, str]]:
    """(importing room, imported room, file) of every import between two rooms."""
    edges = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":  # the lazy ``punctstyle.api`` of ``import punctstyle``
            continue
        source = room(path)
        edges += [(source, target, str(path.relative_to(REPO))) for target in imported_rooms(path) - {source}]
    return edges


def floor_of() -> dict[str, int]:
    return {name: level for level, floor in enumerate(FLOORS) for name in floor}


def test_every_room_of_the_package_has_a_floor():
    rooms = {room(path) for path in PACKAGE.rglob("*.py")} - {"__init__"}
    assert rooms - set(floor_of()) == set(), "a new folder or module: give it a floor in FLOORS and CONVENTIONS.md"
    assert set(floor_of()) - rooms == set(), "FLOORS names a room that is gone"


def test_imports_go_down_the_floors_only():
    floors = floor_of()
    upward = [f"{file}: {source} (floor {floors[source]}) imports {target} (floor {floors[target]})"
              for source, target, file in import_edges() if floors[target] >= floors[source]]  # fmt: skip
    assert upward == []


def test_the_folder_graph_has_no_cycle():
    """Independent of FLOORS: a depth-first search over the rooms' import graph finds no cycle."""
    graph: dict[str, set[str]] = {}
    for source, target, _ in import_edges():
        graph.setdefault(source, set()).add(target)
    state: dict[str, int] = {}

    def visit(node: str, path: tuple[str, ...]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                pytest.fail("import cycle: " + " -> ".join((*path, node, target)))
            if target not in state:
                visit(target, (*path, node))
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, ())


def test_the_checks_catch_an_upward_import(tmp_path):
    """The scanner sees an import inside a function (the lazy imports of the package)."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from punctstyle.report.render import html_page\n    import punctstyle.plan.rows\n")
    assert imported_rooms(module) == {"report", "plan"}


def test_conventions_lists_the_floors_in_order():
    text = (REPO / "docs" / "CONVENTIONS.md").read_text(encoding="utf-8")
    section = text[text.index("## Floors") :]
    lines = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| floor")]
    documented = [set(cell.strip(" `") for cell in line.split("|")[2].split(",")) for line in lines[: len(FLOORS)]]
    assert documented == FLOORS


def rule_file_imports(text: str) -> list[str]:
    """The ``punctstyle`` modules a Snakefile or rule file imports (``from X import`` and
    ``import X`` lines at any indentation)."""
    return re.findall(r"^\s*(?:from|import)\s+(punctstyle(?:\.\w+)*)", text, re.MULTILINE)


def test_the_rule_files_import_from_plan_only():
    """One road from config to rule: the Snakefile and workflow/rules/*.smk name the package
    through punctstyle.plan (names from below it: punctstyle.plan.rule_support)."""
    files = [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]
    outside = [f"{path.relative_to(REPO)}: {module}" for path in files
               for module in rule_file_imports(path.read_text(encoding="utf-8"))
               if module != "punctstyle.plan" and not module.startswith("punctstyle.plan.")]  # fmt: skip
    assert outside == []
    assert rule_file_imports("from punctstyle.marks import X\n    import punctstyle.plan.rows\n") == [
        "punctstyle.marks", "punctstyle.plan.rows"]  # fmt: skip
