"""A folder corpus: ids, metadata checks, selection, decoding, ingest, skipped analyses."""

from __future__ import annotations

import codecs
import gzip
import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest

from punctstyle.sources.selection import SELECTION_COLUMNS, EmptySelectionError
from punctstyle.sources.folder import (
    FOLDER_SELECTION_COLUMNS,
    HASHED_ID_BASE,
    book_number,
    decode_document,
    doc_id_from_file,
    folder_selection,
    metadata_columns,
    publication_years,
    read_document,
    read_metadata,
    resolve_document,
    safe_doc_id,
    split_genres,
    write_document,
)
from punctstyle.io import InputError
from punctstyle.analyses.skipped import skip_lines, skipped_analyses


def test_doc_ids_are_safe_file_names():
    assert safe_doc_id("Brontë, Jane #2") == "bronte-jane-2"
    assert safe_doc_id("  ../etc/passwd ") == "etc-passwd"
    assert safe_doc_id("???") == ""
    assert doc_id_from_file("Austen/Emma.txt") == "austen-emma"
    assert doc_id_from_file("letters\\1801 to Cassandra.TXT") == "letters-1801-to-cassandra"
    assert doc_id_from_file("notes") == "notes"


def test_doc_ids_keep_letters_of_every_script():
    assert doc_id_from_file("Война.txt") == "война"
    assert doc_id_from_file("Толстой/Анна Каренина.txt") == "толстой-анна-каренина"
    assert safe_doc_id("Ἰλιάς") == "ἰλιάς"  # accents of non-Latin letters are kept
    names = ["Война.txt", "Мир.txt", "Детство.txt"]
    ids = [doc_id_from_file(name) for name in names]
    assert len(set(ids)) == 3 and len({book_number(i) for i in ids}) == 3


def test_three_cyrillic_file_names_give_three_documents(tmp_path):
    names = ["Война.txt", "Мир.txt", "Детство.txt"]
    for name in names:
        (tmp_path / name).write_text("Yes, no; maybe.\n", encoding="utf-8")
    csv = write_csv(tmp_path / "metadata.csv", "file,author\n" + "".join(f"{n},Лев\n" for n in names))
    metadata, _ = read_metadata(csv)
    selection, exclusions, _ = folder_selection(metadata, tmp_path, metadata_path="m.csv", min_docs_per_author=2)
    assert sorted(selection["doc_id"]) == ["война", "детство", "мир"]
    assert exclusions.empty


def test_book_numbers_are_stable_and_keep_small_numbers():
    assert book_number("1342") == 1342
    digest = hashlib.sha256(b"austen-emma").digest()
    expected = HASHED_ID_BASE + int.from_bytes(digest[:8], "big") % (8 * HASHED_ID_BASE)
    assert book_number("austen-emma") == expected
    assert HASHED_ID_BASE <= expected < 2**53
    assert book_number("0") >= HASHED_ID_BASE  # 0 is no book number
    assert book_number(str(HASHED_ID_BASE)) >= HASHED_ID_BASE  # too large: hashed, never clashes


def test_split_genres():
    assert split_genres(" Humor; Travel ;;Humor") == ["Humor", "Travel"]
    assert split_genres("") == []


