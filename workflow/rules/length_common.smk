# Functions of length.smk (kept apart from the rules, as `snakemake --lint` asks): the targets
# (length_outputs()) and inputs of the length curve, author recognition accuracy against the
# length of the punctuation sequence (beyond the paper; config length_curve).
from punctstyle.beyond.length_features import uses_word_features


def length_enabled():
    return bool(config["length_curve"]["enabled"])


def length_methods():
    return plan_rows.length_methods(config)


def length_word_inputs(wildcards):
    """The word methods' inputs (feature sets with words<k>): the selected books' texts (each
    excerpt's words, re-tokenized on the tokenizer rules file) and words files (whole-book
    counts for the row's training vocabulary); none without a word method."""
    if not uses_word_features(length_methods()):
        return {}
    ids = selected_book_ids(wildcards)
    return {
        "texts": expand(out("books/{book_id}.txt.gz"), book_id=ids),
        "words": expand(out("words/{book_id}.parquet"), book_id=ids),
        "rules": out(f"extraction/tokenizer_rules-spacy{SPACY_VERSION}.json"),
    }


def length_mlp_params():
    return plan_rows.mlp_params(config, length_methods())


def length_row_files(name):
    return plan_targets.length_row_files(config, name)


def length_analysis_files():
    return plan_targets.length_analysis_files(config)


def length_outputs():
    """Files of the length curve when switched on (length_curve.enabled)."""
    if not length_enabled():
        return []
    return [
        *length_analysis_files().values(),
        png("beyond/length_curve"),
        pdf("beyond/length_curve"),
        out("tables/beyond_length_curve.html"),
    ]
