"""The attribution bundle on the mini mirror, then `punctstyle attribute` on new books."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pandas as pd
import pytest

from punctstyle.marks import FEATURE_SIZES, FEATURES, PAPER_FEATURES
from tests.conftest import REPO
from tests.fixtures.mini_mirror import AUTHORS, book_text

pytestmark = pytest.mark.workflow

BUNDLE_FILES = ("mlp.pt", "signatures.parquet", "threshold.json", "manifest.json")
GRID = [50, 100, 200, 400, 800, 1600, 3200, 6400]
NEW_BOOK = 9000  # + author index: ids that are not in the mirror's catalog


def punctstyle(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "punctstyle", *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, input=stdin, timeout=300)


@pytest.fixture(scope="module")
def bundle(default_fixture_run):
    """The attribution bundle of the shared default run (tests/workflow/conftest.py)."""
    return default_fixture_run["outdir"] / "models/attribution"


@pytest.fixture(scope="module")
def new_books(tmp_path_factory):
    """One new book per fixture author (same style, new sentences), not in the corpus."""
    folder = tmp_path_factory.mktemp("new_books")
    paths = {}
    for k, author in enumerate(AUTHORS):
        path = folder / f"new_{k}.txt"
        path.write_text(book_text(author, NEW_BOOK + k), encoding="utf-8")
        paths[author.corpus_name] = path
    return paths


def test_bundle_files(bundle):
    for name in BUNDLE_FILES:
        assert (bundle / name).stat().st_size > 0, name
    manifest = json.loads((bundle / "manifest.json").read_text())
    authors = sorted(a.corpus_name for a in AUTHORS)
    assert manifest["classes"] == authors
    assert manifest["feature_set"] == list(PAPER_FEATURES)  # attribution.feature_set: all
    assert manifest["n_books"] == len(pd.read_parquet(bundle.parent.parent / "corpus/f1.parquet"))
    assert manifest["mlp"]["params"]["hidden"] == 64  # config/test.yaml's recognition.mlp
    assert (bundle.parent.parent / "benchmarks/attribution_model.tsv").stat().st_size > 0
    assert manifest["punctstyle_version"]
    signatures = pd.read_parquet(bundle / "signatures.parquet")
    assert signatures["author"].tolist() == authors
    assert signatures.shape[1] == 2 + sum(FEATURE_SIZES[f] for f in FEATURES)  # two label columns, then every feature
    assert abs(signatures.filter(like="f3[").sum(axis=1) - 1).max() < 1e-9
    threshold = json.loads((bundle / "threshold.json").read_text())
    assert threshold["grid"] == GRID and threshold["fraction"] == 0.5  # config.yaml default
    assert [row["n_marks"] for row in threshold["curve"]] == GRID
    assert threshold["min_marks"] in GRID, threshold
    assert threshold["estimated"] is True and threshold["feature"] in ("f3", "f1")
    assert set(threshold["curves"]) == {"f3", "f1"}
    assert threshold["full_accuracy"] > threshold["baseline_accuracy"]
    assert manifest["min_marks"] == threshold["min_marks"]
    assert [row["n_marks"] for row in threshold["mlp_curve"]] == GRID  # the MLP's accuracy per length
    # the word methods (issue 36): config/test.yaml's attribution.words, their curves on the same grid
    assert manifest["word_methods"] == ["delta_words", "delta_both"] and (bundle / "words.npz").stat().st_size > 0
    for method in manifest["word_methods"]:
        assert [row["n_marks"] for row in threshold["word_curves"][method]["curve"]] == GRID
    rolling = threshold["rolling"]
    assert rolling["default"] in ("punctuation", "words", "both") and rolling["n_collaborations"] > 0
    # measured at the command's default window, max(min_marks, 800), shrunk to what config/test.yaml's
    # parts of 100 to 300 marks hold: floor(100 / 2) = 50 marks, step round(50 / 4) = 12 (issue 36 a)
    assert rolling["command_window"] == max(threshold["min_marks"], 800)
    assert (rolling["window"], rolling["step"], rolling["margin"]) == (50, 12, 50)
    assert manifest["rolling_choice"] == {"default": rolling["default"], "window": 50, "step": 12,
                                          "command_window": rolling["command_window"]}
    f1 = {m: rolling["methods"][m]["f1"] for m in ("punctuation", "words", "both")}
    assert f1[rolling["default"]] == max(f1.values())


@pytest.mark.parametrize("author", [a.corpus_name for a in AUTHORS])
def test_new_book_is_attributed_to_its_author_json(bundle, new_books, author):
    proc = punctstyle("attribute", str(new_books[author]), "--model", str(bundle), "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["warning"] is None and result["too_short"] is False and proc.stderr == ""
    assert result["n_marks"] >= result["min_marks"]
    ranking = result["authors"]
    assert [r["rank"] for r in ranking] == [1, 2, 3]
    assert ranking[0]["author"] == author
    assert ranking[0]["probability"] > 0.5
    assert abs(sum(r["probability"] for r in ranking) - 1) < 1e-6
    # its mark frequencies are also closest to its author's signature (f3 need not be: on
    # these invented styles the common-support rule gives 0 for near-disjoint supports)
    assert min(ranking, key=lambda r: r["kl_f1"])["author"] == author
    assert set(ranking[0]) == {"rank", "author", "probability", "kl_f3", "kl_f1"}
    # every method's first author, the trusted one named with its counts, and the answer
    methods = {m["method"]: m for m in result["methods"]}
    assert set(methods) == {"mlp", "kl_f3", "kl_f1", "delta_words", "delta_both"}
    assert methods["mlp"]["first_author"] == author
    trusted = result["trusted"]
    assert trusted["accuracy"] == max(m["accuracy"] for m in methods.values() if m["accuracy"] is not None)
    assert trusted["right"] == round(trusted["accuracy"] * trusted["n_test"])
    assert result["answer"]["method"] == trusted["method"] and result["answer"]["author"] == author


@pytest.mark.parametrize("author", [a.corpus_name for a in AUTHORS])
def test_new_book_is_attributed_to_its_author_table(bundle, new_books, author):
    proc = punctstyle("attribute", str(new_books[author]), "--model", str(bundle), "--top", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank"))
    assert lines[header].split()[:3] == ["rank", "author", "P(author)"] and "KL f3" in lines[header]
    assert set(lines[header + 1].replace(" ", "")) == {"-"}
    first, second = lines[header + 2], lines[header + 3]
    match = re.match(rf"\s*1  {re.escape(author)}\s+([01]\.\d{{3}})\s", first)
    assert match, proc.stdout
    assert second.lstrip().startswith("2 ")
    # --top 2, plus a lower-ranked author only where it is the KL-nearest of a KL column
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[header + 2:] if line.lstrip()[:1].isdigit()]
    for row in rows[2:]:
        assert int(row[0]) > 2
        kl_values = [[float(r[k]) for r in rows] for k in range(3, len(row))]
        assert any(float(row[k + 3]) == min(column) for k, column in enumerate(kl_values)), proc.stdout
    # aligned columns: the probabilities are right-aligned under their header
    end = lines[header].index("P(author)") + len("P(author)")
    assert match.end(1) == end
    assert re.match(r".{%d}(?<=\d)\s" % end, second)


def test_short_text_gets_a_warning(bundle):
    short = 'She came; she saw. "Really?" Yes!'
    min_marks = json.loads((bundle / "threshold.json").read_text())["min_marks"]
    proc = punctstyle("attribute", "-", "--model", str(bundle), "--json", stdin=short)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    expected = f"too short to say anything: 6 marks, at least {min_marks} needed for"
    assert result["n_marks"] == 6 and result["too_short"] is True and result["min_marks"] == min_marks
    assert result["warning"].startswith(expected)
    assert expected in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert len(result["authors"]) == 3  # the ranking is still given
    table = punctstyle("attribute", "-", "--model", str(bundle), stdin=short)
    assert table.returncode == 0 and expected in table.stderr
    assert "rank" in table.stdout and f"WARNING: {expected}" in table.stdout


def test_missing_bundle_file(bundle, tmp_path, new_books):
    broken = tmp_path / "bundle"
    broken.mkdir()
    for name in BUNDLE_FILES[1:]:
        (broken / name).write_bytes((bundle / name).read_bytes())
    proc = punctstyle("attribute", str(next(iter(new_books.values()))), "--model", str(broken))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and str(broken) in proc.stderr and "mlp.pt" in proc.stderr
