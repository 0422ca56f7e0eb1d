"""The book-job server (issue 37 item 1): a local run's per-book jobs as forks of one warm
process, with the same files, streams, exit statuses and one-line errors as a process of their
own; the commands it does not take, or cannot, run as before."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from punctstyle.book import job_client, job_server
from punctstyle.plan.book_jobs import (
    PYTHON_VARIABLE,
    SERVER_VARIABLE,
    job_server_wanted,
    start_book_job_server,
)
from tests.conftest import REPO
from tests.fixtures.tei_corpus import tei_document
from tests.unit.test_book_job import download_args, extract_args

pytestmark = pytest.mark.skipif(not job_server.supported(), reason="no os.pidfd_open or fork on this system")


# -- exact pieces -----------------------------------------------------------------------------


def test_a_jobs_status_as_a_shell_reports_it():
    assert [job_client.shell_status(s) for s in (0, 1, 3, -9, -15)] == [0, 1, 3, 137, 143]


def test_only_the_book_jobs_go_to_the_server():
    assert job_client.is_book_job(["-m", "punctstyle.book.jobs.extract", "7"])
    assert job_client.is_book_job(["-m", "punctstyle.book.jobs.download"])
    assert not job_client.is_book_job(["-m", "punctstyle.cli", "attribute"])
    assert not job_client.is_book_job(["script.py", "-m", "punctstyle.book.jobs.extract"])
    assert not job_client.is_book_job(["-c", "print(1)"])
    assert not job_client.is_book_job([])


def test_a_request_is_its_length_then_its_fields_and_reads_back():
    data = job_client.request_bytes(
        ["-m", "punctstyle.book.jobs.extract", "a b"], b"/w", {b"A": b"\xc3\xa9", b"B": b"x=y"}
    )
    payload = b"3\0-m\0punctstyle.book.jobs.extract\0a b\0/w\0A=\xc3\xa9\0B=x=y"
    assert data == len(payload).to_bytes(4, "big") + payload
    assert job_client.parse_request(payload) == {
        "argv": ["-m", "punctstyle.book.jobs.extract", "a b"], "cwd": "/w", "env": {"A": "é", "B": "x=y"}
    }  # fmt: skip
    assert job_client.parse_request(job_client.request_bytes([], b"/", {})[4:]) == {"argv": [], "cwd": "/", "env": {}}


def test_a_status_is_four_signed_bytes():
    assert [job_client.status_bytes(s) for s in (0, 2, -9)] == [b"\0\0\0\0", b"\0\0\0\2", b"\xff\xff\xff\xf7"]


def test_the_rules_file_of_an_extraction_and_of_nothing_else():
    extract = ["-m", "punctstyle.book.jobs.extract", "7", "--rules", "r.json", "--log", "x"]
    assert job_server.rules_path(extract) == "r.json"
    assert job_server.rules_path(["-m", "punctstyle.book.jobs.download", "7", "--rules", "r.json"]) is None
    assert job_server.rules_path(["-m", "punctstyle.book.jobs.extract", "7", "--rules"]) is None


def test_exit_codes_as_python_gives_them(capsys):
    assert [job_server.exit_code(SystemExit(c)) for c in (None, 0, 2)] == [0, 0, 2]
    assert job_server.exit_code(SystemExit("usage: no")) == 1
    assert capsys.readouterr().err == "usage: no\n"


def test_the_launcher_quotes_every_path():
    text = job_server.launcher_text("/a b/python", "/c/client.py", "/t/socket")
    assert text == "#!/bin/sh\nexec '/a b/python' -S -E /c/client.py /t/socket '/a b/python' \"$@\"\n"


@pytest.mark.parametrize(
    ("methods", "local", "rules", "environ", "wanted"),
    [
        ((), True, {"extract_book", "corpus_tables"}, {}, True),
        ((), True, {"select_books"}, {SERVER_VARIABLE: ""}, True),
        ((), True, {"corpus_tables", "figures_corpus"}, {}, False),  # no per-book job to run
        ((), False, {"extract_book"}, {}, False),  # a cluster's jobs
        (("conda",), True, {"extract_book"}, {}, False),  # the environment's python
        ((), True, {"download_book"}, {SERVER_VARIABLE: "off"}, False),
        ((), True, {"download_book"}, {SERVER_VARIABLE: " 0 "}, False),
        ((), True, {"ingest_document"}, {SERVER_VARIABLE: "on"}, True),
    ],
)
def test_when_a_run_starts_the_server(methods, local, rules, environ, wanted):
    assert job_server_wanted(methods, local, rules, environ) is wanted


# -- the server and its launcher ----------------------------------------------------------


@pytest.fixture(scope="module")
def server():
    running = job_server.start_server()
    yield running
    assert running.stop() == 0
    assert not running.folder.exists()


def run(python: str, args: list[str], cwd: Path = REPO, **env: str) -> subprocess.CompletedProcess:
    """``PYTHON -m punctstyle.book.jobs.STEP ...`` (``args``: the step, then its options)."""
    step, *rest = args
    return subprocess.run(
        [python, "-m", f"punctstyle.book.jobs.{step}", *rest],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )


def test_a_book_through_the_server_writes_the_files_of_its_own_processes(server, book_mirror, rules_file, tmp_path):
    own, served = tmp_path / "own", tmp_path / "served"
    for folder, python in ((own, sys.executable), (served, str(server.launcher))):
        folder.mkdir()
        for args in (download_args(book_mirror, folder), extract_args(folder, rules_file, "--excerpt-marks", "None")):
            proc = run(python, args)
            assert proc.returncode == 0, proc.stderr
    for name in ("s.parquet", "w.parquet", "f.parquet"):
        got, expected = pq.read_table(served / name), pq.read_table(own / name)
        assert got.equals(expected) and got.schema.metadata == expected.schema.metadata, name
    assert (served / "7.txt.gz").read_bytes() != b""
    provenance = [json.loads((folder / "7.json").read_text()) for folder in (own, served)]
    assert [{k: v for k, v in p.items() if k != "fetched_at"} for p in provenance] == [
        {k: v for k, v in provenance[0].items() if k != "fetched_at"}
    ] * 2
    log = (served / "7.extract.log").read_text()
    assert "book 7: included" in log


def test_a_failing_job_gives_its_status_and_one_line(server, book_mirror, rules_file, tmp_path):
    assert run(str(server.launcher), download_args(book_mirror, tmp_path)).returncode == 0
    text = tmp_path / "7.txt.gz"
    text.write_bytes(text.read_bytes()[:20])
    proc = run(str(server.launcher), extract_args(tmp_path, rules_file))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"punctstyle: {text}: not a valid gzip-compressed UTF-8 text (Compressed file ended before the "
        "end-of-stream marker was reached); deleted it: the next run remakes it and everything after it"
    ]
    assert not text.exists()
    usage = run(str(server.launcher), ["extract", "7"])
    assert usage.returncode == 2 and "the following arguments are required: --log" in usage.stderr


PROBE = textwrap.dedent(
    """
    import json, os, sys
    print(json.dumps([os.getcwd(), os.environ.get("PROBE"), os.environ.get("OPENBLAS_NUM_THREADS"), sys.argv[1:]]))
    sys.stderr.write("to stderr\\n")
    raise SystemExit(int(sys.argv[-1]))
    """
)


def test_a_job_runs_with_the_commands_directory_environment_arguments_and_status(tmp_path):
    """:func:`~punctstyle.book.job_server.run_job` as the fork calls it, on a probe module: the
    request's working directory, environment (but the thread pools' variables, those of the
    process) and arguments; the module's exit status."""
    (tmp_path / "probe.py").write_text(PROBE)
    code = textwrap.dedent(
        f"""
        import os, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from punctstyle.book import job_server
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        request = {{"argv": ["-m", "probe", "a b", "3"], "cwd": {str(tmp_path / "work")!r},
                    "env": {{"PROBE": "seen", "OPENBLAS_NUM_THREADS": "8"}}}}
        code = job_server.run_job(request, [os.dup(0), os.dup(1), os.dup(2)])
        print("status", code)
        """
    )
    (tmp_path / "work").mkdir()
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [json.dumps([str(tmp_path / "work"), "seen", "1", ["a b", "3"]]), "status 3"]
    assert proc.stderr == "to stderr\n"


