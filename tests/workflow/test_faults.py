"""Faults: a workflow killed mid-run, and a mirror that times out or drops connections.

Snakemake runs as the user runs it (``python -m snakemake <targets> --cores 2 --configfile
config/test.yaml run.yaml``, the default workflow profile applies) in a scratch working
directory whose entries are symlinks to this checkout. The scratch directory has its own
``.snakemake`` (locks, incomplete markers), so concurrent runs from the checkout cannot hide
or remove the stale lock that a kill leaves behind.

The kills are made deterministic by the mirror (:mod:`tests.fixtures.faulty_server`): it holds
chosen downloads in the middle of their body, so at the moment of the kill we know exactly
which jobs are in flight and which books Snakemake has finished.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
import yaml

from punctstyle.book.sequence_file import read_sequence
from punctstyle.sources.download import SITE_URL_TEMPLATES, fetch_book
from punctstyle.sources.provenance import read_provenance, write_book
from punctstyle.io import write_gzip_text_atomic
from punctstyle.plan.book_jobs import SERVER_STARTED, SERVER_VARIABLE
from punctstyle.rule_names import FEATURES
from tests.conftest import link_checkout
from tests.fixtures.faulty_server import FaultyServer, serve_faulty
from tests.fixtures.mini_mirror import CATALOG_HEADER, HTML_BOOK, MISSING_BOOK, build_mini_mirror

pytestmark = pytest.mark.workflow

CORPUS_FILES = [f"corpus/{f}.parquet" for f in FEATURES] + ["corpus/exclusions.csv", "corpus/summary.json"]
N_SELECTED = 12  # books the mini mirror's catalog keeps (tests/fixtures/mini_mirror.py)
LOCK_MESSAGE = "Directory cannot be locked"
# Safety nets only: every wait below ends on an event (a process's exit, a file or a request
# appearing); these bounds just keep a broken run from hanging the suite.
RUN_TIMEOUT_S = 600
WAIT_TIMEOUT_S = 600


# --------------------------------------------------------------------------------------------
# Running Snakemake


class Workflow:
    """One output folder + config + scratch working directory, run like a user would."""

    def __init__(self, base: Path, base_url: str, **config: object) -> None:
        self.out = base / "out"
        self.work = link_checkout(base / "work")
        settings = {"outdir": str(self.out), "mirror": {"base_url": base_url}}
        for key, value in config.items():
            settings[key] = {**settings.get(key, {}), **value} if isinstance(value, dict) else value
        self.config = base / "run.yaml"
        self.config.write_text(yaml.safe_dump(settings))
        self.log = base / "snakemake.log"

    def command(self, *extra: str) -> list[str]:
        # targets first: --configfile takes every argument after it
        targets = [str(self.out / name) for name in CORPUS_FILES]
        return [sys.executable, "-m", "snakemake", *targets, "--cores", "2",
                "--configfile", "config/test.yaml", str(self.config), *extra]  # fmt: skip

    def run(self, *extra: str, check: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        proc = subprocess.run(
            self.command(*extra),
            cwd=self.work,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            env=None if env is None else {**os.environ, **env},
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"snakemake {' '.join(extra)} failed:\n{proc.stderr[-6000:]}")
        return proc

    def start(self) -> subprocess.Popen:
        """Start a run in its own process group (jobs included), its output to ``self.log``."""
        with open(self.log, "w") as log:
            return subprocess.Popen(
                self.command(), cwd=self.work, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def files(self, folder: str, pattern: str) -> dict[int, Path]:
        """Final files ``folder/{id}<suffix>`` by book id (hidden temporary files ignored)."""
        return {int(p.name.split(".")[0]): p for p in (self.out / folder).glob(pattern) if not p.name.startswith(".")}


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of process group ``pgid``, from /proc (Linux)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended while we looked
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(stat.parent.name))
    return members


def kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL, flow: Workflow | None = None) -> None:
    """Send ``sig`` to the run's process group; return once Snakemake has exited and every
    job process of the group has ended (events; the timeout is a safety net only)."""
    os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        log = flow.log_text()[-4000:] if flow else ""
        raise AssertionError(f"snakemake did not exit within {RUN_TIMEOUT_S} s of {sig!r}:\n{log}") from None
    wait_until(lambda: not group_members(proc.pid), f"the jobs of process group {proc.pid} to end")


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` until it holds (the timeout is a safety net only)."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT_TIMEOUT_S} s for {what}")
        time.sleep(0.05)


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen, flow: Workflow, what: str) -> None:
    """Poll ``condition`` while the run goes on; fail at once if the run ends first."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    while not condition():
        if proc.poll() is not None:
            raise AssertionError(f"snakemake ended (rc {proc.returncode}) before {what}:\n{flow.log_text()[-4000:]}")
        if time.monotonic() > deadline:
            kill_group(proc)
            raise AssertionError(f"timed out waiting for {what}:\n{flow.log_text()[-4000:]}")
        time.sleep(0.05)


