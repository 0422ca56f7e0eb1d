"""What ``punctstyle extract`` costs on a tiny text, per checkout: the start, the imports and the
work of one short command (docs/attribution.md, "What `extract` and `features` load").

    python benchmarks/store_extract_startup.py OUT REPO[=COMMIT] [REPO[=COMMIT] ...] [--repeats 5]

For each checkout (its ``punctstyle`` first on ``PYTHONPATH``; ``=COMMIT`` names the commit of a
tree without git, e.g. ``git archive SHA | tar -x -C DIR``; the first checkout is this one), ``python -m punctstyle extract TEXT`` on a fixed 59-byte text
(:data:`TEXT`), in a fresh child process, the checkouts interleaved run by run so that a busy
machine weighs on each alike: wall seconds, CPU seconds (user + system of the ended child,
``os.wait4``), peak resident memory (``ru_maxrss``, MB) and whether the child had ``torch`` or
``spacy`` loaded (``-X importtime``'s list of imported modules). Writes OUT/runs.csv (one row a
run), OUT/summary.csv (per checkout: median, least and most of each, over the runs) and
OUT/run.json (the command, each checkout's commit, the text's size).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

TEXT = 'He said, "Come in; sit down." She sat: no word -- why not?\n'
"""The 59-byte text (marks of several kinds, a dash, quotes)."""
HEAVY = ("torch", "spacy")


def one_run(repo: Path, text: Path) -> dict:
    """``python -m punctstyle extract TEXT`` with ``repo`` first on the path (run in the text's
    folder): wall s, CPU s, peak MB, and the heavy libraries among the child's imports."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "punctstyle", "extract", str(text)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True,
                             cwd=text.parent)  # not the checkout's folder: -m puts the working folder first
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    modules = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in stderr.splitlines() if "|" in line}
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024,
            "exit_status": child.returncode, **{f"loads_{name}": name in modules for name in HEAVY}}


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per checkout: median, least and most of the wall, CPU and peak over its runs."""
    grouped = runs.groupby(["checkout", "commit"], sort=False)
    out = grouped[["wall_s", "cpu_s", "peak_mb"]].agg(["median", "min", "max"])
    out.columns = [f"{a}_{b}" for a, b in out.columns]
    out["runs"] = grouped.size()
    for name in HEAVY:
        out[f"loads_{name}"] = grouped[f"loads_{name}"].all()
    return out.reset_index()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("repos", nargs="+", metavar="REPO[=COMMIT]")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    specs = [spec.split("=", 1) if "=" in spec else [spec, None] for spec in args.repos]
    args.repos = [Path(path) for path, _ in specs]
    revisions = [named or (commit() if repo.resolve() == Path(__file__).resolve().parents[1] else
                           subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                                          text=True).stdout.strip())
                 for repo, (_, named) in zip(args.repos, specs, strict=True)]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        text = Path(scratch) / "tiny.txt"
        text.write_text(TEXT, encoding="utf-8")
        for number in range(args.repeats):
            for k, (repo, revision) in enumerate(zip(args.repos, revisions, strict=True)):
                rows.append({"run": number, "checkout": k, "commit": revision, **one_run(repo.resolve(), text)})
    runs = pd.DataFrame(rows)
    if (runs["exit_status"] != 0).any():
        raise SystemExit(f"a run failed:\n{runs.to_string()}")
    run = {"command": "python benchmarks/store_extract_startup.py OUT "
                      + " ".join(f"CHECKOUT_{k}" for k in range(len(args.repos))) + f" --repeats {args.repeats}",
           "commit": revisions[0], "checkouts": revisions, "text_bytes": len(TEXT.encode("utf-8")),
           "python": sys.version.split()[0], "clock": "wall: time.perf_counter; CPU and peak: os.wait4 of the child"}
    write_evidence(args.out, {"runs.csv": runs, "summary.csv": summary(runs)}, run)
    print(summary(runs).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
