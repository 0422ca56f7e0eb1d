"""Real-data tests on the shared ELTeC copy (../shared/eltec beside the checkout, or
$PUNCTSTYLE_SHARED/eltec): skipped with the reason when it is absent."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.sources.tei import TeiSettings, corpus_language, read_tei_file, tei_metadata
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.clean import clean_text
from punctstyle.text.extract import classify_token, sequence_from_classes, word_key
from punctstyle.text.languages import blank_tokenizer, normalise_marks
from punctstyle.text.tokenizer_facts import export_extraction_rules
from tests.conftest import SHARED

ELTEC = SHARED / "eltec"
COLLECTIONS = {"ELTeC-eng": "en", "ELTeC-fra": "fr", "ELTeC-pol": "pl"}


def collection(name: str):
    path = ELTEC / name
    if not (path / "level1").is_dir():
        pytest.skip(f"real-data test: the shared ELTeC copy is not at {path} (set PUNCTSTYLE_SHARED)")
    return path


@pytest.mark.parametrize("name", sorted(COLLECTIONS))
def test_every_file_is_read_and_the_language_found(name):
    settings = TeiSettings.from_config({"tei": {"path": str(collection(name))}})
    assert corpus_language(settings) == COLLECTIONS[name]
    frame, left_out = tei_metadata(settings)
    expected_left_out = [("ENG18460_Reynolds.xml",)] if name == "ELTeC-eng" else []
    assert [(file,) for file, _ in left_out] == expected_left_out
    assert len(frame) == (99 if name == "ELTeC-eng" else 100)
    assert (frame["author"] != "").all() and (frame["year"] != "").all()
    assert set(frame["time_slot"]) <= {"T1", "T2", "T3", "T4"} and set(frame["gender"]) <= {"F", "M", "U", ""}
    three = frame["author"].value_counts()
    assert (three >= 3).sum() >= 5  # the three-novel authors of the recognition


@pytest.mark.parametrize("name", ["ELTeC-fra", "ELTeC-pol"])
def test_fast_path_is_spacy_on_a_real_novel(name):
    language = COLLECTIONS[name]
    path = sorted((collection(name) / "level1").glob("*.xml"))[7]
    text = read_tei_file(path).text[:120_000]
    extractor = ChunkCachedExtractor(rules=export_extraction_rules(language=language, dialogue_dash=True))
    fast, words = extractor.extract_with_word_stream(clean_text(extractor.normalise(text)))
    tokens = blank_tokenizer(language)(clean_text(normalise_marks(text, language, True)))
    classes = [classify_token(t.text) for t in tokens]
    reference = sequence_from_classes(np.array(classes))
    assert fast.marks.tolist() == reference.marks.tolist() and fast.gaps.tolist() == reference.gaps.tolist()
    assert words == [word_key(t.text) for t, c in zip(tokens, classes) if c == -1]


def test_editions_in_eltec_eng_and_the_mirror_and_their_digital_sources():
    """The seven novels of ELTeC-eng in the shared Gutenberg mirror (issue 34 item 5) and where
    ELTeC took each text from (docs/languages.md, Editions)."""
    import pandas as pd

    from punctstyle.analyses.editions import match_editions, source_name
    from punctstyle.sources.catalog import read_catalog
    from punctstyle.sources.tei import ELTEC_COLUMNS, digital_source, parse_tree, read_eltec_metadata
    from tests.conftest import require_mirror

    folder = collection("ELTeC-eng")
    raw = read_catalog(require_mirror() / "cache" / "epub" / "feeds" / "pg_catalog.csv")
    catalog = pd.DataFrame({"book_id": raw["Text#"], "authors": raw["Authors"], "title": raw["Title"]})
    meta = read_eltec_metadata(folder / "ELTeC-eng_metadata.tsv").rename(columns=ELTEC_COLUMNS)
    novels = pd.DataFrame({"doc_id": meta["filename"], "author": meta["author"], "title": meta["title"]})
    matched = match_editions(novels, catalog)
    assert dict(zip(matched["doc_id"], matched["book_id"])) == {
        "ENG18551_Trollope": 619, "ENG18652_Carroll": 11, "ENG18860_Hardy": 143, "ENG18952_Wells": 35,
        "ENG19060_Nesbit": 837, "ENG19080_Chesterton": 1695, "ENG19090_Wells": 718,
    }
    sources = {d: source_name(digital_source(parse_tree((folder / "level1" / f"{d}.xml").read_bytes())))
               for d in matched["doc_id"]}
    assert sorted(d for d, s in sources.items() if s == "Project Gutenberg") == [
        "ENG18652_Carroll", "ENG18860_Hardy", "ENG19090_Wells"]
