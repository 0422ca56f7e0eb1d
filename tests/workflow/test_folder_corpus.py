"""A folder corpus of our own (source: folder) through the whole DAG, then `punctstyle attribute`.

The test writes the folder: three invented authors with distinct punctuation habits (the
mini mirror's writers), four texts each in different encodings (UTF-8, UTF-8 with BOM,
UTF-16, Latin-1, one with Gutenberg markers), dates for two authors and genres for one,
and bad rows: a missing file, a row without author, a repeated id, a bad year, an empty and
a binary file. A held-out text of each author must then be attributed to its author.
"""

from __future__ import annotations

import codecs
import gzip
import hashlib
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from punctstyle.sources.folder import book_number
from tests.conftest import REPO, snakemake
from tests.fixtures.mini_mirror import AUTHORS, book_text

pytestmark = pytest.mark.workflow

N_TEXTS = 4
SECRET = "root:x:0:0:secret-line-outside-the-corpus"


def own_text(author, seed: int, n_paragraphs: int = 20) -> str:
    """A text of our own sentences in the author's style, without Gutenberg markers."""
    rng = random.Random(seed)
    return "\n\n".join(" ".join(author.writer(rng) for _ in range(8)) for _ in range(n_paragraphs))


def encoded(text: str, k: int) -> bytes:
    """Text k of an author: UTF-8, UTF-8 with BOM, UTF-16 with BOM, Latin-1 (in turn)."""
    return [
        text.encode("utf-8"),
        codecs.BOM_UTF8 + text.encode("utf-8"),
        codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
        text.replace("the lamp", "the café lamp").encode("latin-1"),
    ][k % 4]


def build_folder(root: Path) -> dict:
    """Write texts/ and metadata.csv under root; return what a run must find."""
    rows = ["file,author,id,title,year,author_birth,author_death,genre"]
    expected: dict[str, str] = {}
    for a, author in enumerate(AUTHORS):
        surname = author.corpus_name.split(",")[0]
        for k in range(N_TEXTS):
            file = f"texts/{surname}/Text {k + 1}.txt"
            path = root / file
            path.parent.mkdir(parents=True, exist_ok=True)
            text = book_text(author, 1000 + 10 * a + k) if k == 3 else own_text(author, 100 * a + k)
            path.write_bytes(encoded(text, k + a))
            doc_id = f"{surname.lower()}-{k + 1}" if a == 0 else f"texts-{surname.lower()}-text-{k + 1}"
            year = f"{1850 + 10 * k}" if a < 2 else ""
            birth = str(author.birth) if a < 2 and author.birth else ""
            genre = "Humor" if a == 0 else ""
            rows.append(
                f'{file},"{author.corpus_name}",{doc_id if a == 0 else ""},Text {k + 1},{year},{birth},,{genre}'
            )
            expected[doc_id] = author.corpus_name
    (root / "texts/empty.txt").write_text("   \n")
    (root / "texts/binary.txt").write_bytes(b"\x00\x01\x02PK\x00binary")
    bad = [
        'texts/missing.txt,"Quill, Ada",,,,,,',  # no such file
        "texts/Quill/Text 1.txt,,no-author,,,,,",  # no author
        'texts/Quill/Text 2.txt,"Quill, Ada",quill-1,,,,,',  # the id of the first row again
        'texts/Comma/Text 1.txt,"Comma, Barnaby",bad-year,,18x0,,,',  # a year that is not one
        'texts/empty.txt,"Dash, Cora",,,,,,',  # empty: excluded at ingest
        'texts/binary.txt,"Dash, Cora",,,,,,',  # binary: excluded at ingest
    ]
    secret = root.parent / f"{root.name}-secret.txt"  # beside the folder, never to be read
    secret.write_text(SECRET + "\n" + own_text(AUTHORS[0], 77), encoding="utf-8")
    (root / "texts/outside_link.txt").symlink_to(secret)
    bad += [
        f'../{secret.name},"Quill, Ada",,,,,,',  # a path out of the folder
        'texts/outside_link.txt,"Quill, Ada",,,,,,',  # a symlink pointing out of the folder
    ]
    (root / "metadata.csv").write_text("\n".join(rows + bad) + "\n", encoding="utf-8")
    return {
        "corpus": expected,
        "ingest_rejected": {book_number("texts-empty"): "empty text", book_number("texts-binary"): "binary content"},
        "left_out": [
            "row 14 (texts/missing.txt): file not found",
            "row 15 (texts/Quill/Text 1.txt): no author",
            "row 16 (texts/Quill/Text 2.txt): duplicate id 'quill-1'",
            "row 17 (texts/Comma/Text 1.txt): year '18x0' is not a whole number",
            f"row 20 (../{root.name}-secret.txt): resolves outside the corpus folder",
            "row 21 (texts/outside_link.txt): resolves outside the corpus folder",
        ],
    }


