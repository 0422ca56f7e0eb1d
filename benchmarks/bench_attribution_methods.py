"""Every method of `punctstyle attribute` and `punctstyle rolling` on a run's held-out books
(issue 36): the bundle's own measurements, and the time of `rolling` on a 100,000-word text.

    python benchmarks/bench_attribution_methods.py OUTDIR OUT.json

OUTDIR: a finished run's outdir (its ``models/attribution`` bundle built with word methods, its
``books/*.txt.gz``). Prints and writes to OUT.json:

* per method (``mlp``, ``kl_<f>``, ``delta_words``, ``delta_both``) the held-out top-1 accuracy of
  ``threshold.json`` (the bundle's split: whole books and the first 200, 800 and 3,200 marks),
  and the method the trusted rule of ``attribute`` picks at each length (it is chosen on the same
  split, so its accuracy is the best single method's by construction: not an independent test);
* the rolling choice: per method the mean precision, recall, F1 within one window and false
  alarms per text on the bundle's synthetic collaborations of held-out books, and the default;
* ``rolling`` of a text of 100,000 words (the run's books joined in id order, cut at the
  100,000th word) with each method, wall seconds on this machine (one process, torch on one
  thread), beside the punctuation method's as the baseline of the same run (ratio).
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LENGTHS = (200, 800, 3200)
WORDS = 100_000


def accuracy_at(curve: list[dict], n: int) -> float | None:
    for row in curve:
        if int(row["n_marks"]) == n:
            return row.get("accuracy")
    return None


def text_of_words(books: list[Path], n_words: int) -> str:
    """The books' texts joined (Gutenberg header and footer stripped), cut after ``n_words`` words."""
    from punctstyle.text.clean import strip_gutenberg_header

    parts, total = [], 0
    for path in books:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            body = strip_gutenberg_header(handle.read())
        words = body.split()
        parts.append(" ".join(words[: n_words - total]))
        total += min(len(words), n_words - total)
        if total >= n_words:
            break
    return "\n\n".join(parts)


def main(outdir: str, out: str) -> int:
    import torch

    from punctstyle.api.results import rolling_sequence
    from punctstyle.api.text import sequence_and_words
    from punctstyle.attribution.bundle import load_attribution_bundle

    torch.set_num_threads(1)
    run = Path(outdir)
    bundle = load_attribution_bundle(run / "models" / "attribution")
    curves = bundle.method_curves()
    full = {"mlp": bundle.threshold.get("mlp_full_accuracy")}
    for feature, entry in (bundle.threshold.get("curves") or {}).items():
        full[f"kl_{feature}"] = entry.get("full_accuracy")
    for method, entry in (bundle.threshold.get("word_curves") or {}).items():
        full[method] = entry.get("full_accuracy")
    table = {m: {**{str(n): accuracy_at(curves[m], n) for n in LENGTHS}, "whole": full.get(m)} for m in curves}
    trusted = {}
    for column in [*map(str, LENGTHS), "whole"]:
        measured = {m: v[column] for m, v in table.items() if v[column] is not None}
        trusted[column] = max(measured, key=lambda m: (measured[m], -list(table).index(m))) if measured else None
    n_test = next((r.get("n_test") for c in curves.values() for r in c if r.get("n_test")), None)
    record = {"n_authors": len(bundle.model.classes), "n_books": bundle.manifest["n_books"], "n_test": n_test,
              "accuracy": table, "trusted": trusted, "rolling_choice": bundle.threshold.get("rolling")}
    books = sorted((run / "books").glob("*.txt.gz"), key=lambda p: int(p.name.split(".")[0]))
    text = text_of_words(books, WORDS)
    sequence, stream = sequence_and_words("bench", text, purpose="roll over")
    timings = {}
    for method in ("punctuation", "words", "both"):
        start = time.perf_counter()
        result = rolling_sequence("bench", sequence, bundle, method=method, stream=stream)
        timings[method] = {"seconds": time.perf_counter() - start, "n_slices": int(len(result.starts)),
                           "window": result.window, "step": result.step, "scored_by": result.scores.method}
    for method, timing in timings.items():
        timing["ratio_to_punctuation"] = timing["seconds"] / timings["punctuation"]["seconds"]
    record["rolling_timing"] = {"n_words": len(stream), "n_marks": len(sequence), "methods": timings}
    Path(out).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
