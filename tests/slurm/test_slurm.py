"""The workflow on a real SLURM cluster through profiles/slurm (snakemake-executor-plugin-slurm).

Needs a running cluster with a partition ``debug`` on this host: ``ci/slurm/cluster.sh start``
(root, Debian) makes a single-node one. Without ``sinfo`` or without a node up, every test
here skips with the reason, so a developer without SLURM still passes.

Three Snakemake runs, about four minutes in all on an idle 2-core host:
  * the fixture mirror (tests/fixtures/mini_mirror.py, served on 127.0.0.1: SLURM jobs run on
    this host, so they reach it) to the corpus tables through ``--profile profiles/slurm``, and
    at the same time the same targets locally into another folder, to compare with (the
    cluster node runs a batch's per-book jobs one after another; the local run takes the
    other core);
  * then a run whose ``mirror.catalog_file`` is an HTML page, not a CSV: select_books fails on
    the cluster, and the workflow must fail.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest
import yaml

from punctstyle.rule_names import FEATURES
from tests.conftest import REPO
from tests.fixtures.mini_mirror import build_mini_mirror, serve

pytestmark = pytest.mark.slurm

PROFILE = REPO / "profiles" / "slurm"
PARTITION = "debug"  # profiles/slurm: default-resources slurm_partition
ACCOUNT = "root"  # profiles/slurm: default-resources slurm_account
PER_BOOK_RULES = ("download_book", "extract_book")  # a book: its download, then one extraction job
SINGLE_RULES = ("download_catalog", "select_books", "tokenizer_rules", "corpus_tables")
# Wall-clock bounds (seconds); the whole module takes about four minutes on an idle 2-core host.
WORKFLOW_TIMEOUT_S = 600
FAILURE_TIMEOUT_S = 300

SUBMITTED = re.compile(r"^Job (\S+) has been submitted with SLURM jobid (\d+) \(log: (.+?)\)\.?\s*$", re.M)
FINISHED = re.compile(r"^Finished jobid: \S+ \(Rule: (\w+)\)\s*$", re.M)
NOT_A_CATALOG = "<!DOCTYPE html>\n<html><body>Error: rate limited.</body></html>\n"


def _command(*args: str) -> str:
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"<{' '.join(args)} failed: {exc}>"
    return proc.stdout + proc.stderr


def slurm_skip_reason() -> str | None:
    """Why the SLURM tests cannot run here, or None when a cluster is up."""
    if shutil.which("sinfo") is None or shutil.which("sbatch") is None:
        return "no SLURM client here (sinfo/sbatch not found); start a test cluster with `ci/slurm/cluster.sh start`"
    ping = _command("scontrol", "ping")
    if "is UP" not in ping:
        first = (ping.strip().splitlines() or ["no answer"])[0]
        return f"SLURM cluster is not up (scontrol ping: {first[:200]}); try `ci/slurm/cluster.sh start`"
    states = _command("sinfo", "-h", "-p", PARTITION, "-o", "%T").split()
    if not any(s in ("idle", "mixed", "allocated", "completing") for s in states):
        return f"no node of partition {PARTITION!r} is up (sinfo states: {states or 'none'})"
    return None


def node_cpus() -> int:
    values = [int(v) for v in re.findall(r"\d+", _command("sinfo", "-h", "-p", PARTITION, "-o", "%c"))]
    return max(values) if values else 1


def _env() -> dict[str, str]:
    """The environment for Snakemake. The plugin submits with ``--export=ALL``, so SLURM jobs
    get it too: this Python's bin folder first on PATH (jobs call ``sys.executable`` anyway)."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


@dataclass
class Run:
    name: str
    proc: subprocess.Popen
    log: Path
    started: float
    timeout: float
    returncode: int | None = None
    seconds: float | None = None

    @property
    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait(self) -> Run:
        remaining = max(1.0, self.started + self.timeout - time.monotonic())
        try:
            self.returncode = self.proc.wait(timeout=remaining)
        except subprocess.TimeoutExpired:
            # SIGINT: Snakemake cancels its SLURM jobs (scancel) before exiting.
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            raise AssertionError(f"{self.name}: no result within {self.timeout:.0f} s\n{self.text[-6000:]}")
        self.seconds = time.monotonic() - self.started
        return self