def punctstyle(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "punctstyle", *args], cwd=REPO, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def folder_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("my-corpus")
    expected = build_folder(root)
    outdir = tmp_path_factory.mktemp("results")
    config = tmp_path_factory.mktemp("config") / "run.yaml"
    config.write_text(yaml.safe_dump({"outdir": str(outdir), "source": "folder", "folder": {"path": str(root)}}))
    run = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(config))
    report = outdir / "report.html"
    snakemake("--configfile", "config/test.yaml", str(config), "--report", str(report))
    held_out = tmp_path_factory.mktemp("held-out")
    texts = {}
    for a, author in enumerate(AUTHORS):
        path = held_out / f"held_out_{a}.txt"
        path.write_text(own_text(author, 9000 + a, n_paragraphs=30), encoding="utf-8")
        texts[author.corpus_name] = path
    return {
        "root": root,
        "outdir": outdir,
        "config": config,
        "expected": expected,
        "run": run,
        "report": report,
        "held_out": texts,
    }


def test_selection_is_the_metadata_rows(folder_run):
    out, expected = folder_run["outdir"], folder_run["expected"]
    selection = pd.read_parquet(out / "corpus/selection.parquet")
    good = dict(expected["corpus"])
    good.update({"texts-empty": "Dash, Cora", "texts-binary": "Dash, Cora"})
    assert dict(zip(selection["doc_id"], selection["author"])) == good
    assert selection["book_id"].tolist() == sorted(book_number(d) for d in good)
    filters = pd.read_csv(out / "corpus/selection_filters.csv")
    assert filters["filter"].tolist() == ["metadata_rows", "duplicate_ids", "min_docs_per_author"]
    assert filters["removed"].tolist() == [5, 1, 0]


def test_corpus_tables_hold_the_good_documents(folder_run):
    out, expected = folder_run["outdir"], folder_run["expected"]
    f1 = pd.read_parquet(out / "corpus/f1.parquet")
    assert dict(zip(f1["book_id"], f1["author"])) == {book_number(d): a for d, a in expected["corpus"].items()}
    by_author = f1.set_index("author")
    assert by_author.loc["Quill, Ada", "f1[;]"].min() > by_author.loc["Comma, Barnaby", "f1[;]"].max()
    assert by_author.loc["Dash, Cora", "f1[!]"].min() > by_author.loc["Quill, Ada", "f1[!]"].max()
    assert set(f1["genre"].dropna()) == {"Humor"} and f1["genre"].notna().sum() == N_TEXTS
    assert by_author.loc["Quill, Ada", "birth"].tolist() == [1820] * N_TEXTS
    assert by_author.loc["Dash, Cora", "birth"].isna().all()


