# Input functions and targets of the verification rules (verification.smk).
from punctstyle.attribution.verification_run import (
    VerificationSettings,
    needs_word_streams,
    verification_config_error,
)

# bundle_family must be one of families: one line naming the keys (the schema cannot say it)
if config["verification"]["enabled"] and verification_config_error(
    config["verification"]
):
    raise WorkflowError(verification_config_error(config["verification"]))


def verification_enabled():
    return bool(config["verification"]["enabled"])


def verification_settings():
    """The verification block as the script reads it (every key; the schema's defaults)."""
    return {key: config["verification"][key] for key in VerificationSettings.KEYS}


def verification_word_inputs(wildcards):
    """The word families' inputs: the word matrix, and at excerpt lengths the selected books'
    texts, words files and the tokenizer rules file (each excerpt's words re-tokenized).
    """
    settings = VerificationSettings.from_config(verification_settings())
    if not settings.uses_words:
        return {}
    inputs = {"word_matrix": out("corpus/words.npz")}
    if needs_word_streams(settings):
        ids = selected_book_ids(wildcards)
        inputs["texts"] = expand(out("books/{book_id}.txt.gz"), book_id=ids)
        inputs["words"] = expand(out("words/{book_id}.parquet"), book_id=ids)
        inputs["rules"] = out(f"extraction/tokenizer_rules-spacy{SPACY_VERSION}.json")
    return inputs


def verification_outputs():
    """Files of the verification analysis (none when verification.enabled is false)."""
    if not verification_enabled():
        return []
    return [
        out("models/attribution/verification.json"),
        out("models/attribution/verification_reference.parquet"),
        out("analysis/verification/results.csv"),
        out("analysis/verification/summary.csv"),
        png("beyond/verification"),
        pdf("beyond/verification"),
        out("tables/beyond_verification.html"),
    ]