def start_snakemake(name: str, args: list[str], logdir: Path, timeout: float) -> Run:
    log = logdir / f"{name}.log"
    with open(log, "w") as handle:
        proc = subprocess.Popen(
            [sys.executable, "-m", "snakemake", *args],
            cwd=REPO,
            stdout=handle,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=_env(),
        )
    return Run(name, proc, log, time.monotonic(), timeout)


def corpus_targets(outdir: Path) -> list[str]:
    return [str(outdir / f"corpus/{f}.parquet") for f in FEATURES] + [str(outdir / "corpus/exclusions.csv")]


def slurm_args(config: Path, slurm_logdir: Path, cores: int) -> list[str]:
    return [
        # profiles/default is the workflow profile: Snakemake would load it on top of
        # profiles/slurm and let it override partition, account, runtime and cores.
        "--workflow-profile", "none",
        "--profile", str(PROFILE),
        "--cores", str(cores),
        "--configfile", "config/test.yaml", str(config),
        "--slurm-logdir", str(slurm_logdir),
        "--slurm-keep-successful-logs",
        # the profile waits 5 s before the first status check; 2 s keeps this test short
        "--slurm-init-seconds-before-status-checks", "2",
    ]  # fmt: skip


def write_config(path: Path, outdir: Path, mirror: dict) -> Path:
    path.write_text(yaml.safe_dump({"outdir": str(outdir), "mirror": mirror}))
    return path


def submissions(text: str, slurm_logdir: Path) -> list[tuple[str, str]]:
    """(SLURM job id, what it ran: 'rule_<name>' or 'group_<name>...') per sbatch of a run."""
    found = []
    for _, job_id, log in SUBMITTED.findall(text):
        kind = Path(log).relative_to(slurm_logdir).parts[0]
        found.append((job_id, kind))
    return found


def _minutes(value: str) -> int | None:
    """SLURM time limit ('60' minutes in the job-completion log; '[D-]H:MM:SS' or 'MM:SS' in squeue)."""
    if not value or not value[0].isdigit():
        return None
    if ":" not in value and "-" not in value:
        return int(value)
    days, _, clock = value.rpartition("-")
    parts = [int(p) for p in clock.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    hours, minutes, seconds = parts
    return (int(days or 0) * 24 + hours) * 60 + minutes + math.ceil(seconds / 60)


def _megabytes(value: str) -> int | None:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]?)", value or "")
    if not match:
        return None
    scale = {"K": 1 / 1024, "M": 1, "": 1, "G": 1024, "T": 1024 * 1024}[match.group(2)]
    return round(float(match.group(1)) * scale)


def slurm_records(job_ids: list[str]) -> dict[str, dict]:
    """What SLURM recorded for these jobs: state, account, partition, minutes, mem_mb, cpus.

    From the job-completion log when the cluster writes one (ci/slurm/cluster.sh does:
    jobcomp/filetxt), else from squeue, which shows finished jobs for MinJobAge seconds.
    """
    records: dict[str, dict] = {}
    config = dict(
        (k.strip(), v.strip())
        for k, _, v in (line.partition("=") for line in _command("scontrol", "show", "config").splitlines())
    )
    jobcomp = Path(config.get("JobCompLoc", ""))
    if config.get("JobCompType") == "jobcomp/filetxt" and jobcomp.is_file():
        wanted = set(job_ids)
        for line in jobcomp.read_text(errors="replace").splitlines():
            fields = dict(re.findall(r"(\w+)=(\S*)", line))
            if fields.get("JobId") in wanted:
                tres = dict(re.findall(r"(\w+)=([^,]+)", fields.get("Tres", "")))
                records[fields["JobId"]] = {
                    "state": fields.get("JobState", ""),
                    "account": fields.get("Account", ""),
                    "partition": fields.get("Partition", ""),
                    "minutes": _minutes(fields.get("TimeLimit", "")),
                    "mem_mb": _megabytes(tres.get("mem", "")),
                    "cpus": int(tres["cpu"]) if tres.get("cpu", "").isdigit() else None,
                }
    missing = [j for j in job_ids if j not in records]
    if missing:
        out = _command("squeue", "--states=all", "--noheader", "-j", ",".join(missing), "-o", "%i|%T|%a|%P|%l|%m|%C")
        for line in out.splitlines():
            parts = line.strip().split("|")
            if len(parts) == 7 and parts[0] in missing:
                records[parts[0]] = {
                    "state": parts[1],
                    "account": parts[2],
                    "partition": parts[3],
                    "minutes": _minutes(parts[4]),
                    "mem_mb": _megabytes(parts[5]),
                    "cpus": int(parts[6]) if parts[6].isdigit() else None,
                }
    return records