def test_ingest_decodes_and_records_provenance(folder_run):
    out, root = folder_run["outdir"], folder_run["root"]
    selection = pd.read_parquet(out / "corpus/selection.parquet").set_index("doc_id")
    encodings = {}
    for doc_id, row in selection.iterrows():
        record = json.loads((out / f"books/{row['book_id']}.json").read_text())
        assert (record["doc_id"], record["file"], record["book_id"]) == (doc_id, row["file"], row["book_id"])
        data = (root / row["file"]).read_bytes()
        assert record["sha256"] == hashlib.sha256(data).hexdigest()
        encodings[doc_id] = record["encoding"]
        if record["status"] == "ok":
            text = gzip.decompress((out / f"books/{row['book_id']}.txt.gz").read_bytes()).decode("utf-8")
            assert "\ufeff" not in text and text.count(".") > 50
    assert encodings["quill-1"] == "utf-8" and encodings["quill-2"] == "utf-8"  # BOM dropped
    assert encodings["quill-3"] == "utf-16" and encodings["texts-comma-text-2"] == "utf-16"
    assert encodings["quill-4"] == "latin-1"
    latin = gzip.decompress((out / f"books/{book_number('quill-4')}.txt.gz").read_bytes()).decode()
    assert "café" in latin


def test_bad_rows_are_named_and_recorded(folder_run):
    out, expected = folder_run["outdir"], folder_run["expected"]
    console = folder_run["run"].stderr
    exclusions = pd.read_csv(out / "corpus/exclusions.csv", dtype={"reason": str})
    metadata = exclusions[exclusions["stage"] == "metadata"]["reason"].tolist()
    assert len(metadata) == len(expected["left_out"])
    for reason, part in zip(metadata, expected["left_out"]):
        assert part in reason and str(folder_run["root"] / "metadata.csv") in reason
        assert part in console  # one line each on the console too
    ingest = exclusions[exclusions["stage"] == "download"].set_index("book_id")["reason"]
    assert set(ingest.index) == set(expected["ingest_rejected"])
    for book_id, phrase in expected["ingest_rejected"].items():
        assert phrase in ingest[book_id] and "texts/" in ingest[book_id]
    summary = json.loads((out / "corpus/summary.json").read_text())
    assert summary["books_in_corpus"] == len(expected["corpus"]) and summary["authors_in_corpus"] == 3
    assert summary["excluded_by_reason"]["resolves outside the corpus folder"] == 2
    # nothing outside the corpus folder was read: no text, provenance or log holds it
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in {".gz", ".json", ".log", ".csv"}:
            data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            assert SECRET.encode() not in data, path
    assert all("secret" not in json.loads(p.read_text())["url"] for p in (out / "books").glob("*.json"))


def test_the_run_ends_with_the_skipped_analyses(folder_run):
    out = folder_run["outdir"]
    skipped = pd.read_csv(out / "analysis/skipped_analyses.csv")
    assert skipped["analysis"].tolist() == ["genre analysis"]
    assert "the corpus has 1 genre(s)" in skipped["cause"].iloc[0]
    assert f"skipped genre analysis: {skipped['cause'].iloc[0]}" in folder_run["run"].stdout
    # one genre: no genre job, file or report section at all (the targets follow the corpus tables)
    assert [str(path.relative_to(out)) for path in out.rglob("*genre*") if path.is_file()] == []
    assert "4. Genre analysis" not in folder_run["report"].read_text(encoding="utf-8")
    # dates exist: the temporal analysis ran, with the publication years of the CSV
    temporal = json.loads((out / "analysis/temporal/summary.json").read_text())
    assert temporal["over_time"]["publication_years_csv"] == str(out / "corpus/publication_years.csv")
    years = pd.read_csv(out / "corpus/publication_years.csv")
    assert len(years) == 2 * N_TEXTS  # Quill's and Comma's (the row with a bad year is left out)
    assert (out / "figures/temporal/authors_over_time.png").stat().st_size > 0
    report = folder_run["report"].read_text(encoding="utf-8")
    assert "The documents are a folder corpus" in report and "Skipped analyses" in report
    assert "no CSV of publication years" not in report  # the CSV's years fed the per-author figure
    # the front page names the skipped genre analysis and its cause (issue 22 item 16); the
    # report was built from a run with an outdir of its own by the same --configfile (item 15)
    assert "Every figure and table of the paper is regenerated" not in report
    assert "some analyses were skipped" in report and "<strong>genre analysis</strong>" in report
    assert "fewer than two genres with at least genres.min_docs = 3" in report
    assert str(out / "figures") in report