def stop_group_when(condition: Callable[[], bool], proc: subprocess.Popen, flow: Workflow, what: str) -> None:
    """Stop the run's whole process group (SIGSTOP: Snakemake, its jobs, the book-job server and
    its forks) at a moment ``condition`` holds: once it holds, stop the group and check it again
    on the frozen run (log and files); if it no longer holds (a job ended in between), let the
    run go on (SIGCONT) and wait again. A short job is then caught however fast it runs."""
    while True:
        wait_for(condition, proc, flow, what)
        os.killpg(proc.pid, signal.SIGSTOP)
        if condition():
            return
        os.killpg(proc.pid, signal.SIGCONT)


_JOB_START = re.compile(r"^localrule (\w+):\n((?:    .*\n)+)", re.MULTILINE)
_JOB_DONE = re.compile(r"^Finished jobid: (\d+) \(Rule: (\w+)\)", re.MULTILINE)


def jobs_in_flight(log: str) -> dict[int, tuple[str, int | None]]:
    """Jobs Snakemake has started and not yet recorded as finished: jobid -> (rule, book id)."""
    started = {}
    for rule, body in _JOB_START.findall(log):
        jobid = re.search(r"^    jobid: (\d+)$", body, re.MULTILINE)
        book = re.search(r"^    wildcards: book_id=(\d+)$", body, re.MULTILINE)
        if jobid:
            started[int(jobid.group(1))] = (rule, int(book.group(1)) if book else None)
    for jobid, _ in _JOB_DONE.findall(log):
        started.pop(int(jobid), None)
    return started


def unlock_and_rerun(flow: Workflow, server: FaultyServer) -> float:
    """After a SIGKILL: the plain command meets the stale lock, ``--unlock``, then it completes.

    Returns the server time (``time.monotonic()``) at which the rerun started.
    """
    blocked = flow.run(check=False)
    assert blocked.returncode != 0 and LOCK_MESSAGE in blocked.stderr, blocked.stderr[-3000:]
    assert "--unlock" in blocked.stderr
    flow.run("--unlock")
    since = time.monotonic()
    flow.run()
    assert server.n_held == 0
    return since


# --------------------------------------------------------------------------------------------
# Checks on what a kill leaves behind


def snapshot(paths: list[Path]) -> dict[Path, tuple[int, str]]:
    """mtime (ns) and SHA-256 of each file."""
    return {p: (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest()) for p in paths}


def check_outputs_intact(flow: Workflow, *, killed: bool = True) -> dict[str, set[int]]:
    """Every final file (of a killed run) is whole; returns the book ids present per folder.

    Atomic writes leave only hidden ``.{name}.*.tmp`` files behind a kill: no final output may
    be a partial file. A text exists only with its provenance, and its provenance's
    ``text_sha256`` matches the decompressed text.
    """
    for path in flow.out.rglob("*"):
        if path.is_file() and path.name.endswith(".tmp"):
            assert path.name.startswith("."), f"partial file under a final name: {path}"
    texts = flow.files("books", "*.txt.gz")
    provenances = flow.files("books", "*.json")
    assert set(texts) == set(provenances), "a text without its provenance, or the reverse"
    for book_id, path in provenances.items():
        record = read_provenance(path)
        assert record["book_id"] == book_id
        text = gzip.decompress(texts[book_id].read_bytes()).decode("utf-8")  # raises if truncated
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() == record["text_sha256"]
    sequences = flow.files("sequences", "*.parquet")
    for book_id, path in sequences.items():
        _, metadata = read_sequence(path)
        assert int(metadata["book_id"]) == book_id and book_id in provenances
    features = flow.files("features", "*.parquet")
    for book_id, path in features.items():
        assert pd.read_parquet(path)["book_id"].tolist() == [book_id] and book_id in sequences
    if killed:
        assert not any((flow.out / name).exists() for name in CORPUS_FILES)
    return {"books": set(provenances), "sequences": set(sequences), "features": set(features)}


