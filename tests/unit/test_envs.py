"""Each rule's conda environment (envs/*.yaml) provides what its script imports.

The scripts run with `--sdm conda` in the environment their rule names; the same code runs
from the repository's .venv otherwise. So every env installs the punctstyle package itself
(an editable pip entry pointing at the repository), and every third-party module that a
rule's script imports, directly or through the punctstyle modules it uses (at module level or
inside functions), is listed in that env.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "workflow" / "rules"

# import name -> the conda/pip package names that provide it
PROVIDERS = {
    "yaml": {"pyyaml"},
    "torch": {"pytorch", "torch"},
    "matplotlib": {"matplotlib", "matplotlib-base"},
    "jsonschema": {"jsonschema"},
}


def rule_envs_and_scripts() -> list[tuple[str, str, str]]:
    """(rule, env file, script file) of every rule of workflow/rules that has both; a ``shell:``
    rule that runs ``"$PUNCTSTYLE_JOB_PYTHON" -m punctstyle.<module>`` (the per-book jobs) has that
    module's file as its script. The same rule name may come from two source files (folder.smk
    and tei.smk both define ingest_document): each is listed."""
    found = []
    for smk in sorted(RULES.glob("*.smk")):
        text = smk.read_text(encoding="utf-8")
        for block in re.split(r"\n(?=(?:rule|checkpoint) \w+:)", text):
            name = re.match(r"(?:rule|checkpoint) (\w+):", block)
            conda = re.search(r"\n    conda:\n\s+\"([^\"]+)\"", block)
            script = re.search(r"\n    script:\n\s+\"([^\"]+)\"", block)
            module = re.search(r"\n    shell:\n\s+'\"\$PUNCTSTYLE_JOB_PYTHON\" -m (punctstyle[\w.]*) ", block)
            if name and conda and (script or module):
                env = (smk.parent / conda.group(1)).resolve()
                if script:
                    path = (smk.parent / script.group(1)).resolve()
                else:
                    path = _package_file(module.group(1))
                    assert path is not None, f"rule {name.group(1)}: no module {module.group(1)}"
                found.append((name.group(1), str(env), str(path)))
    return found


def _imports(path: Path) -> set[str]:
    """Absolute module names imported anywhere in ``path``, except under ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


def _package_file(module: str) -> Path | None:
    base = REPO.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def third_party_imports(script: Path) -> set[str]:
    """Top-level third-party modules reached from ``script`` through punctstyle's modules."""
    seen: set[Path] = set()
    todo = [script]
    external: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "punctstyle":
                parts = name.split(".")
                for end in range(1, len(parts) + 1):  # the package __init__s on the way too
                    module_file = _package_file(".".join(parts[:end]))
                    if module_file:
                        todo.append(module_file)
            elif top not in sys.stdlib_module_names and top != "__future__":
                external.add(top)
    return external


def env_packages(env_file: str) -> tuple[set[str], list[str]]:
    """(conda and pip package names, pip entries) listed by a conda env file."""
    spec = yaml.safe_load(Path(env_file).read_text(encoding="utf-8"))
    names: set[str] = set()
    pip_entries: list[str] = []
    for dependency in spec["dependencies"]:
        if isinstance(dependency, dict):
            pip_entries += dependency.get("pip", [])
            continue
        names.add(re.split(r"[ =<>!]", dependency.split("::")[-1], maxsplit=1)[0].lower())
    for entry in pip_entries:
        names.add(re.split(r"[ =<>!\[]", entry, maxsplit=1)[0].lower())
    return names, pip_entries


RULE_ENVS = rule_envs_and_scripts()


def test_every_rule_with_a_script_names_an_env():
    assert len(RULE_ENVS) >= 15, RULE_ENVS
    # the per-book commands are checked too (their imports are those of punctstyle.book.jobs.*)
    per_book = {(rule, Path(script).name) for rule, _, script in RULE_ENVS if "/punctstyle/book/jobs/" in script}
    assert per_book == {("download_book", "download.py"), ("ingest_document", "ingest.py"),
                        ("ingest_document", "ingest_tei.py"), ("extract_book", "extract.py")}, RULE_ENVS


@pytest.mark.parametrize("env_file", sorted({env for _, env, _ in RULE_ENVS}), ids=lambda p: Path(p).name)
def test_env_installs_this_repository(env_file):
    _, pip_entries = env_packages(env_file)
    # Snakemake copies the env file to <workdir>/.snakemake/conda/<hash>.yaml and conda runs pip
    # there: ../.. is the working directory, the repository root the workflow runs from.
    assert "-e ../.." in pip_entries, f"{env_file}: no editable install of the repository in its pip section"


@pytest.mark.parametrize(("rule", "env_file", "script"), RULE_ENVS, ids=[r for r, _, _ in RULE_ENVS])
def test_env_lists_every_third_party_module_its_script_imports(rule, env_file, script):
    listed, _ = env_packages(env_file)
    missing = sorted(
        module
        for module in third_party_imports(Path(script))
        if not (PROVIDERS.get(module, {module}) & listed) and module != "snakemake"
    )
    assert not missing, f"rule {rule}: {Path(env_file).name} lacks {missing} (imported via {Path(script).name})"


def test_import_walk_sees_function_level_imports(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("def f():\n    import scipy.stats\n\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import torch\n")
    assert third_party_imports(script) == {"scipy"}


def core_dependencies() -> set[str]:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {re.split(r"[ =<>!\[]", dep, maxsplit=1)[0].lower() for dep in project["dependencies"]}


@pytest.mark.parametrize("env_file", sorted({env for _, env, _ in RULE_ENVS}), ids=lambda p: Path(p).name)
def test_env_provides_the_package_core_dependencies(env_file):
    """The editable install then pulls nothing from PyPI (no surprise torch or numpy build)."""
    listed, _ = env_packages(env_file)
    missing = sorted(dep for dep in core_dependencies() if not (PROVIDERS.get(dep, {dep}) & listed))
    assert not missing, f"{Path(env_file).name} lacks the package's core dependencies {missing}"