def write_csv(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_read_metadata_reports_unknown_and_missing_columns(tmp_path):
    frame, warnings = read_metadata(write_csv(tmp_path / "m.csv", "file,author,colour\na.txt,Ann,red\n"))
    assert frame[["file", "author", "id", "genre"]].values.tolist() == [["a.txt", "Ann", "", ""]]
    assert frame["line"].tolist() == [2]
    assert len(warnings) == 1 and "unknown column 'colour' ignored" in warnings[0] and "m.csv" in warnings[0]
    with pytest.raises(InputError, match=r"m2.csv: the metadata CSV lacks column 'author'"):
        read_metadata(write_csv(tmp_path / "m2.csv", "file,writer\na.txt,Ann\n"))
    with pytest.raises(InputError, match="m3.csv: cannot read"):
        read_metadata(tmp_path / "m3.csv")
    assert metadata_columns(tmp_path / "m.csv") == ["file", "author"]
    assert metadata_columns(tmp_path / "none.csv") == []


@pytest.fixture
def folder(tmp_path):
    for name in ("a1.txt", "a2.txt", "b1.txt", "b2.txt", "b3.txt", "c1.txt"):
        (tmp_path / name).write_text("Yes, no; maybe.\n")
    csv = write_csv(
        tmp_path / "metadata.csv",
        "file,author,id,year,author_birth,genre\n"
        "a1.txt,Ann,,1901,1870,Humor;Travel\n"  # line 2
        "a2.txt,Ann,7,1905,1870,\n"  # line 3
        "b1.txt,Bob,,,,\n"  # line 4
        "b2.txt,Bob,,19x5,,\n"  # line 5: bad year
        "missing.txt,Bob,,,,\n"  # line 6: no such file
        "b1.txt,Bob,b1,,,\n"  # line 7: the id of line 4 again
        "c1.txt,,,,,\n"  # line 8: no author
        "c1.txt,Cy,,,,\n"  # line 9: Cy has one document
        "b3.txt,Bob,,,,\n",  # line 10
    )
    return tmp_path, csv


def test_folder_selection_keeps_good_rows_and_names_each_bad_one(folder):
    root, csv = folder
    metadata, _ = read_metadata(csv)
    selection, exclusions, log = folder_selection(metadata, root, metadata_path="m.csv", min_docs_per_author=2)
    assert list(selection.columns) == list(FOLDER_SELECTION_COLUMNS)
    assert list(selection.columns[: len(SELECTION_COLUMNS)]) == list(SELECTION_COLUMNS)
    by_doc = selection.set_index("doc_id")
    assert sorted(by_doc.index) == ["7", "a1", "b1", "b3"]
    assert by_doc.loc["7", "book_id"] == 7 and by_doc.loc["a1", "book_id"] == book_number("a1")
    assert selection["book_id"].is_monotonic_increasing
    assert by_doc.loc["a1", "bookshelves"] == ["Humor", "Travel"] and by_doc.loc["7", "bookshelves"] == []
    assert by_doc.loc["a1", "year"] == 1901 and by_doc.loc["a1", "issued"] == "1901"
    assert by_doc.loc["a1", "birth"] == 1870 and pd.isna(by_doc.loc["b1", "birth"])
    assert by_doc.loc["b1", "title"] == "b1"  # no title: the doc_id
    reasons = exclusions["reason"].tolist()
    assert reasons == [
        "m.csv: row 5 (b2.txt): year '19x5' is not a whole number",
        f"m.csv: row 6 (missing.txt): file not found: {root / 'missing.txt'}",
        f"m.csv: row 7 (b1.txt): duplicate id 'b1' (book_id {book_number('b1')}), first used at row 4",
        "m.csv: row 8 (c1.txt): no author",
        "m.csv: row 9 (c1.txt): author has 1 documents < min_docs_per_author 2",
    ]
    assert exclusions["stage"].tolist() == ["metadata"] * 4 + ["selection"]
    assert exclusions["book_id"].tolist()[3] == book_number("c1")
    assert [(s["filter"], s["removed"], s["remaining"]) for s in log] == [
        ("metadata_rows", 3, 6),
        ("duplicate_ids", 1, 5),
        ("min_docs_per_author", 1, 4),
    ]
    years = publication_years(selection)
    assert dict(zip(years["book_id"], years["year"])) == {7: 1905, book_number("a1"): 1901}


def test_files_resolving_outside_the_folder_are_bad_rows(tmp_path):
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    outside = tmp_path / "secret.txt"
    outside.write_text("root:x:0:0\n")
    for name in ("a1.txt", "a2.txt", "a3.txt"):
        (root / name).write_text("Yes, no; maybe.\n")
    (root / "out_link.txt").symlink_to(outside)
    (root / "sub" / "in_link.txt").symlink_to(root / "a2.txt")
    (root / "sub" / "up.txt").symlink_to(Path("..") / "a3.txt")  # (a link to a1.txt would be row 2's file again)
    csv = write_csv(
        root / "metadata.csv",
        "file,author,id\n"
        "a1.txt,Ann,\n"  # line 2
        "sub/in_link.txt,Ann,\n"  # line 3: a symlink inside the folder: fine
        "sub/up.txt,Ann,\n"  # line 4: a relative symlink to a file of the folder: fine
        "../secret.txt,Ann,\n"  # line 5
        f"{outside},Ann,abs\n"  # line 6: an absolute path
        "out_link.txt,Ann,\n"  # line 7: a symlink pointing out
        "sub/../../secret.txt,Ann,dots\n"  # line 8
        "sub/..,Ann,folder\n",  # line 9: the folder itself: inside, but not a file
    )
    metadata, _ = read_metadata(csv)
    selection, exclusions, _ = folder_selection(metadata, root, metadata_path="m.csv", min_docs_per_author=2)
    assert sorted(selection["doc_id"]) == ["a1", "sub-in-link", "sub-up"]
    by_doc = selection.set_index("doc_id")
    assert by_doc.loc["sub-in-link", "path"] == str((root / "a2.txt").resolve())
    assert by_doc.loc["a1", "path"] == str((root / "a1.txt").resolve())
    assert exclusions["reason"].tolist() == [
        "m.csv: row 5 (../secret.txt): resolves outside the corpus folder",
        f"m.csv: row 6 ({outside}): resolves outside the corpus folder",
        "m.csv: row 7 (out_link.txt): resolves outside the corpus folder",
        "m.csv: row 8 (sub/../../secret.txt): resolves outside the corpus folder",
        f"m.csv: row 9 (sub/..): file not found: {root / 'sub/..'}",
    ]
    assert set(exclusions["stage"]) == {"metadata"}
    assert resolve_document(root, "/etc/passwd") is None
    assert resolve_document(root, "a1.txt") == (root / "a1.txt").resolve()


def test_an_empty_folder_selection_names_the_largest_author(folder):
    root, csv = folder
    metadata, _ = read_metadata(csv)
    with pytest.raises(EmptySelectionError, match=r"m.csv: no document selected: .*min_docs_per_author=5 .*Ann, has 2"):
        folder_selection(metadata, root, metadata_path="m.csv", min_docs_per_author=5)


def test_decode_document_follows_the_byte_order_mark():
    text = "Café, naïve; «quoted»!"
    assert decode_document(codecs.BOM_UTF8 + text.encode("utf-8")) == (text, "utf-8")
    assert decode_document(codecs.BOM_UTF16_LE + text.encode("utf-16-le")) == (text, "utf-16")
    assert decode_document(codecs.BOM_UTF16_BE + text.encode("utf-16-be")) == (text, "utf-16")
    assert decode_document(text.encode("utf-8")) == (text, "utf-8")
    assert decode_document("Café".encode("latin-1")) == ("Café", "latin-1")


def test_ingest_writes_the_download_outputs(tmp_path):
    source = tmp_path / "doc.txt"
    data = codecs.BOM_UTF16_LE + "Well, yes; no!\n".encode("utf-16-le")
    source.write_bytes(data)
    document = read_document(source, 42, "doc", max_bytes=1000)
    write_document(document, "doc.txt", tmp_path / "42.txt.gz", tmp_path / "42.json")
    assert gzip.decompress((tmp_path / "42.txt.gz").read_bytes()).decode() == "Well, yes; no!\n"
    record = json.loads((tmp_path / "42.json").read_text())
    assert record["status"] == "ok" and record["encoding"] == "utf-16" and record["book_id"] == 42
    assert record["sha256"] == hashlib.sha256(data).hexdigest() and record["n_bytes"] == len(data)
    assert record["text_sha256"] == hashlib.sha256(b"Well, yes; no!\n").hexdigest() and record["n_chars"] == 15
    assert (record["source"], record["doc_id"], record["file"]) == ("folder", "doc", "doc.txt")
    assert record["url"] == source.resolve().as_uri()
    # the provenance reader of the download step accepts it (UTF-16 is a recorded source encoding)
    from punctstyle.sources.provenance import read_provenance

    assert read_provenance(tmp_path / "42.json")["encoding"] == "utf-16"


@pytest.mark.parametrize(
    ("content", "status", "reason"),
    [
        (b"  \n\n", "rejected", "empty text"),
        (b"PK\x03\x04\x00\x00binary", "rejected", "binary content (NUL characters), not a text"),
        (b"x" * 2000, "rejected", "file of 2000 bytes exceeds the cap of 1000 bytes"),
        (None, "unavailable", "cannot read the file"),
    ],
)
def test_bad_files_are_not_ok_and_named(tmp_path, content, status, reason):
    source = tmp_path / "bad.txt"
    if content is not None:
        source.write_bytes(content)
    document = read_document(source, 3, "bad", max_bytes=1000)
    assert document.status == status and document.text == ""
    assert document.reason.startswith(f"{source}: {reason}")


def test_skipped_analyses_add_a_corpus_with_fewer_than_two_genres():
    planned = [("temporal analysis", "no dates")]
    table = skipped_analyses(planned, {"genres_in_corpus": 1}, genre_analysis_configured=True, genre_min_docs=10)
    assert skip_lines(table) == [
        "skipped temporal analysis: no dates",
        "skipped genre analysis: the corpus has 1 genre(s) with at least genres.min_docs=10 documents, "
        "at least two are needed (no genre consistency, recognition, figures or appendix were made)",
    ]
    assert skipped_analyses([], {"genres_in_corpus": 2}, genre_analysis_configured=True, genre_min_docs=10).empty
    assert skipped_analyses([], {"genres_in_corpus": 0}, genre_analysis_configured=False, genre_min_docs=10).empty


# ------------------------------------------------------------- excerpts: group-aware splits


def test_excerpts_of_one_text_never_straddle_the_split():
    import numpy as np

    from punctstyle.experiments.splits import grouped_split, row_split, stratified_split

    # author A: texts a1 (3 excerpts), a2 (2), a3 (1); author B: texts b1 (2), b2 (2)
    labels = ["A"] * 6 + ["B"] * 4
    groups = ["a1", "a1", "a1", "a2", "a2", "a3", "b1", "b1", "b2", "b2"]
    for seed in range(20):
        train, test = grouped_split(labels, groups, 0.5, np.random.default_rng(seed))
        assert sorted(np.concatenate([train, test]).tolist()) == list(range(10))
        train_groups = {groups[i] for i in train}
        test_groups = {groups[i] for i in test}
        assert not train_groups & test_groups
        # A: round(0.5 * 3) = 2 of its 3 texts in test; B: min(round(1), 1) = 1 of 2
        assert len({g for g in test_groups if g.startswith("a")}) == 2
        assert len({g for g in test_groups if g.startswith("b")}) == 1
    # one text per group: the same split as the ungrouped one (same random draws)
    plain = stratified_split(labels, 0.2, np.random.default_rng(3))
    grouped = grouped_split(labels, list(range(10)), 0.2, np.random.default_rng(3))
    assert [a.tolist() for a in plain] == [a.tolist() for a in grouped]
    split = row_split(labels, 2, 0, "author", 0.5, groups=groups)
    assert not {groups[i] for i in split.train_index} & {groups[i] for i in split.test_index}
    # without groups, row_split is what it was
    default = row_split(labels, 2, 0, "author", 0.5)
    rng = np.random.default_rng(np.random.SeedSequence([0, 2, __import__("zlib").crc32(b"author")]))
    rng.random(0)  # sample_classes draws nothing when every class is kept
    train, test = stratified_split(np.asarray(labels, dtype=object), 0.5, rng)
    assert default.train_index.tolist() == train.tolist() and default.test_index.tolist() == test.tolist()
    with pytest.raises(ValueError, match="group 'x' holds documents of more than one class"):
        grouped_split(["A", "B"], ["x", "x"], 0.5, np.random.default_rng(0))


def test_file_sha256_is_the_provenance_digest(tmp_path):
    from punctstyle.sources.folder import file_sha256

    path = tmp_path / "a.txt"
    data = "Yes, no; maybe.\n".encode() * 100_000
    path.write_bytes(data)
    assert file_sha256(path) == hashlib.sha256(data).hexdigest() == file_sha256(path, block=7)
    document = read_document(path, 1, "a", max_bytes=10**8)
    assert document.sha256 == file_sha256(path)


def test_time_slot_and_gender_are_skipped_without_their_column_or_two_classes():
    from punctstyle.analyses.skipped import metadata_task_skips

    summary = {"genres_in_corpus": 0, "time_slots_in_corpus": 1}
    assert metadata_task_skips(["time_slot", "gender"], summary) == [
        ("time slot analysis", "the corpus has 1 time slot(s), at least two are needed "
                               "(no time slot consistency, recognition, figures or appendix were made)"),
        ("gender analysis", "the corpus tables have no gender column "
                            "(no gender consistency, recognition, figures or appendix were made)"),
    ]
    assert metadata_task_skips(["time_slot"], {"time_slots_in_corpus": 2}) == []
    assert metadata_task_skips([], {}) == []
    table = skipped_analyses([], {**summary, "genders_in_corpus": 2}, genre_analysis_configured=False,
                             genre_min_docs=10, metadata_tasks=["time_slot", "gender"])
    assert skip_lines(table) == ["skipped time slot analysis: the corpus has 1 time slot(s), at least two are "
                                 "needed (no time slot consistency, recognition, figures or appendix were made)"]