def normalised_outputs(flow: Workflow, base_url: str) -> dict[str, object]:
    """The corpus tables, exclusions and summary, with the mirror's URL (its port) masked."""
    result: dict[str, object] = {f: pd.read_parquet(flow.out / f"corpus/{f}.parquet") for f in FEATURES}
    exclusions = pd.read_csv(flow.out / "corpus/exclusions.csv")
    exclusions["reason"] = exclusions["reason"].str.replace(base_url, "<mirror>", regex=False)
    result["exclusions"] = exclusions
    # the summary's verbatim exclusion examples name the mirror's URL too
    summary = (flow.out / "corpus/summary.json").read_text()
    result["summary"] = json.loads(summary.replace(base_url, "<mirror>"))
    return result


def assert_same_outputs(got: dict[str, object], expected: dict[str, object]) -> None:
    for key, value in expected.items():
        if isinstance(value, pd.DataFrame):
            pd.testing.assert_frame_equal(got[key], value, check_exact=True, obj=key)
        else:
            assert got[key] == value, key


# --------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def mirror_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mirror")
    build_mini_mirror(root)
    return root


# held downloads must neither time out nor pass their attempt deadline before the kill
KILL_CONFIG = {"mirror": {"timeout_s": RUN_TIMEOUT_S, "attempt_deadline_s": 2 * RUN_TIMEOUT_S}}


@pytest.fixture(scope="module")
def reference_run(mirror_root, tmp_path_factory) -> tuple[dict[str, object], str, Workflow, str]:
    """The corpus outputs of an uninterrupted run on the same mirror and settings, its console's
    error stream, its folder and its mirror's URL."""
    with serve_faulty(mirror_root) as server:
        flow = Workflow(tmp_path_factory.mktemp("reference"), server.url, **KILL_CONFIG)
        proc = flow.run()
        outputs = normalised_outputs(flow, server.url)
    assert outputs["summary"]["books_selected"] == N_SELECTED
    return outputs, proc.stderr, flow, server.url


@pytest.fixture(scope="module")
def reference(reference_run) -> dict[str, object]:
    return reference_run[0]


def per_book_files(flow: Workflow, base_url: str) -> dict[str, pd.DataFrame]:
    """Every sequence, words and features file of a run, by its path under the output folder
    (the mirror's URL, its port, masked in an exclusion's reason)."""
    tables = {f"{folder}/{path.name}": pd.read_parquet(path)
              for folder in ("sequences", "words", "features") for path in sorted((flow.out / folder).glob("*.parquet"))}  # fmt: skip
    for table in tables.values():
        if "reason" in table:
            table["reason"] = table["reason"].str.replace(base_url, "<mirror>", regex=False)
    return tables


def test_a_process_a_job_gives_the_files_of_the_book_job_server(mirror_root, reference_run, tmp_path):
    """The reference run's per-book jobs ran on the book-job server (the default of a local run);
    switched off, each job a process of its own, the same corpus tables and per-book files."""
    outputs, console, served, served_url = reference_run
    assert SERVER_STARTED in console
    with serve_faulty(mirror_root) as server:
        flow = Workflow(tmp_path, server.url, **KILL_CONFIG)
        proc = flow.run(env={SERVER_VARIABLE: "off"})
        assert SERVER_STARTED not in proc.stderr
        assert_same_outputs(normalised_outputs(flow, server.url), outputs)
        got, expected = per_book_files(flow, server.url), per_book_files(served, served_url)
    assert sorted(got) == sorted(expected) and len(got) == 3 * N_SELECTED
    for name, table in expected.items():
        pd.testing.assert_frame_equal(got[name], table, check_exact=True, obj=name)


# --------------------------------------------------------------------------------------------
# Kills


N_FINISHED = 4  # books the mirror lets through before it holds every further download


