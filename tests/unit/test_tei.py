"""The TEI source (punctstyle.sources.tei, punctstyle.sources.tei_job): text and metadata of a
TEI file, the refusals (one line each, nothing fetched), ELTeC's table, the selection."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from punctstyle.io import InputError
from punctstyle.sources.folder import book_number
from punctstyle.sources.tei import (
    TeiRefusal,
    TeiSettings,
    corpus_language,
    header_language,
    parse_tei,
    read_eltec_metadata,
    read_tei_file,
    tei_metadata,
)
from punctstyle.sources.tei_job import read_tei_document, tei_selection
from tests.fixtures.tei_corpus import SAMPLES, TEI_NS, tei_document, write_tei_corpus

NS = TEI_NS.encode()


def test_body_only_notes_out_one_line_per_block():
    doc = parse_tei(tei_document(SAMPLES["fr"][0], language="fr"))
    lines = doc.text.split("\n")
    assert lines[0] == "I" and lines[1].startswith("— Viens-tu") and len(lines) == 4
    assert "Préface" not in doc.text and "Fin du volume" not in doc.text
    assert "note de bas de page" not in doc.text and "[1]" not in doc.text
    assert lines[2].endswith("Puis il sortit.")


def test_parts_and_notes_are_configurable():
    data = tei_document(SAMPLES["fr"][0], language="fr")
    doc = parse_tei(data, parts=("front", "body", "back"), notes=True)
    lines = doc.text.split("\n")
    assert lines[0].startswith("Préface") and lines[-1].startswith("Fin du volume")
    assert "note de bas de page" in doc.text and "[1]" in doc.text
    with pytest.raises(ValueError, match="unknown TEI text part"):
        parse_tei(data, parts=("middle",))


def test_whitespace_inside_a_paragraph_is_one_space():
    data = (
        f"<TEI xmlns='{TEI_NS}'><text><body><p>Un\n      mot\u00a0<hi>long</hi>\n"
        "<pb n='2'/>  ici.</p><p>Deux.</p></body></text></TEI>"
    ).encode("utf-8")
    assert parse_tei(data).text == "Un mot long ici.\nDeux."


def test_header_metadata():
    data = tei_document(["Bonjour."], language="fr-FR", author="Virgule, Anne", title="Roman", year="1871",
                        gender="F", time_slot="T2")  # fmt: skip
    assert parse_tei(data).metadata == {
        "title": "Roman", "author": "Virgule, Anne", "author_birth": "1820", "author_death": "1890",
        "year": "1871", "language": "fr", "gender": "F", "time_slot": "T2",
    }  # fmt: skip


def test_author_without_persname_and_language_from_the_root():
    data = (
        b"<TEI xmlns='" + NS + b"' xml:lang='pol'><teiHeader><fileDesc><titleStmt><title ana='short'>K</title>"
        b"<title>Pelny tytul</title><author>Nowak, Jan (1840-1900)<idno>viaf:1</idno></author></titleStmt>"
        b"<sourceDesc><bibl><date when='1888-03-01'/></bibl></sourceDesc></fileDesc></teiHeader>"
        b"<text><body><p>Tak.</p></body></text></TEI>"
    )
    meta = parse_tei(data).metadata
    assert (meta["title"], meta["author"], meta["year"], meta["language"]) == (
        "Pelny tytul", "Nowak, Jan (1840-1900)", "1888", "pl",
    )  # fmt: skip


REFUSED = {
    "not well-formed XML": b"<TEI xmlns='" + NS + b"'><text><body><p>open</body></TEI>",
    "not a TEI file (root <html>": b"<html><body><p>x</p></body></html>",
    "a teiCorpus": b"<teiCorpus xmlns='" + NS + b"'><TEI/></teiCorpus>",
    "not a TEI file (root <TEI>": b"<TEI xmlns='urn:other'><text><body><p>x</p></body></text></TEI>",
    "no <body>": b"<TEI xmlns='" + NS + b"'><text><front><p>x</p></front></text></TEI>",
    "holds no word": b"<TEI xmlns='" + NS + b"'><text><body><p> . ; </p></body></text></TEI>",
    "declares entities (x)": (
        b'<!DOCTYPE TEI [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<TEI xmlns='" + NS + b"'><text><body><p>&x;</p></body></text></TEI>"
    ),
    "declares entities (lol": (
        b'<!DOCTYPE TEI [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        b"<TEI xmlns='" + NS + b"'><text><body><p>&lol1;</p></body></text></TEI>"
    ),
    "not well-formed XML (Maximum entity amplification": (
        b'<!DOCTYPE TEI [<!ENTITY a "aaaaaaaaaaaaaaaaaaaa">'
        + b"".join(
            b'<!ENTITY %s "%s">' % (chr(98 + i).encode(), (b"&" + chr(97 + i).encode() + b";") * 10) for i in range(8)
        )
        + b"]><TEI xmlns='"
        + NS
        + b"'><text><body><p>&i;</p></body></text></TEI>"
    ),
    "uses the entity &nbsp;": (
        b'<!DOCTYPE TEI SYSTEM "http://example.invalid/tei_all.dtd">'
        b"<TEI xmlns='" + NS + b"'><text><body><p>a&nbsp;b</p></body></text></TEI>"
    ),
}


@pytest.mark.parametrize("reason", sorted(REFUSED))
def test_refusals_are_one_line(reason, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the parser tried to open a network connection")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    with pytest.raises(TeiRefusal) as caught:
        parse_tei(REFUSED[reason])
    message = str(caught.value)
    assert reason in message and "\n" not in message
    assert "root:" not in message  # nothing of /etc/passwd


def test_external_entity_to_a_url_is_never_fetched(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the parser tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    data = (
        b'<!DOCTYPE TEI [<!ENTITY x SYSTEM "http://127.0.0.1:9/secret">]>'
        b"<TEI xmlns='" + NS + b"'><text><body><p>&x;</p></body></text></TEI>"
    )
    with pytest.raises(TeiRefusal, match="declares entities"):
        parse_tei(data)


def test_eltec_table(tmp_path):
    table = tmp_path / "ELTeC-x_metadata.tsv"
    table.write_text("filename\tauthor-name\treference-year\ttime-slot\nA_B.xml\tB, A\t1850\tNA\nC_D\tD, C\tNA\tT2\n")
    frame = read_eltec_metadata(table)
    assert frame.loc["A_B", "author-name"] == "B, A" and frame.loc["A_B", "time-slot"] == ""
    assert frame.loc["C_D", "reference-year"] == "" and list(frame.index) == ["A_B", "C_D"]
    (tmp_path / "bad.tsv").write_text("author\nX\n")
    with pytest.raises(InputError, match="no 'filename' column"):
        read_eltec_metadata(tmp_path / "bad.tsv")


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "ELTeC-test"
    expected = write_tei_corpus(root)
    config = {"tei": {"path": str(root), "pattern": None, "metadata": None, "parts": ["body"], "notes": False},
              "language": None, "mirror": {"max_text_mb": 5}}  # fmt: skip
    return root, expected, TeiSettings.from_config(config)


def test_settings_find_the_eltec_layout(corpus):
    root, _, settings = corpus
    assert settings.pattern == "level1/*.xml" and settings.metadata == str(root / "ELTeC-test_metadata.tsv")
    with pytest.raises(InputError, match="config tei.path"):
        TeiSettings.from_config({"tei": {"path": str(root / "nowhere")}})


def test_corpus_language_from_the_table_or_the_headers(corpus, tmp_path):
    root, _, settings = corpus
    assert corpus_language(settings) == "fr"
    assert header_language(root / "level1/DEU00001_Other.xml") == "de"
    headers_only = TeiSettings(path=settings.path, pattern=settings.pattern, metadata=None)
    assert corpus_language(headers_only) == "fr"  # 6 French, 1 German, the refused files unreadable
    assert corpus_language(TeiSettings(path=settings.path, pattern="x", metadata=None, language="deu")) == "de"


def test_metadata_rows_and_left_out_files(corpus):
    root, expected, settings = corpus
    frame, left_out = tei_metadata(settings)
    assert dict(zip(frame["id"], frame["author"])) == expected["corpus"]
    assert set(frame["language"]) == {"fr"} and set(frame["time_slot"]) == {"T1", "T2"}
    reasons = {Path(file).name: reason for file, reason in left_out}
    assert set(reasons) == set(expected["left_out"])
    for name, phrase in expected["left_out"].items():
        assert phrase in reasons[name]


def test_metadata_with_text_is_each_kept_files_text(corpus):
    root, _, settings = corpus
    frame, left_out = tei_metadata(settings)
    with_text, left_out_too = tei_metadata(settings, with_text=True)
    assert "text" not in frame.columns and list(with_text.columns) == [*frame.columns, "text"]
    assert with_text.drop(columns="text").equals(frame) and left_out_too == left_out
    for file, text in zip(with_text["file"], with_text["text"]):
        assert text == read_tei_file(root / file).text and text.strip()


def test_selection_is_the_folder_sources_with_the_refusals(corpus):
    root, expected, settings = corpus
    selection, exclusions, log = tei_selection(settings, min_docs_per_author=3)
    assert sorted(selection["author"]) == sorted(expected["corpus"].values())
    assert set(selection["language"]) == {"fr"} and set(selection["gender"]) == {"F", "M"}
    assert selection["year"].notna().all() and {"doc_id", "file", "path"} <= set(selection.columns)
    assert (exclusions["stage"] == "metadata").sum() == len(expected["left_out"])
    assert book_number("fra90004-external") in set(exclusions["book_id"])
    assert all("\n" not in r for r in exclusions["reason"])
    assert log[0] == {"filter": "tei_files", "removed": len(expected["left_out"]), "remaining": 6}


def test_ingest_writes_the_body_text(corpus):
    root, _, _ = corpus
    path = sorted((root / "level1").glob("FRA0*.xml"))[0]
    document = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=10**7)
    assert document.status == "ok" and document.encoding == "tei" and document.text.startswith("I\n")
    refused = read_tei_document(str(root / "level1/FRA90005_Bomb.xml"), 2, "y", parts=("body",), notes=False,
                                max_bytes=10**7)  # fmt: skip
    assert refused.status == "rejected" and "declares entities" in refused.reason
    too_big = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=10)
    assert too_big.status == "rejected" and "exceeds the cap" in too_big.reason


def test_genre_from_time_slot_or_gender(corpus):
    root, _, settings = corpus
    from dataclasses import replace

    frame, _ = tei_metadata(replace(settings, genre_from="time_slot"))
    assert dict(zip(frame["author"], frame["genre"])) == {"Virgule, Anne": "T1", "Point, Bernard": "T2"}
    selection, _, _ = tei_selection(replace(settings, genre_from="gender"), min_docs_per_author=3)
    assert sorted(map(tuple, selection["bookshelves"])) == [("F",)] * 3 + [("M",)] * 3
    assert (tei_metadata(settings)[0]["genre"] == "").all()
