"""Benchmark: peak memory of extraction on large texts (issue 14 item 1).

Generates texts of ``--sizes`` MB (default 50 and 200) by concatenating shared-mirror books
(seeded order, so the texts have a real book's mix of repeated and new chunks; their
Gutenberg start/end markers defused, so that cleaning keeps the whole text), then, in a
fresh Python process per text and per code tree, does what rule ``extract_book`` does:
read the text, clean and extract it (:func:`punctstyle.book.steps.clean_and_extract`: cleaned and
extracted piece by piece; a tree without it: ``clean_text`` then the extractor). It prints the
peak resident memory (Linux ``VmHWM``) above the resident size once the modules are loaded
and the extractor warmed up (the fixed base, also printed), and its ratio to the text size.

``--baseline PATH``: a checkout of another version (e.g. ``git worktree add /tmp/old HEAD~1``)
measured the same way in the same run (its ``punctstyle`` comes first on ``PYTHONPATH``).
The target: peak at most 5 x the text (plus the base). Exit status 1 when this tree misses it.

``--vocabulary N``: an invented text of N distinct words instead (issue 22 item 12: a 20 MB
text of 200,000 distinct words, ``--sizes 20 --vocabulary 200000``), the chunk cache's worst case.

``--evidence OUT``: the measurements as ``OUT/memory.csv`` and ``OUT/run.json`` (command, commits,
settings; benchmarks/evidence_run.py).

Usage: ``python benchmarks/bench_extract_memory.py [--sizes 50 200] [--baseline PATH] [--vocabulary N]
[--evidence OUT]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import zipfile
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "gutenberg-mirror"
TARGET_FACTOR = 5.0

CHILD = r"""
import sys
sys.modules.setdefault("torch", None)
from punctstyle.text.clean import clean_text
from punctstyle.text.chunk_cache import ChunkCachedExtractor
try:
    from punctstyle.book.steps import clean_and_extract
except ImportError:  # an older tree: cleaned whole
    def clean_and_extract(text, extractor):
        return extractor(clean_text(text)), None

def status(key):
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(key)

extractor = ChunkCachedExtractor()
extractor("Warm up, \"said\" she.")
with open("/proc/self/clear_refs", "w") as handle:  # reset VmHWM to the current size
    handle.write("5")
base = status("VmRSS")
with open(sys.argv[1], encoding="utf-8") as handle:
    sequence, _ = clean_and_extract(handle.read(), extractor)
print(base, status("VmHWM"), len(sequence))
"""


HEADER = "*** START OF THE PROJECT GUTENBERG EBOOK BENCHMARK ***\n"
FOOTER = "\n*** END OF THE PROJECT GUTENBERG EBOOK BENCHMARK ***\nlicence\n"


def generate_text(mirror: Path, megabytes: float, path: Path, seed: int, markers: bool = False) -> int:
    """Concatenate mirror books (seeded order) into ``path`` up to ``megabytes``; its bytes.
    ``markers``: one Gutenberg header and footer around the whole (stripped whole)."""
    books = sorted((mirror / "files").glob("*/*-0.zip"))
    random.Random(seed).shuffle(books)
    target = int(megabytes * 2**20)
    written = 0
    with open(path, "w", encoding="utf-8") as out:
        if markers:
            written += out.write(HEADER)
        while written < target:
            for book in books:
                with zipfile.ZipFile(book) as archive:
                    data = archive.read(archive.namelist()[0]).decode("utf-8", "replace")
                # no Gutenberg markers: one book's header stripping would cut the rest away
                data = data.replace("*** START OF", "*** BEGIN OF").replace("*** END OF", "*** CLOSE OF")
                data = data[: target - written]
                out.write(data + "\n")
                written += len(data.encode("utf-8")) + 1
                if written >= target:
                    break
        if markers:
            written += out.write(FOOTER)
    return written


def generate_vocabulary_text(n_words: int, megabytes: float, path: Path, seed: int) -> int:
    """A text of ``megabytes`` MB drawing from ``n_words`` distinct invented words (a large
    vocabulary: most chunks are new to the chunk cache), with commas, periods, semicolons and
    quotation marks between them; its bytes."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = ["".join(rng.choices(letters, k=rng.randint(3, 11))) for _ in range(n_words)]
    target = int(megabytes * 2**20)
    written = 0
    with open(path, "w", encoding="utf-8") as out:
        while written < target:  # paragraphs of 1 to 8 sentences, lines of about 70 characters
            sentences = []
            for _ in range(rng.randint(1, 8)):
                words = rng.choices(vocabulary, k=rng.randint(4, 18))
                sentences.append(" ".join(words).capitalize() + rng.choice([".", ",", ";", ".\"", "?"]))
            paragraph = textwrap.fill(" ".join(sentences), width=70) + "\n\n"
            written += out.write(paragraph)
    return written