def test_sigkill_during_downloads(mirror_root, reference, tmp_path):
    with serve_faulty(mirror_root, hold_after=N_FINISHED) as server:
        flow = Workflow(tmp_path, server.url, **KILL_CONFIG)
        proc = flow.start()
        # Two held downloads = both cores busy with unfinished downloads: every job started
        # before them has finished and been recorded by Snakemake.
        wait_for(lambda: server.n_held >= 2, proc, flow, "two downloads held by the mirror")
        in_flight = jobs_in_flight(flow.log_text())
        kill_group(proc, signal.SIGKILL, flow)

        present = check_outputs_intact(flow)
        print(f"SIGKILL with jobs in flight {in_flight}; present {present}")
        finished = set(server.books_requested()) - {b for _, b in in_flight.values()}
        assert len(finished) == N_FINISHED and present["books"] == finished, (present, in_flight)
        assert sorted(rule for rule, _ in in_flight.values()) == ["download_book", "download_book"]
        held = {b for _, b in in_flight.values()}
        assert not held & present["books"]
        before = snapshot([p for b in finished for p in (flow.out / f"books/{b}.txt.gz", flow.out / f"books/{b}.json")])

        # The two other states a kill can leave a download in (the window is too short to hit
        # reliably, so they are recreated on the held books, whose jobs Snakemake had started):
        # - killed between the text and the provenance write: the text alone. Its job reruns.
        # - killed after write_book, before Snakemake recorded the job: both files, marked
        #   incomplete. Whole, since the provenance is written last; Snakemake 9.27 keeps them
        #   (jobs behind the checkpoint are not checked for incompleteness), a version that
        #   reruns them (--rerun-incomplete, set by the default profile) is fine too.
        server.hold_after = None
        server.release()
        text_only, both = sorted(held)
        write_gzip_text_atomic(flow.out / f"books/{text_only}.txt.gz", "A text whose provenance never came.\n")
        written = fetch_book(both, server.url, templates=SITE_URL_TEMPLATES)
        write_book(written, flow.out / f"books/{both}.txt.gz", flow.out / f"books/{both}.json")

        since = unlock_and_rerun(flow, server)

        requested_again = server.books_requested(since)
        assert not requested_again & finished, f"finished books downloaded again: {requested_again & finished}"
        not_finished = set(selected_ids(flow)) - finished
        assert not_finished - {both} <= requested_again <= not_finished
        assert not any(r.book_id is None for r in server.requests(since)), "catalog downloaded again"
        assert snapshot(list(before)) == before, "finished books were rewritten"
        assert check_outputs_intact(flow, killed=False)["features"] == set(selected_ids(flow))
        assert_same_outputs(normalised_outputs(flow, server.url), reference)


def test_sigterm_then_ctrl_c_during_downloads(mirror_root, reference, tmp_path):
    """SIGTERM (a scheduler, systemd) and SIGINT (Ctrl-C): Snakemake stops its jobs and
    releases its lock, so the plain command resumes without --unlock."""
    with serve_faulty(mirror_root, hold_after=3) as server:
        flow = Workflow(tmp_path, server.url, **KILL_CONFIG)
        finished: set[int] = set()
        snapshots: dict[Path, tuple[int, str]] = {}
        for sig, next_gate in ((signal.SIGTERM, 7), (signal.SIGINT, None)):
            since = time.monotonic()
            proc = flow.start()
            wait_for(lambda: server.n_held >= 2, proc, flow, "two downloads held by the mirror")
            in_flight = jobs_in_flight(flow.log_text())
            assert sorted(rule for rule, _ in in_flight.values()) == ["download_book", "download_book"]
            kill_group(proc, sig, flow)
            assert proc.returncode != 0
            assert not any((flow.work / ".snakemake/locks").glob("*")), "a lock survived " + sig.name

            assert not server.books_requested(since) & finished, "finished books downloaded again"
            present = check_outputs_intact(flow)
            print(f"{sig.name} with jobs in flight {in_flight}; present {present}")
            held = {b for _, b in in_flight.values()}
            assert present["books"] == finished | (server.books_requested(since) - held)
            finished = present["books"]
            assert snapshot(list(snapshots)) == snapshots, "finished books were rewritten"
            snapshots = snapshot([p for b in finished for p in flow.out.glob(f"books/{b}.*")])
            server.hold_after = next_gate
            server.release()
            wait_until(lambda: server.n_held == 0, "the mirror to let the held requests go")

        since = time.monotonic()
        flow.run()  # no --unlock
        assert server.n_held == 0
        assert not server.books_requested(since) & finished, "finished books downloaded again"
        assert snapshot(list(snapshots)) == snapshots, "finished books were rewritten"
        assert_same_outputs(normalised_outputs(flow, server.url), reference)


def selected_ids(flow: Workflow) -> list[int]:
    return pd.read_parquet(flow.out / "corpus/selection.parquet")["book_id"].astype(int).tolist()


