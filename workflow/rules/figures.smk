# Every figure (PNG for the report, PDF for papers) and table of the paper, flagged for
# `snakemake --report`, grouped by the paper's sections. One job per figure family (per task
# where the caption depends on it; the feature is a label) keeps the DAG small and each job's
# start-up and imports paid once (issue 37). Targets
# (figure_outputs): punctstyle.plan.paper; report flags: punctstyle.plan.report.


# ------------------------------------------------------------------ section 2: the corpus


rule figures_corpus:
    input:
        f1=out("corpus/f1.parquet"),
        summary=out("corpus/summary.json"),
        exclusions=out("corpus/exclusions.csv"),
    output:
        documents_per_author=report(
            png("corpus/documents_per_author"),
            caption=caption("documents_per_author"),
            category=Section.DATA,
            subcategory="Data set",
        ),
        documents_per_author_pdf=pdf("corpus/documents_per_author"),
        f1_histograms=report(
            png("corpus/f1_histograms"),
            caption=caption("f1_histograms"),
            category=Section.DATA,
            subcategory="Punctuation-mark frequencies",
        ),
        f1_histograms_pdf=pdf("corpus/f1_histograms"),
        table=report(
            out("tables/corpus.html"),
            caption=caption("corpus_table"),
            category=Section.DATA,
            subcategory="Data set",
        ),
    log:
        log_path("figures/corpus"),
    conda:
        "../../envs/figures.yaml"
    resources:
        mem_mb=2000,
    script:
        "../../scripts/figures_corpus.py"


# ------------------------------------- sections 1-3: sequences, per-book features, scatter


rule figures_documents:
    input:
        f1=out("corpus/f1.parquet"),
        f5=out("corpus/f5.parquet"),
        sequences=lambda wildcards: plan_paper.sequence_figure_inputs(
            config, selected_book_ids()
        ),
    output:
        books=out("figures/documents/books.json"),
        sequence=FLAGS.document_figures(
            "sequence",
            n_sequence_books(config),
            "Punctuation sequences",
            section=Section.INTRO,
        ),
        sequence_pdf=FLAGS.document_pdfs("sequence", n_sequence_books(config)),
        f1_bars=FLAGS.document_figures(
            "f1_bars",
            n_sequence_books(config),
            "Per-document features",
            feature="f1",
        ),
        f1_bars_pdf=FLAGS.document_pdfs("f1_bars", n_sequence_books(config)),
        f5_bars=FLAGS.document_figures(
            "f5_bars",
            n_sequence_books(config),
            "Per-document features",
            feature="f5",
        ),
        f5_bars_pdf=FLAGS.document_pdfs("f5_bars", n_sequence_books(config)),
        scatter=FLAGS.document_figures(
            "scatter",
            n_scatter_pairs(config),
            "f1 scatter plots of pairs of books",
            section=Section.AUTHORS,
            pair=True,
        ),
        scatter_pdf=FLAGS.document_pdfs("scatter", n_scatter_pairs(config)),
    log:
        log_path("figures/documents"),
    conda:
        "../../envs/figures.yaml"
    resources:
        mem_mb=2000,
    params:
        sequence_books=config["figures"]["sequence_books"],
        sequence_length=config["figures"]["sequence_length"],
    script:
        "../../scripts/figures_documents.py"


rule figures_kl_heatmaps:
    # one job: every feature's heat maps (issue 37: one process per figure family)
    input:
        summaries=plan_paper.consistency_files(config, ".json", task="author"),
        heatmaps=plan_paper.consistency_files(config, "_top.npz", task="author"),
    output:
        heatmaps=FLAGS.heatmaps(
            plan_paper.consistency_features(config), config["consistency"]["top_k"]
        ),
        heatmaps_pdf=FLAGS.heatmap_pdfs(
            plan_paper.consistency_features(config), config["consistency"]["top_k"]
        ),
    log:
        log_path("figures/kl_heatmaps"),
    conda:
        "../../envs/figures.yaml"
    resources:
        mem_mb=3000,
    params:
        features=plan_paper.consistency_features(config),
        top_k=config["consistency"]["top_k"],
    script:
        "../../scripts/figures_kl_heatmaps.py"