def test_a_job_that_cannot_start_ends_its_fork_with_status_1(tmp_path):
    """A fork whose job fails before its module runs (its working directory gone) reports the
    error on the job's stream and leaves with status 1, never back into the server's loop."""
    code = textwrap.dedent(
        f"""
        import os
        from punctstyle.book import job_server
        request = {{"argv": ["-m", "punctstyle.book.jobs.extract"], "cwd": {str(tmp_path / "gone")!r}, "env": {{}}}}
        pid = os.fork()
        if pid == 0:
            job_server.become_job(request, [os.dup(0), os.dup(1), os.dup(2)])
            print("back in the loop")
        print("status", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.stdout == "status 1\n"
    assert (
        proc.stderr.rstrip().splitlines()[-1]
        == f"FileNotFoundError: [Errno 2] No such file or directory: {str(tmp_path / 'gone')!r}"
    )


def test_without_a_server_the_launcher_runs_the_job_itself(book_mirror, rules_file, tmp_path):
    launcher = tmp_path / "python"
    launcher.write_text(job_server.launcher_text(sys.executable, job_client.__file__, str(tmp_path / "no-socket")))
    launcher.chmod(0o755)
    proc = run(str(launcher), download_args(book_mirror, tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "7.json").read_text())["status"] == "ok"
    other = subprocess.run([str(launcher), "-c", "import sys; print(sys.flags.no_site)"], capture_output=True,
                           text=True)  # fmt: skip
    assert other.stdout == "0\n"  # Python itself: the client's -S is gone with the exec


def test_a_command_the_server_does_not_take_runs_as_python(server):
    other = subprocess.run([str(server.launcher), "-c", "import sys; print(sys.argv[1:])", "x"], capture_output=True,
                           text=True)  # fmt: skip
    assert other.stdout == "['x']\n"


def children(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux's ``/proc/PID/task/*/children``)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def test_a_job_whose_command_is_killed_is_ended(server, tmp_path):
    """A download from a server that accepts and never answers (timeout 30 s): its command
    killed, the job's fork is ended at once."""
    silent = silent_http()
    try:
        command = slow_download(server.launcher, silent.getsockname()[1], tmp_path, 30.0)
        assert wait_for(lambda: len(children(server.process.pid)) == 1)
        command.kill()
        command.wait()
        assert wait_for(lambda: children(server.process.pid) == set(), timeout_s=10)
    finally:
        silent.close()
    assert not (tmp_path / "7.json").exists()


def test_an_orphaned_server_ends_and_removes_its_folder(tmp_path):
    (tmp_path / "server").mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "punctstyle.book.job_server", str(tmp_path / "server/s"), "-1"],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)  # fmt: skip
    assert proc.stdout.readline() == "ready\n"
    assert proc.wait(timeout=10) == 0
    assert not (tmp_path / "server").exists() and tmp_path.exists()


