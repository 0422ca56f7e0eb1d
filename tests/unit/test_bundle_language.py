"""`punctstyle attribute`, `verify` and `rolling` on a TEI file or a text in another language: the
bundle records the language it was built with (manifest field ``extraction``), the commands
extract with that language's rules, ``--language`` overrides, a TEI header in another language
warns in one line; a bundle without the field reads as English. Our own French and German
sentences."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from punctstyle import api
from punctstyle.api.language import bundle_language, document_sequence, folder_language
from punctstyle.api.text import Document, HtmlText, TextRefused, checked_document, document_of, is_tei, read_document
from punctstyle.attribution import bundle as bundles
from punctstyle.attribution.bundle_build import build_attribution_bundle
from punctstyle.attribution.verification import Band
from punctstyle.attribution.verification_run import (
    RESULT_COLUMNS,
    VerificationSettings,
    write_verification_files,
)
from punctstyle.cli import main
from punctstyle.features import compute_features
from punctstyle.io import InputError
from punctstyle.marks import MARKS, feature_column_names
from punctstyle.settings import schema_defaults
from punctstyle.text.language_rules import ExtractionLanguage, chosen_language
from tests.fixtures.corpus_files import corpus_files
from tests.fixtures.tei_corpus import tei_document

FRENCH = ["— Viens-tu ce soir ? demanda Lucie.", "‹ Bah ›, pensa-t-elle (sans rien dire)."]
"""Per pair of paragraphs: French rules with the dialogue dash give 9 marks (" ? . " " , ( ) .),
French rules without it 8 (the dash left out), English rules 6 (‹ › are no marks in English)."""
GERMAN = ["„Kommst du?“, fragte Anna.", "Er sagte: »Nein!« Dann ging er."]
"""Per pair: German and French rules alike give 10 marks (" ? " , . : " ! " .)."""
PAIRS = 10


def marks(sequence) -> str:
    return " ".join(MARKS[m] for m in sequence.marks)


def test_the_record_reads_config_values_and_old_bundles_read_as_english():
    assert ExtractionLanguage.of("fra", "quote") == ExtractionLanguage("fr", "quote")
    assert ExtractionLanguage.of(None, None) == ExtractionLanguage("en", "none")
    assert ExtractionLanguage("fr", "quote").as_record() == {"language": "fr", "dialogue_dash": "quote"}
    assert ExtractionLanguage.from_manifest({"format": "x"}, "m.json") == ExtractionLanguage("en", "none")
    assert ExtractionLanguage.from_manifest({"extraction": {"language": "de-DE"}}, "m.json") == ExtractionLanguage("de")
    with pytest.raises(InputError, match=r"^m.json: field extraction: dialogue_dash 'maybe': expected one of none, quote$"):
        ExtractionLanguage.from_manifest({"extraction": {"language": "fr", "dialogue_dash": "maybe"}}, "m.json")
    with pytest.raises(InputError, match=r"^m.json: field extraction: expected"):
        ExtractionLanguage.from_manifest({"extraction": "fr"}, "m.json")
    with pytest.raises(ValueError, match="no blank tokenizer"):
        ExtractionLanguage("zz").rules()


def test_override_keeps_the_dash_and_a_header_in_another_language_warns():
    recorded = ExtractionLanguage("fr", "quote")
    assert chosen_language(recorded, None, "", "a.txt") == (recorded, None)
    assert chosen_language(recorded, None, "fr", "a.xml") == (recorded, None)
    assert chosen_language(recorded, "deu", "", "a.txt") == (ExtractionLanguage("de", "quote"), None)
    assert chosen_language(recorded, None, "de", "a.xml") == (
        recorded, "a.xml: the TEI header says language 'de', the bundle was built on 'fr' texts; "
                  "extracted with the 'fr' rules")
    assert chosen_language(recorded, "de", "de", "a.xml")[1].endswith("extracted with the 'de' rules")


def test_a_tei_file_gives_its_body_as_the_tei_source_reads_it(tmp_path):
    from punctstyle.sources.tei import parse_tei

    data = tei_document(FRENCH, language="fr")
    path = tmp_path / "roman.xml"
    path.write_bytes(data)
    document = read_document(str(path), 10**6)
    assert document == Document(parse_tei(data).text, "fr", tei=True)
    assert document.text == "I\n" + "\n".join(FRENCH)  # the head, the body; front, back and the note left out
    assert is_tei(data) and is_tei(data.decode("utf-8").encode("utf-16"))
    assert checked_document(data.decode("utf-8"), "roman") == document
    plain = tmp_path / "plain.txt"
    plain.write_text("Une phrase ; une autre.", encoding="utf-8")
    assert read_document(str(plain), 10**6) == Document("Une phrase ; une autre.", "", tei=False)
    with pytest.raises(HtmlText):  # XML that is not TEI stays refused as a page
        document_of("page.xml", b"<?xml version='1.0'?><error>No, sorry.</error>")
    broken = data.replace(b"<body>", b"<div>").replace(b"</body>", b"</div>")
    with pytest.raises(TextRefused, match=r"^broken.xml: no <body> in <text>"):
        document_of("broken.xml", broken)


@pytest.fixture(scope="module")
def french_rules():
    return ExtractionLanguage("fr", "quote").rules()


@pytest.fixture(scope="module")
def french_bundle(tmp_path_factory, french_rules):
    """A bundle built on French texts extracted with the dialogue dash, in three styles."""
    from punctstyle.book.steps import clean_and_extract
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    extractor = ChunkCachedExtractor(rules=french_rules)
    styles = [
        "— Oui, dit-il ; puis il sortit. ",
        "Elle pensa (sans rien dire), et partit. ",
        "« Quoi ? » cria-t-elle ! Personne… ",
    ]
    rng = np.random.default_rng(5)
    books = []
    for book_id in range(1, 16):
        style = styles[book_id % 3]
        text = "\n".join(style * int(rng.integers(1, 4)) for _ in range(40))
        books.append((book_id, f"Auteur {book_id % 3}", clean_and_extract(text, extractor)[0]))
    folder = tmp_path_factory.mktemp("french")
    tables, paths = corpus_files(folder, books)
    bundle = folder / "attribution"
    defaults = schema_defaults()
    mlp = {**defaults["recognition"]["mlp"], "hidden_units": 8, "max_epochs": 10, "patience": 3}
    manifest = build_attribution_bundle(
        tables, paths, {key: bundle / name for key, name in bundles.BUNDLE_FILES.items()},
        settings=bundles.AttributionSettings.from_config({**defaults["attribution"], "mark_grid": [20, 40]}),
        classifier_options={"mlp": {"params": mlp, "device": "cpu", "num_threads": 1}},
        extraction=ExtractionLanguage("fr", "quote"),
    )
    return bundle, manifest


def test_the_manifest_records_the_language_and_the_commands_read_it(french_bundle):
    bundle, manifest = french_bundle
    assert manifest["extraction"] == {"language": "fr", "dialogue_dash": "quote"}
    assert bundle_language(bundles.load_attribution_bundle(bundle)) == ExtractionLanguage("fr", "quote")
    assert folder_language(bundle) == ExtractionLanguage("fr", "quote")
    assert folder_language(bundle / "missing") == ExtractionLanguage()


def test_the_language_decides_the_sequence(french_rules):
    document = Document("\n".join(FRENCH), "fr", tei=True)
    quote, _, warning = document_sequence(document, ExtractionLanguage("fr", "quote"), None, "t")
    assert marks(quote) == '" ? . " " , ( ) .' and quote.gaps.tolist() == [0, 4, 2, 0, 1, 0, 3, 3, 0]
    assert warning is None
    none, _, _ = document_sequence(document, ExtractionLanguage("fr", "quote"), "fr", "t")
    assert marks(none) == '" ? . " " , ( ) .'  # --language keeps the bundle's dash
    english, _, warning = document_sequence(document, ExtractionLanguage(), None, "t")
    assert marks(english) == "? . , ( ) ." and warning.startswith("t: the TEI header says language 'fr'")


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def old_bundle(bundle, folder):
    """A copy of ``bundle`` whose manifest has no ``extraction`` field (an older punctstyle's)."""
    copy = folder / "old"
    shutil.copytree(bundle, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    del manifest["extraction"]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def test_attribute_reads_a_tei_file_with_the_bundles_language(capsys, tmp_path, french_bundle):
    bundle, _ = french_bundle
    french = tmp_path / "roman.xml"
    french.write_bytes(tei_document(FRENCH * PAIRS, language="fr"))
    status, out, err = run(capsys, "attribute", str(french), "--model", str(bundle), "--json")
    assert status == 0 and err == "" and json.loads(out)["n_marks"] == 9 * PAIRS
    old = old_bundle(bundle, tmp_path)
    status, out, err = run(capsys, "attribute", str(french), "--model", str(old), "--json")
    assert status == 0 and json.loads(out)["n_marks"] == 6 * PAIRS  # English rules
    assert err == (f"punctstyle: warning: {french}: the TEI header says language 'fr', the bundle was built on "
                   "'en' texts; extracted with the 'en' rules\n")
    status, out, _ = run(capsys, "attribute", str(french), "--model", str(old), "--json", "--language", "fr")
    assert status == 0 and json.loads(out)["n_marks"] == 8 * PAIRS  # French rules, the old bundle's dash: none
    german = tmp_path / "roman-de.xml"
    german.write_bytes(tei_document(GERMAN * PAIRS, language="de"))
    status, out, err = run(capsys, "attribute", str(german), "--model", str(bundle), "--json")
    assert status == 0 and json.loads(out)["n_marks"] == 10 * PAIRS
    assert err == (f"punctstyle: warning: {german}: the TEI header says language 'de', the bundle was built on "
                   "'fr' texts; extracted with the 'fr' rules\n")
    status, out, err = run(capsys, "attribute", str(german), "--model", str(bundle), "--language", "zz")
    assert status == 2 and out == ""
    assert err.startswith(f"punctstyle: error: {german}: language 'zz': spaCy has no blank tokenizer") and err.count("\n") == 1


def test_rolling_reads_the_bundles_language_in_the_api_and_the_cli(capsys, tmp_path, french_bundle):
    bundle, _ = french_bundle
    text = "\n".join(FRENCH * PAIRS)  # a plain text: no header, no warning
    result = api.rolling(text, bundle, window=30, step=30, method="punctuation")
    assert result.n_marks == 9 * PAIRS and result.starts.tolist() == [0, 30, 60]
    with pytest.warns(UserWarning, match="the TEI header says language 'de', the bundle was built on 'fr'"):
        api.rolling(tei_document(GERMAN * PAIRS, language="de").decode("utf-8"), bundle, window=30, step=30,
                    method="punctuation")
    path = tmp_path / "plain.txt"
    path.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "rolling", str(path), "--model", str(bundle), "--window", "30", "--step", "30",
                           "--json", "--language", "en")
    assert status == 0 and err == "" and json.loads(out)["n_marks"] == 7 * PAIRS  # English rules, the dash kept


def test_verify_reads_the_language_of_the_manifest_beside_the_verification_files(capsys, tmp_path, french_bundle,
                                                                                 french_rules):
    from punctstyle.book.steps import clean_and_extract
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    bundle, _ = french_bundle
    folder = tmp_path / "verify"
    folder.mkdir()
    shutil.copy(bundle / "manifest.json", folder / "manifest.json")
    extractor = ChunkCachedExtractor(rules=french_rules)
    texts = {"Lucie": "\n".join(FRENCH * 12), "Anna": "\n".join(GERMAN * 12)}
    sequences = [(author, clean_and_extract("\n".join([text] * k), extractor)[0])
                 for author, text in texts.items() for k in (1, 2)]
    rows = [(author, compute_features(s.marks, s.gaps)) for author, s in sequences]
    reference = pd.concat([pd.DataFrame({"book_id": np.arange(4), "author": [a for a, _ in rows]}),
                           pd.DataFrame(np.vstack([f["f3"] for _, f in rows]), columns=feature_column_names("f3"))],
                          axis=1)
    settings = VerificationSettings.from_config({
        "families": ["f3"], "bundle_family": "f3", "top_words": 0, "lengths": [40], "seeds": [0],
        "test_fraction": 0.3, "n_different": 1, "max_texts": None, "iterations": 20, "feature_share": 0.5,
        "imposter_share": 0.5, "band_step": 0.01, "min_marks": 10,
    })
    write_verification_files({"record": folder / "verification.json", "reference": folder / "verification_reference.parquet"},
                             reference, [], {"f3": {"whole": Band(0.3, 0.7, 1.0)}},
                             pd.DataFrame(columns=list(RESULT_COLUMNS)), settings, 100.0)
    path = tmp_path / "roman.xml"
    path.write_bytes(tei_document(FRENCH * PAIRS, language="fr"))
    status, out, err = run(capsys, "verify", str(path), "--author", "Lucie", "--model", str(folder), "--json")
    assert status == 0 and err == "" and json.loads(out)["n_marks"] == 9 * PAIRS
    assert api.verify(path.read_text(encoding="utf-8"), "Lucie", folder).n_marks == 9 * PAIRS
    (folder / "manifest.json").unlink()  # verification files alone: English
    status, out, err = run(capsys, "verify", str(path), "--author", "Lucie", "--model", str(folder), "--json")
    assert status == 0 and json.loads(out)["n_marks"] == 6 * PAIRS and "built on 'en' texts" in err


@pytest.mark.parametrize("overrides, expected", [
    ({}, ("en", "none")),
    ({"language": "fra", "extraction": {"dialogue_dash": "quote"}}, ("fr", "quote")),
])
def test_rule_attribution_model_hands_the_runs_language_to_the_manifest(tmp_path, overrides, expected):
    """The parsed rule's params (as Snakemake parses the Snakefile, no job runs) are what the job
    records (:func:`punctstyle.attribution.bundle_build.attribution_model_job`)."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings

    from tests.conftest import REPO

    config_file = tmp_path / "run.yaml"
    config_file.write_text(json.dumps({"outdir": str(tmp_path / "results"), **overrides}), encoding="utf-8")
    with SnakemakeApi(OutputSettings()) as snakemake_api:
        workflow = snakemake_api.workflow(
            resource_settings=ResourceSettings(),
            config_settings=ConfigSettings(configfiles=[REPO / "config/test.yaml", config_file]),
            snakefile=REPO / "Snakefile", workdir=REPO)
        rule = next(r for r in workflow._workflow.rules if r.name == "attribution_model")
        params = rule.params
    assert ExtractionLanguage.of(params.language, params.dialogue_dash) == ExtractionLanguage(*expected)
