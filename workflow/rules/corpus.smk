# The corpus tables of the selected books (the selection's rules: gutenberg.smk or folder.smk).


# A checkpoint: whether the genre analysis runs depends on the genres the corpus holds
# (corpus/summary.json), read by the targets' input functions once this has run.
checkpoint corpus_tables:
    input:
        unpack(lambda wildcards: plan_corpus.corpus_table_extra_inputs(config)),
        selection=out("corpus/selection.parquet"),
        rows=lambda wildcards: plan_corpus.per_book(
            config, "features/{book_id}.parquet", selected_book_ids()
        ),
    output:
        tables=expand(out("corpus/{feature}.parquet"), feature=FEATURES),
        exclusions=out("corpus/exclusions.csv"),
        summary=out("corpus/summary.json"),
    log:
        log_path("corpus_tables"),
    benchmark:
        out("benchmarks/corpus_tables.tsv")
    conda:
        "../../envs/corpus.yaml"
    resources:
        mem_mb=4000,
    params:
        min_docs_per_author=config["selection"]["min_docs_per_author"],
        genre_shelves=plan_sources.corpus_genre_shelves(config),
        genre_min_docs=config["genres"]["min_docs"],
        genre_multi_shelf_rule=config["genres"]["multi_shelf_rule"],
        # checks that the feature rows are the excerpts (or whole texts) of this setting
        excerpt_marks=config["extraction"]["excerpt_marks"],
    script:
        "../../scripts/corpus_tables.py"