@pytest.mark.parametrize("author", [a.corpus_name for a in AUTHORS])
def test_held_out_text_is_attributed_to_its_author(folder_run, author):
    bundle = folder_run["outdir"] / "models/attribution"
    proc = punctstyle("attribute", str(folder_run["held_out"][author]), "--model", str(bundle), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["authors"][0]["author"] == author


# ------------------------------------------------------------------ reruns (issue 22 items 2, 10)

# a job of a dry run; the jobs of the group "books" are indented by 4 more spaces
_JOB = re.compile(r"^( *)(?:local)?(?:rule|checkpoint) (\w+):\n((?:\1    .*\n)*)", re.MULTILINE)


def planned_jobs(proc: subprocess.CompletedProcess) -> set[tuple[str, int | None]]:
    """(rule, book_id or None) of each job a dry run plans."""
    jobs = set()
    for _, rule, body in _JOB.findall(proc.stdout + proc.stderr):
        book = re.search(r"wildcards: .*?book_id=(\d+)", body)
        jobs.add((rule, int(book.group(1)) if book else None))
    return jobs


def test_missing_edited_and_corrupt_per_book_files_are_remade(folder_run):
    """Runs last on folder_run (it changes its outputs). A plain run plans every deleted
    per-book file's book and what follows; a document edited with its modification time kept
    is read again; the README's retry (delete books/{id}.json) retries a rejected document."""
    out, root = folder_run["outdir"], folder_run["root"]
    config = folder_run["config"]
    selection = pd.read_parquet(out / "corpus/selection.parquet").set_index("doc_id")
    ids = {doc: int(selection.loc[doc, "book_id"]) for doc in selection.index}
    deleted = {
        ids["quill-1"]: "books/{}.json",
        ids["quill-2"]: "books/{}.txt.gz",
        ids["texts-comma-text-2"]: "sequences/{}.parquet",
        ids["texts-comma-text-3"]: "features/{}.parquet",
    }
    for book_id, pattern in deleted.items():
        (out / pattern.format(book_id)).unlink()
    # the README's retry: the rejected (empty) document now holds a text; delete its provenance
    empty = ids["texts-empty"]
    (root / "texts/empty.txt").write_text(own_text(AUTHORS[2], 4242, 12), encoding="utf-8")
    (out / f"books/{empty}.json").unlink()
    # an edit that keeps the modification time (cp -p): the content decides
    edited = root / "texts/Dash/Text 1.txt"
    times = edited.stat()
    new_text = own_text(AUTHORS[2], 5151, 20)
    edited.write_text(new_text, encoding="utf-8")
    os.utime(edited, ns=(times.st_atime_ns, times.st_mtime_ns))
    edited_id = ids["texts-dash-text-1"]

    dry = snakemake("--cores", "1", "--configfile", "config/test.yaml", str(config), "--dry-run")
    jobs = planned_jobs(dry)
    for book_id in (ids["quill-1"], ids["quill-2"], empty, edited_id):
        assert {("ingest_document", book_id), ("extract_book", book_id)} <= jobs
    # a deleted sequence or features file: the book's extraction job (it writes both), not its text
    for book_id in (ids["texts-comma-text-2"], ids["texts-comma-text-3"]):
        assert ("extract_book", book_id) in jobs and ("ingest_document", book_id) not in jobs
    # only what follows the files: no other book's jobs
    touched = {ids["quill-1"], ids["quill-2"], empty, edited_id, ids["texts-comma-text-2"], ids["texts-comma-text-3"]}
    assert {book for _, book in jobs if book is not None} == touched, jobs
    assert ("corpus_tables", None) in jobs and ("attribution_model", None) in jobs

    # do it (the corpus tables; the analyses after them are planned above), then corrupt a sequence
    targets = [str(out / "corpus/summary.json"), *(str(out / p.format(b)) for b, p in deleted.items())]
    targets.append(str(out / f"books/{empty}.json"))
    snakemake(*targets, "--cores", "2", "--configfile", "config/test.yaml", str(config))
    for book_id, pattern in deleted.items():
        assert (out / pattern.format(book_id)).is_file()
    assert json.loads((out / f"books/{edited_id}.json").read_text())["sha256"] == hashlib.sha256(
        edited.read_bytes()
    ).hexdigest()
    exclusions = pd.read_csv(out / "corpus/exclusions.csv")
    assert empty not in set(exclusions["book_id"].dropna().astype("int64"))
    f1 = pd.read_parquet(out / "corpus/f1.parquet")
    assert empty in set(f1["book_id"]) and edited_id in set(f1["book_id"])

    # a corrupt text under a book whose extraction reruns: the job deletes it, says so in one
    # line and fails; the next run reads the document again
    text = out / f"books/{ids['quill-3']}.txt.gz"
    text.write_bytes(text.read_bytes()[:20])
    (out / f"features/{ids['quill-3']}.parquet").unlink()
    failed = snakemake(targets[0], str(out / f"features/{ids['quill-3']}.parquet"), "--cores", "1",
                       "--configfile", "config/test.yaml", str(config), check=False)
    assert failed.returncode != 0
    console = failed.stdout + failed.stderr
    lines = [line for line in console.splitlines() if line.startswith("punctstyle: ")]
    assert len(lines) == 1, console[-4000:]
    assert lines[0].startswith(f"punctstyle: {text}: not a valid gzip-compressed UTF-8 text")
    assert lines[0].endswith("; deleted it: the next run remakes it and everything after it")
    assert "Traceback" not in console and not text.exists()
    again = snakemake("--cores", "1", "--configfile", "config/test.yaml", str(config), "--dry-run")
    assert {("ingest_document", ids["quill-3"]), ("extract_book", ids["quill-3"])} <= planned_jobs(again)


def test_a_folder_without_genres_or_dates_plans_neither(tmp_path):
    root = tmp_path / "plain"
    (root / "t").mkdir(parents=True)
    rows = ["file,author"]
    for a, author in enumerate(AUTHORS):
        for k in range(3):
            (root / f"t/{a}{k}.txt").write_text(own_text(author, 50 * a + k, 4))
            rows.append(f't/{a}{k}.txt,"{author.corpus_name}"')
    (root / "metadata.csv").write_text("\n".join(rows) + "\n")
    config = tmp_path / "run.yaml"
    config.write_text(
        yaml.safe_dump({"outdir": str(tmp_path / "out"), "source": "folder", "folder": {"path": str(root)}})
    )
    proc = snakemake("--cores", "2", "--configfile", "config/test.yaml", str(config), "--dry-run")
    text = proc.stdout + proc.stderr
    stats = text[text.index("Job stats:") :]
    jobs = [line.split()[0] for line in stats[: stats.index("total")].splitlines()[3:]]
    # the analyses' rows wait for the corpus_tables checkpoint (the classes it holds name them)
    assert {"select_books", "corpus_tables"} <= set(jobs), jobs
    assert not {"temporal", "figures_temporal"} & set(jobs), jobs
    assert "task=genre" not in text and "analysis/recognition/genre" not in text
    bad = tmp_path / "bad.yaml"
    (tmp_path / "nocol.csv").write_text("file,writer\na.txt,Ann\n")
    bad.write_text(
        yaml.safe_dump(
            {
                "outdir": str(tmp_path / "out"),
                "source": "folder",
                "folder": {"path": str(root), "metadata": str(tmp_path / "nocol.csv")},
            }
        )
    )
    failed = snakemake("--cores", "1", "--configfile", "config/test.yaml", str(bad), "--dry-run", check=False)
    assert failed.returncode != 0
    assert "nocol.csv: the metadata CSV lacks column 'author'" in failed.stdout + failed.stderr


# ------------------------------------------------------------------ documents from long texts

EXCERPT_MARKS = 200


def build_long_texts(root: Path) -> dict:
    """Few long texts per author: Quill and Dash three long texts and one too short for an
    excerpt; Comma two long texts and a short one (2 included texts < min_docs_per_author 3,
    however many excerpts). Quill's texts are dated."""
    rows = ["file,author,title,year"]
    texts: dict[str, list[str]] = {}
    for a, author in enumerate(AUTHORS):
        surname = author.corpus_name.split(",")[0]
        n_long = 2 if surname == "Comma" else 3
        for k in range(n_long + 1):
            file = f"{surname}/{k}.txt"
            (root / surname).mkdir(parents=True, exist_ok=True)
            paragraphs = 3 if k == n_long else 100  # the last text: fewer marks than one excerpt
            (root / file).write_text(own_text(author, 500 * a + k, paragraphs), encoding="utf-8")
            year = str(1850 + k) if surname == "Quill" else ""
            rows.append(f'{file},"{author.corpus_name}",{surname} {k},{year}')
            texts.setdefault(author.corpus_name, []).append(file)
    (root / "metadata.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return texts


@pytest.fixture(scope="module")
def excerpt_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("long-texts")
    texts = build_long_texts(root)
    outdir = tmp_path_factory.mktemp("excerpt-results")
    config = tmp_path_factory.mktemp("excerpt-config") / "run.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "outdir": str(outdir),
                "source": "folder",
                "folder": {"path": str(root)},
                "extraction": {"excerpt_marks": EXCERPT_MARKS},
            }
        )
    )
    targets = [
        "analysis/recognition/author_summary.csv",
        "models/attribution/manifest.json",
        "analysis/skipped_analyses.csv",
        "figures/documents/books.json",
        "analysis/beyond/parts.json",
        "analysis/temporal/summary.json",
    ]
    snakemake(*[str(outdir / t) for t in targets], "--cores", "2", "--configfile", "config/test.yaml", str(config))
    return {"root": root, "outdir": outdir, "texts": texts}