rule figures_kl:
    # one job per task: every feature's consistency curve and KL distributions
    input:
        tables=plan_paper.consistency_files(config, ".csv"),
        summaries=plan_paper.consistency_files(config, ".json"),
        kl_values=plan_paper.consistency_files(config, "_kl.npz"),
    output:
        consistency=FLAGS.consistency_figures(
            "consistency", plan_paper.consistency_features(config)
        ),
        consistency_pdf=FLAGS.consistency_pdfs(
            "consistency", plan_paper.consistency_features(config)
        ),
        distribution=FLAGS.consistency_figures(
            "kl_distribution", plan_paper.consistency_features(config)
        ),
        distribution_pdf=FLAGS.consistency_pdfs(
            "kl_distribution", plan_paper.consistency_features(config)
        ),
    log:
        log_path("figures/kl_{task}"),
    priority: rule_priority("figures_kl")
    conda:
        "../../envs/figures.yaml"
    resources:
        mem_mb=3000,
    params:
        features=plan_paper.consistency_features(config),
    script:
        "../../scripts/figures_kl.py"


# ---------------------------------------- sections 3.2, 4.2: recognition (Tables 2-4)


rule figures_recognition:
    input:
        summary=out("analysis/recognition/{task}_summary.csv"),
    output:
        accuracy=report(
            png("recognition/accuracy_{task}"),
            caption=caption("accuracy"),
            category=task_section,
            subcategory="Recognition",
        ),
        accuracy_pdf=pdf("recognition/accuracy_{task}"),
        tables=report(
            out("tables/recognition_{task}.html"),
            caption=caption("recognition_tables"),
            category=task_section,
            subcategory="Recognition",
        ),
    log:
        log_path("figures/recognition_{task}"),
    priority: rule_priority("figures_recognition")
    conda:
        "../../envs/figures.yaml"
    resources:
        mem_mb=1000,
    params:
        # the configured sizes with no row (at or above the corpus' classes) are named
        class_sizes=config["recognition"]["class_sizes"],
    script:
        "../../scripts/figures_recognition.py"


rule figures_temporal:
    input:
        f1=out("corpus/f1.parquet"),
        dates=out("analysis/temporal/date_counts_by_decade.csv"),
        f1_by_decade=out("analysis/temporal/f1_by_decade.csv"),
        rate=out("analysis/temporal/rate_by_decade.csv"),
        over_time=out("analysis/temporal/author_f1_over_time.csv"),
        summary=out("analysis/temporal/summary.json"),
    output:
        **FLAGS.over_time(PLAN.publication_years_csv()),
        author_dates=FLAGS.temporal_figure("author_dates", "Author dates"),
        author_dates_pdf=pdf("temporal/author_dates"),
        f1_by_decade=FLAGS.temporal_figure("f1_by_decade", "Punctuation over time"),
        f1_by_decade_pdf=pdf("temporal/f1_by_decade"),
        f1_by_decade_panels=FLAGS.temporal_figure(
            "f1_by_decade_panels", "Punctuation over time"
        ),
        f1_by_decade_panels_pdf=pdf("temporal/f1_by_decade_panels"),
        rate=FLAGS.temporal_figure("rate_by_decade", "Punctuation over time"),
        rate_pdf=pdf("temporal/rate_by_decade"),
        table=report(
            out("tables/temporal.html"),
            caption=caption("temporal_table"),
            category=FLAGS.section("temporal"),
            subcategory="Tables",
        ),
    log:
        log_path("figures/temporal"),
    priority: rule_priority("figures_temporal")
    conda:
        "../../envs/figures.yaml"
    resources:
        mem_mb=2000,
    params:
        temporal=config["temporal"],
    script:
        "../../scripts/figures_temporal.py"


rule appendix_table:
    input:
        unpack(lambda wildcards: plan_paper.appendix_inputs(PLAN, wildcards.task)),
    output:
        csv=out("tables/appendix_{task}.csv"),
        markdown=out("tables/appendix_{task}.md"),
        html=report(
            out("tables/appendix_{task}.html"),
            caption=caption("appendix"),
            category=FLAGS.section("appendix"),
            subcategory=task_title,
        ),
    log:
        log_path("figures/appendix_{task}"),
    priority: rule_priority("appendix_table")
    conda:
        "../../envs/figures.yaml"
    params:
        feature=consistency_feature(config),
        # an appendix of genres is made only when the genre analysis runs
        recognised=lambda wildcards: wildcards.task
        in plan_tasks.configured_recognition_tasks(PLAN),
        seeds=config["recognition"]["seeds"],
        method="mlp",
        feature_set="all",
    script:
        "../../scripts/appendix_tables.py"


# ------------------------------------------------------------------ the configuration used


rule config_used:
    output:
        json=out("report/config_used.json"),
        html=report(
            out("report/config_used.html"),
            caption=caption("config"),
            category=Section.CONFIG,
            subcategory="Configuration used",
        ),
    log:
        log_path("figures/config_used"),
    conda:
        "../../envs/figures.yaml"
    params:
        # what decides the results: retries, threads or the device change nothing here
        config=without_execution_keys(config),
    script:
        "../../scripts/figures_config.py"