def test_a_server_that_cannot_start_says_why(tmp_path):
    missing = tmp_path / "python"
    with pytest.raises(
        RuntimeError, match=f"^the book-job server did not start: {missing}: No such file or directory$"
    ):
        job_server.start_server(str(missing))
    bare = tmp_path / "bare-python"  # a Python that cannot import the package
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S "$@"\n')
    bare.chmod(0o755)
    with pytest.raises(RuntimeError, match="^the book-job server did not start: .*No module named 'punctstyle'"):
        job_server.start_server(str(bare))


def test_the_workflows_start_switches_the_jobs_python_and_stops_at_exit(tmp_path):
    environ = {PYTHON_VARIABLE: sys.executable}
    running = start_book_job_server(environ)
    try:
        assert environ[PYTHON_VARIABLE] == str(running.launcher) and running.launcher.exists()
        assert running.process.poll() is None
    finally:
        assert running.stop() == 0
    broken = {PYTHON_VARIABLE: str(tmp_path / "nothing")}
    assert start_book_job_server(broken) is None
    assert broken[PYTHON_VARIABLE] == str(tmp_path / "nothing")


# -- what a job imports --------------------------------------------------------------------

AFTER_PRELOAD = textwrap.dedent(
    """
    import json, runpy, sys
    from punctstyle.book import job_server, job_exit
    job_server.preload()
    before = set(sys.modules)
    job_exit.finish_job = lambda: None  # stay to report
    for argv in json.loads(sys.argv[1]):
        sys.argv = [argv[0], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__")
    print(json.dumps(sorted(set(sys.modules) - before)))
    """
)