@pytest.fixture(scope="module")
def cluster():
    """Skip without a SLURM cluster; else the CPUs a batch job may ask for (2, the profile's
    `cores`, or fewer on a smaller node)."""
    reason = slurm_skip_reason()
    if reason:
        pytest.skip(reason)
    return min(2, node_cpus())


@pytest.fixture(scope="module")
def runs(cluster, tmp_path_factory):
    """The fixture mirror to the corpus tables through SLURM and, at the same time, locally."""
    base = tmp_path_factory.mktemp("slurm")
    mirror_root = base / "mirror"
    mirror_root.mkdir()
    expected = build_mini_mirror(mirror_root)
    logs = base / "logs"
    logs.mkdir()
    out = {name: base / f"out-{name}" for name in ("slurm", "local")}
    slurm_logs = base / "slurm-logs"
    with serve(mirror_root) as base_url:
        configs = {name: write_config(base / f"{name}.yaml", out[name], {"base_url": base_url}) for name in out}
        started = [
            start_snakemake(
                "slurm",
                [*slurm_args(configs["slurm"], slurm_logs, cluster), *corpus_targets(out["slurm"])],
                logs,
                WORKFLOW_TIMEOUT_S,
            ),
            start_snakemake(
                "local",
                [
                    "--workflow-profile", "none",
                    "--configfile", "config/test.yaml", str(configs["local"]),
                    "--cores", "1",  # the other core runs the SLURM jobs
                    *corpus_targets(out["local"]),
                ],  # fmt: skip
                logs,
                WORKFLOW_TIMEOUT_S,
            ),
        ]
        try:
            finished = {run.name: run.wait() for run in started}
        finally:
            for run in started:
                if run.proc.poll() is None:
                    run.proc.kill()
                    run.proc.wait()
    return {"out": out, "runs": finished, "slurm_logs": slurm_logs, "expected": expected}


def _succeeded(run: Run) -> str:
    assert run.returncode == 0, f"{run.name} run failed (exit {run.returncode}):\n{run.text[-6000:]}"
    return run.text


def _sorted_table(path: Path) -> pd.DataFrame:
    frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    return frame.sort_values("book_id", kind="stable").reset_index(drop=True)


def test_slurm_run_equals_a_local_run(runs):
    _succeeded(runs["runs"]["slurm"])
    _succeeded(runs["runs"]["local"])
    corpus = runs["expected"]["corpus"]
    for name in [f"{f}.parquet" for f in FEATURES] + ["exclusions.csv"]:
        on_slurm = _sorted_table(runs["out"]["slurm"] / "corpus" / name)
        local = _sorted_table(runs["out"]["local"] / "corpus" / name)
        if name == "exclusions.csv":
            assert set(on_slurm["book_id"]) == set(runs["expected"]["excluded"])
        else:
            assert on_slurm["book_id"].tolist() == sorted(corpus), name
        assert list(on_slurm.columns) == list(local.columns), name
        assert on_slurm.dtypes.equals(local.dtypes), name
        assert on_slurm.equals(local), f"{name}: the SLURM run differs from the local run"