def test_long_texts_become_excerpt_documents(excerpt_run):
    from punctstyle.corpus.tables import EXCERPT_ID_BASE

    out = excerpt_run["outdir"]
    selection = pd.read_parquet(out / "corpus/selection.parquet").set_index("doc_id")
    f1 = pd.read_parquet(out / "corpus/f1.parquet")
    assert set(f1["author"]) == {"Quill, Ada", "Dash, Cora"}
    assert (f1["book_id"] >= EXCERPT_ID_BASE).all() and f1["book_id"].is_unique
    assert (f1["n_marks"] == EXCERPT_MARKS).all() and (f1["stop_mark"] - f1["first_mark"] == EXCERPT_MARKS).all()
    long_texts = {selection.loc[f"{s}-{k}", "book_id"] for s in ("quill", "dash") for k in range(3)}
    assert set(f1["source_id"]) == long_texts
    summary = json.loads((out / "corpus/summary.json").read_text())
    assert summary["excerpt_marks"] == EXCERPT_MARKS and summary["texts_in_corpus"] == 6
    per_text = {t["book_id"]: t["excerpts"] for t in summary["excerpts_per_text"]}
    assert per_text == f1.groupby("source_id").size().to_dict() and min(per_text.values()) >= 5
    assert summary["books_in_corpus"] == len(f1)
    exclusions = pd.read_csv(out / "corpus/exclusions.csv").set_index("book_id")["reason"]
    for surname, short in (("quill", 3), ("dash", 3), ("comma", 2)):
        reason = exclusions[selection.loc[f"{surname}-{short}", "book_id"]]
        assert reason.startswith("too few punctuation marks for one excerpt") and f"< excerpt_marks {EXCERPT_MARKS}" in reason
    for k in range(2):  # Comma's two long texts: many excerpts, but two texts
        assert exclusions[selection.loc[f"comma-{k}", "book_id"]] == "author has 2 included books < min_docs_per_author 3"