def tree_commit(tree: Path) -> str:
    """The short commit of a checkout."""
    out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip()


def measure(tree: Path, text_path: Path) -> tuple[int, int, int]:
    """(base, peak, marks) of extracting ``text_path`` with the punctstyle of ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(text_path)], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"{tree}: extraction failed: {result.stderr.strip().splitlines()[-1:]}")
    base, peak, marks = map(int, result.stdout.split())
    return base, peak, marks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    parser.add_argument("--sizes", type=float, nargs="+", default=[50.0, 200.0], help="text sizes in MB")
    parser.add_argument("--baseline", type=Path, help="another code tree, measured alike")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--markers", action="store_true", help="one Gutenberg header/footer around each text")
    parser.add_argument("--vocabulary", type=int, metavar="N",
                        help="invented text of N distinct words instead of mirror books (no mirror needed)")
    parser.add_argument("--evidence", type=Path, metavar="OUT", help="store memory.csv and run.json in OUT")
    args = parser.parse_args(argv)
    if args.vocabulary is None and not (args.mirror / "files").is_dir():
        print(f"{args.mirror}: no files/ folder (a Gutenberg mirror)", file=sys.stderr)
        return 2
    trees = [("this tree", REPO)] + ([("baseline", args.baseline)] if args.baseline else [])
    ok = True
    revision = commit()
    rows = []
    print(f"{'text MB':>8} {'tree':<10} {'base MB':>8} {'peak-base MB':>13} {'x text':>7} {'marks':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            text_path = Path(folder) / f"text-{size:g}MB.txt"
            if args.vocabulary is not None:
                n_bytes = generate_vocabulary_text(args.vocabulary, size, text_path, args.seed)
            else:
                n_bytes = generate_text(args.mirror, size, text_path, args.seed, args.markers)
            marks_seen = set()
            for label, tree in trees:
                base, peak, marks = measure(tree, text_path)
                marks_seen.add(marks)
                factor = (peak - base) / n_bytes
                print(f"{n_bytes / 2**20:8.0f} {label:<10} {base / 2**20:8.0f} {(peak - base) / 2**20:13.0f} "
                      f"{factor:7.2f} {marks:10d}")
                rows.append({"text_mb": n_bytes / 2**20, "tree": label, "base_mb": base / 2**20,
                             "peak_above_base_mb": (peak - base) / 2**20, "peak_over_text": factor, "marks": marks})
                if label == "this tree" and factor > TARGET_FACTOR:
                    ok = False
            if len(marks_seen) > 1:
                print(f"  the trees disagree on the number of marks: {sorted(marks_seen)}")
                ok = False
    print(f"target: peak - base <= {TARGET_FACTOR:g} x text: {'met' if ok else 'MISSED'}")
    if args.evidence:
        write_evidence(args.evidence, {"memory.csv": pd.DataFrame(rows)}, {
            "command": "python benchmarks/bench_extract_memory.py " + " ".join(
                "BASELINE" if a == str(args.baseline) else a for a in (argv if argv is not None else sys.argv[1:])),
            "commit": revision, "baseline_commit": tree_commit(args.baseline) if args.baseline else None,
            "settings": {"sizes_mb": args.sizes, "vocabulary": args.vocabulary, "seed": args.seed,
                         "markers": args.markers, "target_factor": TARGET_FACTOR},
            "clock": "Linux VmHWM above VmRSS once the modules are loaded, one fresh process per text and tree",
            "target_met": ok,
        })
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