def test_a_job_imports_nothing_the_server_has_not_imported(book_mirror, rules_file, tmp_path):
    document = tmp_path / "one.xml"
    document.write_bytes(tei_document(["Oui, dit-elle ; non."], language="fr"))
    plain = tmp_path / "two.txt"
    plain.write_text("Yes; no.\n")
    jobs = [
        ["-m", "punctstyle.book.jobs.download", *download_args(book_mirror, tmp_path)[1:]],
        ["-m", "punctstyle.book.jobs.extract", *extract_args(tmp_path, rules_file, "--excerpt-marks", "50")[1:]],
        ["-m", "punctstyle.book.jobs.ingest", "3", "--document", str(plain), "--doc-id", "two", "--file", "two.txt",
         "--max-text-mb", "1", "--text", str(tmp_path / "3.txt.gz"), "--provenance", str(tmp_path / "3.json"),
         "--log", str(tmp_path / "3.log")],
        ["-m", "punctstyle.book.jobs.ingest_tei", "4", "--document", str(document), "--doc-id", "one", "--file",
         "one.xml", "--parts", "body", "--notes", "False", "--max-text-mb", "1", "--text", str(tmp_path / "4.txt.gz"),
         "--provenance", str(tmp_path / "4.json"), "--log", str(tmp_path / "4.log")],
    ]  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", AFTER_PRELOAD, json.dumps(jobs)], cwd=REPO, capture_output=True,
                          text=True)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.splitlines()[-1]) == [], proc.stdout


def test_the_server_and_client_import_only_the_standard_library():
    code = "import sys; import punctstyle.book.job_server; print(sorted(m for m in ('numpy', 'pyarrow', 'pandas') if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert proc.stdout == "[]\n"