def test_excerpt_recognition_holds_out_whole_texts(excerpt_run):
    from punctstyle.experiments.splits import row_split

    out = excerpt_run["outdir"]
    f1 = pd.read_parquet(out / "corpus/f1.parquet")
    labels, sources = f1["author"].to_numpy(dtype=object), f1["source_id"].to_numpy()
    results = pd.concat(
        pd.read_csv(p) for p in sorted((out / "analysis/recognition/author").glob("*/seed*_results.csv"))
    )
    assert len(results) and set(results["n_classes"]) == {2}
    for seed, rows in results.groupby("seed"):
        split = row_split(labels, 2, int(seed), "author", 0.2, groups=sources)
        assert not set(sources[split.train_index]) & set(sources[split.test_index])
        # one of three texts an author is tested: all of its excerpts
        assert len(set(sources[split.test_index])) == 2
        assert set(rows["n_test"]) == {split.test_index.size} and set(rows["n_train"]) == {split.train_index.size}
    assert len(pd.read_csv(out / "analysis/recognition/author_summary.csv"))
    # the word baselines run on the excerpts too (each excerpt's own word counts), on the same splits
    skipped = pd.read_csv(out / "analysis/skipped_analyses.csv")
    assert "word baselines" not in skipped["analysis"].tolist()
    words = pd.concat(pd.read_csv(p) for p in sorted((out / "analysis/recognition/author").glob("*/seed*_words.csv")))
    assert set(words["method"]) >= {"delta"}
    splits = results.groupby("seed")[["n_train", "n_test"]].first()
    assert (words.groupby("seed")[["n_train", "n_test"]].nunique() == 1).all().all()
    assert words.groupby("seed")[["n_train", "n_test"]].first().equals(splits)


