if SOURCE == "folder":

    # A folder of your own texts: the metadata CSV is the catalog and its rows the selection
    # (no Gutenberg filters; min_docs_per_author applies). Bad rows are left out, one line each.
    checkpoint select_books:
        input:
            metadata=folder_metadata_path(),
        output:
            selection=out("corpus/selection.parquet"),
            filters=out("corpus/selection_filters.csv"),
            exclusions=out("corpus/metadata_exclusions.csv"),
            years=out("corpus/publication_years.csv"),
        log:
            log_path("select_books"),
        conda:
            "../../envs/corpus.yaml"
        params:
            # a function: the folder is not a file prefix of the outputs (lint)
            folder=lambda wildcards: config["folder"]["path"],
            min_docs_per_author=config["selection"]["min_docs_per_author"],
        script:
            "../../scripts/select_folder.py"

else:

    rule download_catalog:
        output:
            out("catalog/pg_catalog.csv"),
        log:
            log_path("download_catalog"),
        conda:
            "../../envs/corpus.yaml"
        params:
            # the catalog's host: catalog_base_url, or base_url when that is null
            base_url=config["mirror"]["catalog_base_url"]
            or config["mirror"]["base_url"],
            catalog_path=config["mirror"]["catalog_path"],
            catalog_file=config["mirror"]["catalog_file"],
        script:
            "../../scripts/download_catalog.py"

    checkpoint select_books:
        input:
            out("catalog/pg_catalog.csv"),
        output:
            selection=out("corpus/selection.parquet"),
            filters=out("corpus/selection_filters.csv"),
        log:
            log_path("select_books"),
        conda:
            "../../envs/corpus.yaml"
        params:
            # every key of the selection block decides the selection (see select_books)
            language=config["selection"]["language"],
            type=config["selection"]["type"],
            drop_authors=config["selection"]["drop_authors"],
            unique_titles=config["selection"]["unique_titles"],
            drop_title_words=config["selection"]["drop_title_words"],
            min_docs_per_author=config["selection"]["min_docs_per_author"],
            max_authors=config["selection"]["max_authors"],
            max_docs=config["selection"]["max_docs"],
            seed=config["selection"]["seed"],
        script:
            "../../scripts/select_books.py"


# A checkpoint: whether the genre analysis runs depends on the genres the corpus holds
# (corpus/summary.json), read by the targets' input functions once this has run.
checkpoint corpus_tables:
    input:
        unpack(corpus_table_extra_inputs),
        selection=out("corpus/selection.parquet"),
        rows=all_feature_rows,
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
        genre_shelves=corpus_genre_shelves(),
        genre_min_docs=config["genres"]["min_docs"],
        genre_multi_shelf_rule=config["genres"]["multi_shelf_rule"],
        # checks that the feature rows are the excerpts (or whole texts) of this setting
        excerpt_marks=config["extraction"]["excerpt_marks"],
    script:
        "../../scripts/corpus_tables.py"