HELD_IN_EXTRACTION_TEST = 204


def test_sigkill_during_extraction(mirror_root, reference, tmp_path):
    with serve_faulty(mirror_root, faults={HELD_IN_EXTRACTION_TEST: "hold"}) as server:
        flow = Workflow(tmp_path, server.url, **KILL_CONFIG)
        proc = flow.start()
        state: dict[str, object] = {}

        def extracting_and_no_download_running() -> bool:
            # Kill while a book is being extracted and no download other than the held one runs:
            # then every book with a provenance file is finished in Snakemake's records.
            jobs = jobs_in_flight(flow.log_text())
            rules = [rule for rule, _ in jobs.values()]
            downloads = {book for rule, book in jobs.values() if rule == "download_book"}
            state["jobs"] = jobs
            return (
                "extract_book" in rules
                and downloads <= {HELD_IN_EXTRACTION_TEST}
                and bool(flow.files("sequences", "*.parquet"))
            )

        # an extraction is short (a fork of the book-job server): the run is frozen while one runs
        stop_group_when(extracting_and_no_download_running, proc, flow, "an extraction with no download running")
        kill_group(proc, signal.SIGKILL, flow)
        jobs = state["jobs"]
        extracting = {jobid for jobid, (rule, _) in jobs.items() if rule == "extract_book"}
        assert not any(f"Finished jobid: {j} " in flow.log_text() for j in extracting), "killed too late"

        present = check_outputs_intact(flow)
        print(f"SIGKILL with jobs in flight {jobs}; present {present}")
        assert 0 < len(present["sequences"]) < N_SELECTED
        finished = present["books"]
        assert HELD_IN_EXTRACTION_TEST not in finished
        before = snapshot([p for b in finished for p in (flow.out / f"books/{b}.txt.gz", flow.out / f"books/{b}.json")])
        # a job killed after writing its output, before Snakemake recorded it, may be rerun
        done = present["sequences"] - {book for rule, book in jobs.values() if rule == "extract_book"}
        sequences_before = snapshot([flow.out / f"sequences/{b}.parquet" for b in done])

        server.faults = {}
        server.release()
        since = unlock_and_rerun(flow, server)

        requested_again = server.books_requested(since)
        assert not requested_again & finished, f"finished books downloaded again: {requested_again & finished}"
        assert requested_again == set(selected_ids(flow)) - finished
        assert snapshot(list(before)) == before, "finished books were rewritten"
        assert snapshot(list(sequences_before)) == sequences_before, "finished sequences were recomputed"
        assert check_outputs_intact(flow, killed=False)["features"] == set(selected_ids(flow))
        assert_same_outputs(normalised_outputs(flow, server.url), reference)


# --------------------------------------------------------------------------------------------
# A slow, connection-dropping mirror


TIMEOUT_S = 4.0
SLOW_S = 0.5  # every book answer is this late: slow, but well within the timeout
RETRIES = 2
FAULTY_BOOKS = {103: "stall", 202: "truncate", 302: "chunked_drop", 303: "reset"}
FAULT_REASONS = {
    103: "timeout",
    202: "truncated body: got",
    302: "connection broken",
    303: "connection error",
}