def test_jobs_ran_through_slurm_in_batches(runs):
    text = _succeeded(runs["runs"]["slurm"])
    profile = yaml.safe_load((PROFILE / "config.yaml").read_text())
    # the profile's settings are in effect (profiles/default would say 4)
    connections = dict(item.split("=") for item in profile["resources"])["mirror_connections"]
    assert f'Resource("mirror_connections", {connections})' in text, text[:3000]
    submitted = submissions(text, runs["slurm_logs"])
    kinds = [kind for _, kind in submitted]
    # one cluster job per single rule, and the per-book jobs of all 12 books in one batch
    # (group-components books=50)
    for rule in SINGLE_RULES:
        assert kinds.count(f"rule_{rule}") == 1, kinds
    groups = [job_id for job_id, kind in submitted if kind.startswith("group_books")]
    books = len(runs["expected"]["selected"])
    batch = int(dict(item.split("=") for item in profile["group-components"])["books"])
    assert len(groups) == math.ceil(books / batch) == 1, kinds
    assert len(submitted) == len(SINGLE_RULES) + len(groups)
    finished = FINISHED.findall(text)
    per_book = [rule for rule in finished if rule in PER_BOOK_RULES]
    assert len(per_book) == books * len(PER_BOOK_RULES) == 24
    assert len(finished) == len(per_book) + len(SINGLE_RULES)
    assert len(submitted) < len(finished)  # 5 cluster jobs for 28 rule jobs

    # SLURM itself ran them, with the profile's account, partition and per-rule resources
    records = slurm_records([job_id for job_id, _ in submitted])
    assert set(records) == {job_id for job_id, _ in submitted}, (submitted, records)
    for job_id, kind in submitted:
        record = records[job_id]
        assert record["state"] == "COMPLETED", (kind, record)
        assert record["partition"] == PARTITION and record["account"] == ACCOUNT, (kind, record)
        if kind == "rule_corpus_tables":
            assert record["mem_mb"] == profile["set-resources"]["corpus_tables"]["mem_mb"], record
            assert record["minutes"] == profile["set-resources"]["corpus_tables"]["runtime"], record
    group_log = next((runs["slurm_logs"]).glob("group_books*/**/*.log")).read_text()
    for rule in PER_BOOK_RULES:
        assert f"rule {rule}:" in group_log, f"{rule} did not run inside the batch job"


def test_a_failing_job_fails_the_workflow(cluster, tmp_path):
    """mirror.catalog_file is an HTML error page: select_books fails on the cluster (twice, as
    the profile retries once), and Snakemake must stop with an error, in bounded time."""
    bad_catalog = tmp_path / "not-a-catalog.csv"
    bad_catalog.write_text(NOT_A_CATALOG)
    outdir = tmp_path / "out"
    slurm_logs = tmp_path / "slurm-logs"
    config = write_config(
        tmp_path / "failing.yaml", outdir, {"base_url": "http://127.0.0.1:9", "catalog_file": str(bad_catalog)}
    )
    run = start_snakemake(
        "failing", [*slurm_args(config, slurm_logs, cluster), *corpus_targets(outdir)], tmp_path, FAILURE_TIMEOUT_S
    ).wait()
    text = run.text
    assert run.returncode != 0, f"the workflow succeeded with a broken catalog:\n{text[-4000:]}"
    assert "Error in rule select_books" in text, text[-4000:]
    assert "At least one job did not complete successfully" in text, text[-4000:]
    submitted = submissions(text, slurm_logs)
    assert [kind for _, kind in submitted][0] == "rule_download_catalog", submitted
    attempts = [job_id for job_id, kind in submitted if kind == "rule_select_books"]
    retries = yaml.safe_load((PROFILE / "config.yaml").read_text()).get("retries", 0)
    assert len(attempts) == 1 + retries, submitted  # every attempt went to the cluster
    records = slurm_records(attempts)
    assert all(records.get(job_id, {}).get("state") == "FAILED" for job_id in attempts), records
    # the job's own one-line message reached its SLURM log, naming the file and what is wrong
    slurm_text = "".join(p.read_text(errors="replace") for p in slurm_logs.rglob("*.log"))
    assert "catalog/pg_catalog.csv: missing required column" in slurm_text, slurm_text[-4000:]
    assert not (outdir / "corpus/selection.parquet").exists()
    assert not any(outdir.glob("corpus/*.parquet"))
