"""Any corpus shape runs to the end (issue 33 item 1): the default target and the report on
generated folder corpora of awkward shapes, each ending with exit 0, a built report and the
skipped analyses named with their cause (``analysis/skipped_analyses.csv``).

Three corpora cover the shapes, several at a time (3 authors of 4 texts: the other workflow
tests):

* ``lopsided``: 2 authors, one holding 12 of the 15 texts, the other 3 texts with very few
  marks; one genre; no dates (no year or author dates in the metadata).
* ``pairs``: 4 authors of 2 texts each (none tested at the default test fraction); two genres
  and publication years.
* ``excerpts``: 6 authors of one text each, cut into excerpts (``extraction.excerpt_marks``).

The texts are our own sentences (the mini mirror's writers, :mod:`tests.fixtures.mini_mirror`),
short, with per-author habits; the overlay turns every cost down (one seed, a tiny MLP). Each
corpus is one default run (60-70 jobs, most of them a Python start) and one report build.
"""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import AUTHORS

pytestmark = pytest.mark.workflow

GENRE_ONE = (
    "the corpus has 1 genre(s) with at least genres.min_docs=3 documents, at least two are needed "
    "(no genre consistency, recognition, figures or appendix were made)"
)
NO_DATES = "the metadata CSV has no year, author_birth or author_death values"
NO_GENRE_COLUMN = "the metadata CSV has no genre column (or it is empty)"
MADE = "no verification files, figure or table were made"
TWO_AUTHORS = ("the corpus has 2 author(s), General Imposters needs 3 (the candidate, the text's own author "
               f"and an imposter); {MADE}")
NO_TEST = "no author has a text to hold out at recognition.test_fraction=0.2 (an author needs 3 texts for one)"
NO_TEST_ROWS = [
    ("recognition accuracies", f"{NO_TEST}; the recognition rows were fitted but test no document"),
    ("f3 importance", f"{NO_TEST}; no f3 importance files, figures or table were made"),
]
# one text per author: verification (its word bundle runs on excerpts) has no text to hold out
NO_VERIFICATION_TEST = (
    "no author has a text to hold out at verification.test_fraction=0.34 (an author needs 2 texts for one); "
    "no verification files, figure or table were made"
)

# (texts per author, sentences per text of each author, genre per author or None, years, overlay)
SHAPES = {
    "lopsided": {
        "texts": [12, 3], "sentences": [40, 6], "genres": ["Poem", "Poem"], "years": False,
        "overlay": {},
        "skipped": [("temporal analysis", NO_DATES), ("genre analysis", GENRE_ONE), ("verification", TWO_AUTHORS)],
    },
    "pairs": {
        "texts": [2, 2, 2, 2], "sentences": [40] * 4, "genres": ["Poem", "Novel", "Poem", "Novel"], "years": True,
        "overlay": {"selection": {"min_docs_per_author": 2}, "genres": {"min_docs": 2}},
        "skipped": NO_TEST_ROWS,
    },
    "excerpts": {
        "texts": [1] * 6, "sentences": [120] * 6, "genres": None, "years": False,
        "overlay": {"selection": {"min_docs_per_author": 1}, "extraction": {"excerpt_marks": 100}},
        "skipped": [("genre analysis", NO_GENRE_COLUMN), ("temporal analysis", NO_DATES),
                    *NO_TEST_ROWS, ("verification", NO_VERIFICATION_TEST)],
        # each excerpt's own words: the word readers run (issue 34 item 3)
        "word_files": ["corpus/words.npz", "analysis/recognition/author_words_results.csv",
                       "analysis/maps/words_summary.json", "analysis/rolling/summary.csv",
                       "models/attribution/words.npz"],
    },
}

# every analysis of the default target stays on (each with its word and punctuation inputs); only
# its cost is turned down
CHEAP = {
    "consistency": {"baseline_pairs": 50, "features": ["f1", "f3"]},
    "recognition": {"seeds": [0], "class_sizes": [2, "all"],
                    "mlp": {"hidden_units": 16, "max_epochs": 5, "patience": 2}},
    "attribution": {"mark_grid": [50, 100]},
    "beyond": {"importance": {"class_sizes": [2], "repeats": 1, "top_k": [5]},
               "parts": {"part_counts": [2, 4]}},
    "verification": {"iterations": 10},
    "rolling": {"per_kind": 1},
    "maps": {"families": ["f3", "words"], "consensus_rounds": 2},
}