def test_slow_and_dropping_mirror(mirror_root, tmp_path):
    # a stalled answer waits until the server shuts down: the client's timeout ends it, not a race
    with serve_faulty(mirror_root, faults=FAULTY_BOOKS, delay_s=SLOW_S, stall_s=RUN_TIMEOUT_S) as server:
        flow = Workflow(
            tmp_path,
            server.url,
            mirror={"timeout_s": TIMEOUT_S, "retries": RETRIES, "backoff_s": 0.05},
            # every author keeps 2 books or more, so no fault removes a whole author
            selection={"min_docs_per_author": 2},
        )
        flow.run()
        counts = server.counts()

    for book_id in FAULTY_BOOKS:
        first_url = f"/cache/epub/{book_id}/pg{book_id}.txt"
        assert counts[first_url] == 1 + RETRIES, (book_id, counts[first_url])
        others = [p for p in counts if f"/{book_id}/" in p and p != first_url]
        assert not others, f"book {book_id}: a failed URL must not fall through to {others}"
        record = read_provenance(flow.out / f"books/{book_id}.json")
        assert record["status"] == "failed" and len(record["attempts"]) == 1 + RETRIES
        assert FAULT_REASONS[book_id] in record["reason"], record["reason"]
        assert record["reason"].endswith(f"(after {1 + RETRIES} attempts)"), record["reason"]
        assert gzip.decompress((flow.out / f"books/{book_id}.txt.gz").read_bytes()) == b""

    exclusions = pd.read_csv(flow.out / "corpus/exclusions.csv").set_index("book_id")
    assert set(exclusions.index) == set(FAULTY_BOOKS) | {MISSING_BOOK, HTML_BOOK}
    assert (exclusions["stage"] == "download").all()
    for book_id, reason in FAULT_REASONS.items():
        assert exclusions.loc[book_id, "reason"].startswith("download failed: "), exclusions.loc[book_id]
        assert reason in exclusions.loc[book_id, "reason"]

    summary = json.loads((flow.out / "corpus/summary.json").read_text())
    assert summary["excluded_by_stage"] == {"download": len(FAULTY_BOOKS) + 2}
    by_reason = summary["excluded_by_reason"]
    assert sum(by_reason.values()) == len(FAULTY_BOOKS) + 2
    failed = {k: v for k, v in by_reason.items() if k.startswith("download failed: ")}
    assert sum(failed.values()) == len(FAULTY_BOOKS), by_reason
    assert sum(v for k, v in by_reason.items() if "timeout" in k) == 1

    # the rest of the corpus went on: every other downloadable book is in the tables
    corpus = pd.read_parquet(flow.out / "corpus/f1.parquet")
    expected = set(range(101, 105)) | set(range(201, 205)) | set(range(301, 305))
    expected -= set(FAULTY_BOOKS) | {MISSING_BOOK, HTML_BOOK}
    assert set(corpus["book_id"]) == expected
    slow_but_whole = [p for p in counts if any(f"/{b}/" in p for b in expected)]
    assert all(counts[p] == 1 for p in slow_but_whole), "a slow answer within the timeout was retried"
    assert summary["books_in_corpus"] == len(expected) and summary["books_selected"] == N_SELECTED


# --------------------------------------------------------------------------------------------
# A trickling mirror, and a catalog that selects nothing


def test_trickling_mirror_fails_at_the_attempt_deadline(mirror_root):
    # one byte every 50 ms, each within any read timeout: only the attempt deadline ends it
    deadline, retries = 0.5, 1
    with serve_faulty(mirror_root, faults={101: "trickle"}) as server:
        start = time.monotonic()
        result = fetch_book(
            101, server.url, templates=SITE_URL_TEMPLATES, timeout=TIMEOUT_S, attempt_deadline=deadline,
            retries=retries, backoff=0.01,
        )  # fmt: skip
        elapsed = time.monotonic() - start
        counts = server.counts()
    assert result.status == "failed", result
    assert [outcome.split(" passed")[0] for _, outcome in result.attempts] == ["attempt deadline of 0.5 s"] * 2
    assert counts["/cache/epub/101/pg101.txt"] == 1 + retries and len(counts) == 1
    # about deadline x attempts (the whole book would take minutes); the bound is a safety net
    assert elapsed < 20 * deadline * (1 + retries), f"took {elapsed:.1f} s"


def test_empty_selection_stops_the_run_at_select_books(tmp_path):
    catalog = tmp_path / "pg_catalog.csv"
    rows = [f'{k},Text,2020-01-01,Book {k},en,"Quill, Ada, 1820-1890",Fiction,PZ,Humor' for k in (1, 2)]
    rows += [f'{k},Text,2020-01-01,Book {k},en,"Dash, Cora, -1930",Fiction,PZ,Horror' for k in (3,)]
    catalog.write_text(CATALOG_HEADER + "\n".join(rows) + "\n")
    # config/test.yaml asks for 3 books an author; nothing is downloaded (port 9: discard)
    flow = Workflow(tmp_path / "run", "http://127.0.0.1:9", mirror={"catalog_file": str(catalog)})
    proc = flow.run(check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    line = (
        f"{flow.out}/catalog/pg_catalog.csv: no book selected: no author has min_docs_per_author=3 books "
        "after the catalog filters (the largest author, Quill, Ada, 1820-1890, has 2)"
    )
    assert line in output, output[-4000:]
    assert "Error in rule select_books" in output, output[-4000:]
    assert "download_book" not in output and not (flow.out / "books").exists()
    assert not (flow.out / "corpus/selection.parquet").exists()