def test_excerpt_bundle_attributes_held_out_texts(excerpt_run):
    from punctstyle.attribution.bundle_build import calibration_folds
    from punctstyle.attribution.calibration import text_folds
    from punctstyle.attribution.length import fold_rounds

    out = excerpt_run["outdir"]
    f1 = pd.read_parquet(out / "corpus/f1.parquet")
    manifest = json.loads((out / "models/attribution/manifest.json").read_text())
    assert (manifest["n_books"], manifest["n_texts"], manifest["n_authors"]) == (len(f1), 6, 2)
    threshold = json.loads((out / "models/attribution/threshold.json").read_text())
    assert threshold["n_texts"] == 6
    # cross-fitted over K = 5 folds of whole texts (attribution.test_fraction 0.2, seed 0): each
    # text is held out once with every excerpt of it, never beside an excerpt of its own text
    labels, sources = f1["author"].to_numpy(dtype=object), f1["source_id"].to_numpy()
    folds = text_folds(labels, sources, calibration_folds(0.2), np.random.default_rng(0))
    rounds = fold_rounds(labels, folds)
    assert threshold["folds"] == np.unique(folds).size == len(rounds) <= 5  # 6 texts: not every fold gets one
    for held_out in rounds:
        assert not set(sources[held_out.train]) & set(sources[held_out.test])
    tested = np.concatenate([held_out.test for held_out in rounds])
    assert tested.size == len(f1) == np.unique(tested).size  # every excerpt once: 3 texts an author, 3 folds
    curves = threshold["curves"].values()
    assert {row["n_test"] for c in curves for row in c["curve"]} == {tested.size}
    # the other scripts read an excerpt's own marks: the documents figure and the parts analysis
    books = json.loads((out / "figures/documents/books.json").read_text())["books"]
    assert books and all(b["n_marks"] == EXCERPT_MARKS for b in books)
    assert len({f1.set_index("book_id").loc[b["book_id"], "source_id"] for b in books}) == len(books)
    assert json.loads((out / "analysis/beyond/parts.json").read_text())["status"] == "done"
    temporal = json.loads((out / "analysis/temporal/summary.json").read_text())
    assert temporal["over_time"]["drawn"]  # Quill's years reach the excerpts of the dated texts
    for author in ("Quill, Ada", "Dash, Cora"):
        held_out = out / f"held_out_{author[:4]}.txt"
        held_out.write_text(own_text(next(a for a in AUTHORS if a.corpus_name == author), 7777, 60), encoding="utf-8")
        proc = punctstyle("attribute", str(held_out), "--model", str(out / "models/attribution"), "--json")
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["authors"][0]["author"] == author
