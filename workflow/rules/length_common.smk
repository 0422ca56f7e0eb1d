# Functions of length.smk (kept apart from the rules, as `snakemake --lint` asks): the targets
# (length_outputs()) and inputs of the length curve, author recognition accuracy against the
# length of the punctuation sequence (beyond the paper; config length_curve).


def length_enabled():
    return bool(config["length_curve"]["enabled"])


def length_methods():
    """Classifier -> feature sets of the length curve, without those with no feature set, and
    without the word sets when the documents are excerpts (extraction.excerpt_marks: the word
    counts are those of whole texts; excerpt_skips() lists them as skipped)."""
    from punctstyle.length_curve import uses_word_features

    excerpts = config["extraction"]["excerpt_marks"] is not None
    methods = {
        name: [s for s in sets if not (excerpts and uses_word_features({name: [s]}))]
        for name, sets in config["length_curve"]["methods"].items()
    }
    return {name: sets for name, sets in methods.items() if sets}


def length_word_inputs(wildcards):
    """The word methods' inputs (feature sets with words<k>): the selected books' texts (each
    excerpt's words, re-tokenized on the tokenizer rules file) and words files (whole-book
    counts for the row's training vocabulary); none without a word method."""
    from punctstyle.length_curve import uses_word_features

    if not uses_word_features(length_methods()):
        return {}
    ids = selected_book_ids(wildcards)
    return {
        "texts": expand(out("books/{book_id}.txt.gz"), book_id=ids),
        "words": expand(out("words/{book_id}.parquet"), book_id=ids),
        "rules": out(f"extraction/tokenizer_rules-spacy{SPACY_VERSION}.json"),
    }


def length_mlp_params():
    """The recognition MLP settings that decide the results; none without an MLP."""
    if "mlp" not in length_methods():
        return {}
    return without_execution_keys(config)["recognition"]["mlp"]


def length_row_files(name):
    """One file per (class size, seed) row: name is results.csv or excerpts.csv."""
    return expand(
        out("analysis/length/author/{classes}_classes/seed{seed}_{name}"),
        classes=dict.fromkeys(config["length_curve"]["class_sizes"]),
        seed=config["recognition"]["seeds"],
        name=name,
    )


def length_analysis_files():
    return {
        "results": out("analysis/length/author_results.csv"),
        "summary": out("analysis/length/author_summary.csv"),
        "markdown": out("analysis/length/author_summary.md"),
    }


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