def sentence(rng: random.Random, a: int) -> str:
    """A sentence of author ``a``: the mini mirror's three writers, and from the fourth author on
    one of them with the author's own aside (a dash of colons, parentheses or question marks)."""
    text = AUTHORS[a % 3].writer(rng)
    extra = ["", " So it went: on and on.", " (Or so they say.)", " Why not? Why indeed?"][(a // 3 + a) % 4 if a >= 3 else 0]
    return text + extra


def build_corpus(root: Path, shape: dict) -> None:
    columns = ["file", "author", "title"] + (["genre"] if shape["genres"] else []) + (["year"] if shape["years"] else [])
    rows = [",".join(columns)]
    for a, n_texts in enumerate(shape["texts"]):
        for k in range(n_texts):
            rng = random.Random(1000 * a + k)
            file = f"author{a}/text{k}.txt"
            (root / file).parent.mkdir(parents=True, exist_ok=True)
            # one quotation at least: the paper's rule keeps only texts with a double quotation mark
            text = " ".join(['"Listen," said one.'] + [sentence(rng, a) for _ in range(shape["sentences"][a])])
            (root / file).write_text(text, encoding="utf-8")
            cells = [file, f"Writer {a}", f"Text {k}"]
            cells += [shape["genres"][a]] if shape["genres"] else []
            cells += [str(1850 + 5 * k + a)] if shape["years"] else []
            rows.append(",".join(cells))
    (root / "metadata.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def merged(base: dict, extra: dict) -> dict:
    out = dict(base)
    for key, value in extra.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


@pytest.fixture(scope="module", params=list(SHAPES))
def shape_run(request, tmp_path_factory):
    name = request.param
    shape = SHAPES[name]
    root = tmp_path_factory.mktemp(f"corpus-{name}")
    build_corpus(root, shape)
    outdir = tmp_path_factory.mktemp(f"results-{name}")
    config = tmp_path_factory.mktemp("config") / f"{name}.yaml"
    overlay = merged(CHEAP, {"outdir": str(outdir), "source": "folder", "folder": {"path": str(root)},
                             **shape["overlay"]})
    config.write_text(yaml.safe_dump(overlay))
    args = ("--configfile", "config/test.yaml", str(config))
    run = snakemake("--cores", "2", *args, check=False)
    report = outdir / "report.zip"
    built = snakemake(*args, "--report", str(report), check=False) if run.returncode == 0 else None
    return {"name": name, "shape": shape, "outdir": outdir, "run": run, "report": report, "built": built}


def test_the_default_target_ends_with_exit_0_and_the_report_builds(shape_run):
    run = shape_run["run"]
    assert run.returncode == 0, f"{shape_run['name']}:\n{run.stdout[-3000:]}\n{run.stderr[-6000:]}"
    assert shape_run["built"].returncode == 0, shape_run["built"].stderr[-4000:]
    assert shape_run["report"].is_file() and shape_run["report"].stat().st_size > 0


def test_each_skipped_analysis_is_named_with_its_cause(shape_run):
    skipped = pd.read_csv(shape_run["outdir"] / "analysis/skipped_analyses.csv", dtype=str, keep_default_na=False)
    assert list(skipped.itertuples(index=False, name=None)) == shape_run["shape"]["skipped"]
    for analysis, cause in shape_run["shape"]["skipped"]:
        assert f"skipped {analysis}: {cause}" in shape_run["run"].stdout
    # a skipped analysis has no files; one that runs has them
    for analysis, path in (("verification", "analysis/verification/summary.csv"),
                           ("f3 importance", "analysis/beyond/f3_importance.csv")):
        assert (shape_run["outdir"] / path).is_file() == (analysis not in set(skipped["analysis"])), analysis
    for path in shape_run["shape"].get("word_files", []):
        assert (shape_run["outdir"] / path).is_file(), path