def silent_http() -> socket.socket:
    """A listening socket on loopback that accepts and never answers."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    return silent


def slow_download(launcher: Path, port: int, folder: Path, timeout_s: float) -> subprocess.Popen:
    policy = json.dumps({"timeout_s": timeout_s, "attempt_deadline_s": 60, "retries": 0, "backoff_s": 0.1,
                         "user_agent": None})  # fmt: skip
    return subprocess.Popen(
        [str(launcher), "-m", "punctstyle.book.jobs.download", "7", "--base-url", f"http://127.0.0.1:{port}",
         "--templates", "files/{id}/{id}.txt", "--max-text-mb", "1", "--policy", policy,
         "--text", str(folder / "7.txt.gz"), "--provenance", str(folder / "7.json"), "--log", str(folder / "7.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def wait_for(condition, timeout_s: float = 20) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_a_terminated_server_ends_after_its_running_job(tmp_path):
    """SIGTERM stops the server taking jobs; it ends once the job it runs has (a download that
    times out after 2 s), and that job's command gets its status."""
    running = job_server.start_server()
    silent = silent_http()
    try:
        command = slow_download(running.launcher, silent.getsockname()[1], tmp_path, 2.0)
        assert wait_for(lambda: len(children(running.process.pid)) == 1)
        running.process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert running.process.poll() is None  # the job still runs
        # a command that comes now is not taken: it runs its job itself
        (tmp_path / "m/files/8").mkdir(parents=True)
        (tmp_path / "m/files/8/8.txt").write_text("Yes; no.\n")
        args = download_args(tmp_path / "m", tmp_path / "later")
        args[1] = "8"
        later = run(str(running.launcher), args)
        assert later.returncode == 0, later.stderr
        assert json.loads((tmp_path / "later/7.json").read_text())["status"] == "ok"
        assert len(children(running.process.pid)) == 1  # only the first job ran there
        assert command.wait(timeout=30) == 0, command.stderr.read()
        assert json.loads((tmp_path / "7.json").read_text())["status"] == "failed"  # timed out
        assert running.process.wait(timeout=10) == 0
    finally:
        silent.close()
        running.stop()


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (exists and is not a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_both_ends_of_a_job_in_one_round_leave_the_server_serving(server, book_mirror, tmp_path):
    """A job that ends and whose command is killed while the server is not looking (stopped):
    both events come in one round; the server goes on, and the next job runs there."""
    silent = silent_http()
    try:
        command = slow_download(server.launcher, silent.getsockname()[1], tmp_path, 1.0)
        assert wait_for(lambda: len(children(server.process.pid)) == 1)
        (fork,) = children(server.process.pid)
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            assert wait_for(lambda: not alive(fork))  # the job timed out and ended (a zombie)
            command.kill()
            command.wait()
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        assert wait_for(lambda: children(server.process.pid) == set())
    finally:
        silent.close()
    proc = run(str(server.launcher), download_args(book_mirror, tmp_path / "next"))
    assert proc.returncode == 0, proc.stderr
    assert server.process.poll() is None and server.report() == ""


def test_a_rules_file_that_does_not_compile_fails_its_job_not_the_server(server, book_mirror, rules_file, tmp_path):
    broken = tmp_path / "broken.json"
    data = json.loads(rules_file.read_text())
    data["patterns"]["prefix"][0] = "("  # an expression that does not compile
    broken.write_text(json.dumps(data))
    assert run(str(server.launcher), download_args(book_mirror, tmp_path)).returncode == 0
    proc = run(str(server.launcher), extract_args(tmp_path, broken))
    assert proc.returncode == 1 and "missing ), unterminated subpattern" in proc.stderr
    assert server.process.poll() is None and server.report() == ""
    good = run(str(server.launcher), extract_args(tmp_path, rules_file))
    assert good.returncode == 0, good.stderr


STARTER = textwrap.dedent(
    """
    import time
    from punctstyle.book import job_server
    running = job_server.start_server()
    print(running.launcher, running.process.pid, flush=True)
    time.sleep(600)
    """
)


def test_a_server_whose_starter_is_killed_ends_its_jobs_and_itself(tmp_path):
    """Snakemake killed (SIGKILL) with a job running: the server ends the job and itself."""
    starter = subprocess.Popen([sys.executable, "-c", STARTER], cwd=REPO, stdout=subprocess.PIPE, text=True)
    launcher, server_pid = starter.stdout.readline().split()
    silent = silent_http()
    try:
        command = slow_download(Path(launcher), silent.getsockname()[1], tmp_path, 30.0)
        assert wait_for(lambda: len(children(int(server_pid))) == 1)
        (fork,) = children(int(server_pid))
        starter.kill()
        starter.wait()
        assert wait_for(lambda: not alive(fork) and not alive(int(server_pid)), timeout_s=10)
        assert command.wait(timeout=10) == 128 + signal.SIGTERM  # the job's end, as a shell says it
    finally:
        silent.close()
    assert not Path(launcher).parent.exists()  # the orphan removed its own folder


def test_a_server_that_never_says_ready_is_given_up(tmp_path):
    slow = tmp_path / "slow-python"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="^the book-job server did not start: not ready within 1 s$"):
        job_server.start_server(str(slow), timeout_s=1)
    assert time.monotonic() - start < 10


def test_the_client_imports_no_module_but_the_interpreters_own():
    proc = subprocess.run([sys.executable, "-S", "-E", "-X", "importtime", job_client.__file__, "/nowhere", "/bin/true",
                           "-c", "x"], capture_output=True, text=True)  # fmt: skip
    modules = set(re.findall(r"\|\s+(\S+)$", proc.stderr, re.MULTILINE))
    assert proc.returncode == 0 and {"_socket", "_signal"} <= modules
    assert not modules & {"socket", "signal", "json", "enum", "selectors", "struct"}, modules
