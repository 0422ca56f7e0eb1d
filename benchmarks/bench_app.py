"""Benchmark: `punctstyle app RESULTS` from launch to a page that answers a pasted 5,000-word text.

One process, pinned to one core (``taskset -c 0`` where it exists; torch and BLAS limited to one
thread), runs ``python -m punctstyle app RESULTS --port 0``. Timed, wall clock:

* ``startup``: launch until the server says where it listens (imports, the bundle loaded);
* ``first page``: the first ``GET /`` (the page with the form);
* ``first answer``: the first ``POST /text`` of the 5,000-word text (attribution, sequence and
  f1/f3 figures drawn), then the median of ``--repeats`` more;
* ``launch to answer``: startup + first page + first answer.

Baseline, in the same run and on the same core: ``python -m punctstyle attribute FILE --model
BUNDLE`` on the same text (a cold process: what a user of the CLI waits for); the ratio
app answer / CLI is printed. The text is our own sentences (seeded), 5,000 words.

Usage: ``python benchmarks/bench_app.py RESULTS [--words 5000] [--repeats 5] [--target-answer 2
--target-page 1]``. Exit status 1 if the warm answer or the first page misses its target.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORDS = ("lamp wind road river night house stone letter morning garden window door field sea "
         "voice hand face light rain snow bell ship table fire chair book bread").split()
MARKS = [",", ",", ",", ".", ".", ";", ":", "!", "?", "..."]


def own_text(n_words: int, seed: int = 0) -> str:
    """``n_words`` words of invented sentences with every mark (quotes and parentheses too)."""
    rng = random.Random(seed)
    out, count = [], 0
    while count < n_words:
        length = min(rng.randint(3, 14), n_words - count)
        words = " ".join(rng.choice(WORDS) for _ in range(length))
        mark = rng.choice(MARKS)
        piece = f"{words}{mark}"
        roll = rng.random()
        if roll < 0.1:
            piece = f'"{piece}"'
        elif roll < 0.15:
            piece = f"({piece})"
        out.append(piece.capitalize())
        count += length
    return " ".join(out)


def one_core() -> list[str]:
    return ["taskset", "-c", "0"] if shutil.which("taskset") else []


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1", "TORCH_NUM_THREADS": "1"}


def timed_request(url: str, data: bytes | None = None) -> tuple[float, int, bytes]:
    start = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=120) as response:
        body = response.read()
        status = response.status
    return time.perf_counter() - start, status, body


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a finished run's outdir or an attribution bundle")
    parser.add_argument("--words", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--target-answer", type=float, default=2.0)
    parser.add_argument("--target-page", type=float, default=1.0)
    args = parser.parse_args()
    text = own_text(args.words)
    form = urllib.parse.urlencode({"text": text}).encode("utf-8")
    bundle = Path(args.results) / "models" / "attribution"
    bundle = bundle if bundle.is_dir() else Path(args.results)

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "text.txt"
        path.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        cli = subprocess.run([*one_core(), sys.executable, "-m", "punctstyle", "attribute", str(path), "--model",
                              str(bundle)], capture_output=True, text=True, env=environment(), cwd=scratch)
        cli_seconds = time.perf_counter() - start
        if cli.returncode != 0:
            sys.stderr.write(cli.stderr)
            return 2

    start = time.perf_counter()
    server = subprocess.Popen([*one_core(), sys.executable, "-m", "punctstyle", "app", args.results, "--port", "0"],
                              stderr=subprocess.PIPE, text=True, env=environment())
    try:
        line = server.stderr.readline()
        startup = time.perf_counter() - start
        if " on http://" not in line:
            sys.stderr.write(line + server.stderr.read())
            return 2
        url = line.split(" on ", 1)[1].split()[0].rstrip("/")
        page, status, _ = timed_request(url + "/")
        first, status_post, body = timed_request(url + "/text", form)
        if status != 200 or status_post != 200 or b"Most likely author" not in body:
            sys.stderr.write(f"unexpected answer: GET {status}, POST {status_post}\n")
            return 2
        warm = statistics.median(timed_request(url + "/text", form)[0] for _ in range(args.repeats))
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(f"results: {args.results}; text: {args.words} words of our own sentences; one core: {bool(one_core())}")
    print(f"startup (launch to listening, bundle loaded) {startup:6.2f} s")
    print(f"first page (GET /)                           {page:6.2f} s   target < {args.target_page:g} s")
    print(f"first answer (POST /text)                    {first:6.2f} s")
    print(f"answer, median of {args.repeats} more                   {warm:6.2f} s   target < {args.target_answer:g} s")
    print(f"launch to answer (startup + page + answer)   {startup + page + first:6.2f} s")
    print(f"baseline: `punctstyle attribute` (cold CLI)  {cli_seconds:6.2f} s   "
          f"ratio first answer / CLI {first / cli_seconds:.2f}, launch to answer / CLI {(startup + page + first) / cli_seconds:.2f}")
    return 0 if warm < args.target_answer and page < args.target_page else 1


if __name__ == "__main__":
    sys.exit(main())
