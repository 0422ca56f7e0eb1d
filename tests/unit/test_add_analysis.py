"""Adding an analysis takes four files (issue 32 item 6c), proven by adding one: in a copy of the
workflow (Snakefile, workflow/, config/, scripts/) and of the package (put first on PYTHONPATH),
a toy analysis gets its rule file, its ``AnalysisPlan`` entry, its job and its figure, and
nothing else. Snakemake's dry run must then plan its job (rule ``all`` reads ``ANALYSES``, the
Snakefile includes the entry's rule file) and the job, run through the rule's script, must
write its figure from a tiny corpus table. A fifth file needed anywhere (an include line, a
target list, a script of its own) makes the dry run miss the job or the script fail."""

from __future__ import annotations

import hashlib
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from snakemake.iocontainers import InputFiles, Log, Namedlist, Params

REPO = Path(__file__).resolve().parents[2]
WORKFLOW_PARTS = ("Snakefile", "workflow", "config", "scripts")
MAX_FILES = 4

TOY_RULE = '''# A toy analysis: the mean of each f1 column, as one bar chart.
rule toy_marks:
    input:
        table=out("corpus/f1.parquet"),
    output:
        figure=out("figures/toy/marks.png"),
    log:
        log_path("toy"),
    params:
        **analysis_params(PLAN, "toy"),
        job="punctstyle.jobs.toy:toy_job",
    script:
        "../../scripts/job.py"
'''
TOY_ENTRY = '''

def toy_targets(plan, counts):
    return [targets.out(plan.config, "figures/toy/marks.png")]


ANALYSES = (*ANALYSES, AnalysisPlan("toy", always, toy_targets, lambda plan: {"title": "toy marks"},
                                    rule_files=("toy.smk",)))
'''
TOY_JOB = '''"""The toy analysis' job: the mean rate of each f1 mark, drawn."""

import pandas as pd

from punctstyle.report.plots.toy import draw_means


def toy_job(inputs, outputs, params, log):
    table = pd.read_parquet(inputs["table"])
    means = table.drop(columns=["book_id"]).mean()
    draw_means(means, params["title"], outputs["figure"])
    log.info("toy: %d columns", len(means))
'''
TOY_FIGURE = '''"""The toy analysis' figure."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def draw_means(means, title, path):
    figure, axes = plt.subplots(figsize=(4, 3))
    axes.bar(list(means.index), list(means.values))
    axes.set_title(title)
    figure.savefig(path)
    plt.close(figure)
'''


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under ``root`` (caches left out)."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def changed_files(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {path for path, digest in after.items() if before.get(path) != digest}


def test_changed_files_sees_new_and_edited_files_only():
    before = {"a": "1", "b": "2"}
    assert changed_files(before, {"a": "1", "b": "3", "c": "4"}) == {"b", "c"}


@pytest.fixture
def workflow_copy(tmp_path: Path) -> tuple[Path, Path]:
    """(the workflow's copy, the package overlay's folder)."""
    repo, overlay = tmp_path / "repo", tmp_path / "overlay"
    for part in WORKFLOW_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, repo / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            repo.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, repo / part)
    shutil.copytree(REPO / "punctstyle", overlay / "punctstyle", ignore=shutil.ignore_patterns("__pycache__"))
    return repo, overlay


def add_toy_analysis(repo: Path, overlay: Path) -> None:
    """The four edits: a rule file, a plan entry, a job, a figure."""
    (repo / "workflow/rules/toy.smk").write_text(TOY_RULE, encoding="utf-8")
    with open(overlay / "punctstyle/plan/analyses.py", "a", encoding="utf-8") as registry:
        registry.write(TOY_ENTRY)
    (overlay / "punctstyle/jobs/toy.py").write_text(TOY_JOB, encoding="utf-8")
    (overlay / "punctstyle/report/plots/toy.py").write_text(TOY_FIGURE, encoding="utf-8")


def dry_run(repo: Path, overlay: Path) -> str:
    environment = {**os.environ, "PYTHONPATH": str(overlay)}
    snakemake = Path(sys.executable).with_name("snakemake")
    result = subprocess.run(
        [str(snakemake), "-n", "--configfile", "config/test.yaml", "--cores", "1"],
        cwd=repo, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout + result.stderr


def run_rule_script(repo: Path, overlay: Path, tmp_path: Path) -> Path:
    """The toy rule's script (scripts/job.py) on a tiny f1 table, as Snakemake would call it."""
    table = tmp_path / "f1.parquet"
    pd.DataFrame({"book_id": [1, 2, 3], "comma": [0.5, 0.25, 0.75], "period": [0.1, 0.3, 0.2]}).to_parquet(table)
    figure = tmp_path / "marks.png"
    rule = InputFiles(fromdict={"table": str(table)}), Namedlist(fromdict={"figure": str(figure)})
    params = Params(fromdict={"title": "toy marks", "job": "punctstyle.jobs.toy:toy_job"})
    job = type("Snakemake", (), {"input": rule[0], "output": rule[1], "params": params,
                                 "log": Log([str(tmp_path / "toy.log")])})()
    modules = {name: module for name, module in sys.modules.items() if name.startswith("punctstyle")}
    sys.path.insert(0, str(overlay))
    try:
        for name in modules:
            del sys.modules[name]
        runpy.run_path(str(repo / "scripts/job.py"), init_globals={"snakemake": job})
    finally:
        sys.path.remove(str(overlay))
        for name in [name for name in sys.modules if name.startswith("punctstyle")]:
            del sys.modules[name]
        sys.modules.update(modules)
    return figure


def test_adding_an_analysis_takes_four_files(workflow_copy, tmp_path):
    repo, overlay = workflow_copy
    before = {**tree_digest(repo), **{f"overlay/{p}": d for p, d in tree_digest(overlay).items()}}
    add_toy_analysis(repo, overlay)
    after = {**tree_digest(repo), **{f"overlay/{p}": d for p, d in tree_digest(overlay).items()}}
    assert changed_files(before, after) == {
        "workflow/rules/toy.smk",
        "overlay/punctstyle/plan/analyses.py",
        "overlay/punctstyle/jobs/toy.py",
        "overlay/punctstyle/report/plots/toy.py",
    }
    assert len(changed_files(before, after)) <= MAX_FILES

    listing = dry_run(repo, overlay)
    assert "rule toy_marks:" in listing
    assert "results-test/figures/toy/marks.png" in listing

    figure = run_rule_script(repo, overlay, tmp_path)
    assert figure.read_bytes().startswith(b"\x89PNG")
