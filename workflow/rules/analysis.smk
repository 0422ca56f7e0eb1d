# Sections 3-4: consistency (KL divergence) and recognition (KL nearest class, MLP).


rule consistency:
    # one job per task, every feature in it (issue 37: a job's start-up and imports cost more
    # than one feature's consistency); a changed feature table reruns the task's features
    input:
        plan_paper.consistency_inputs(config),
    output:
        table=plan_paper.consistency_files(config, ".csv"),
        summary=plan_paper.consistency_files(config, ".json"),
        values=plan_paper.consistency_files(config, "_kl.npz"),
        heatmaps=plan_paper.consistency_files(config, "_top.npz"),
    log:
        log_path("consistency/{task}"),
    benchmark:
        out("benchmarks/consistency/{task}.tsv")
    priority: rule_priority("consistency")
    conda:
        "../../envs/analysis.yaml"
    # 1, not 2: on 2 cores the greedy scheduler starts a 2-thread job only when no 1-thread job
    # is ready, so the paper's consistency ran last of the default run (issue 26 item 6)
    threads: 1
    resources:
        mem_mb=8000,
    params:
        features=plan_paper.consistency_features(config),
        baseline_pairs=config["consistency"]["baseline_pairs"],
        seed=config["consistency"]["seed"],
        top_k=config["consistency"]["top_k"],
    script:
        "../../scripts/consistency.py"


rule consistency_summary:
    input:
        lambda wildcards: plan_paper.consistency_summary_inputs(PLAN, corpus_counts()),
    output:
        out("analysis/consistency/summary.csv"),
    log:
        log_path("consistency/summary"),
    priority: rule_priority("consistency_summary")
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/consistency_summary.py"


rule recognition:
    input:
        # the feature tables, and the word matrix when the task runs the word baselines
        unpack(lambda wildcards: plan_paper.recognition_inputs(PLAN, wildcards.task)),
    output:
        results=out(
            "analysis/recognition/{task}/{classes}_classes/seed{seed}_results.csv"
        ),
        confusion=out(
            "analysis/recognition/{task}/{classes}_classes/seed{seed}_confusion.parquet"
        ),
        per_class=out(
            "analysis/recognition/{task}/{classes}_classes/seed{seed}_per_class.csv"
        ),
        words=out("analysis/recognition/{task}/{classes}_classes/seed{seed}_words.csv"),
        models=directory(out("models/{task}/{classes}_classes/seed{seed}")),
        # the fits later analyses read (punctstyle.experiments.fit_store; which ones is read
        # from the config by the script, not a param: switching an analysis on reruns no row)
        fitted=out("models/{task}/{classes}_classes/seed{seed}_fitted.npz"),
    log:
        log_path("recognition/{task}_{classes}_classes_seed{seed}"),
    benchmark:
        out("benchmarks/recognition/{task}_{classes}_classes_seed{seed}.tsv")
    wildcard_constraints:
        classes=r"\d+|all",
        seed=r"\d+",
    priority: rule_priority("recognition")
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        # classifiers: every configured classifier's hyper-parameters (recognition.<name>)
        **analysis_params(PLAN, "paper"),
        methods=plan_rows.recognition_methods(config),
        test_fraction=config["recognition"]["test_fraction"],
        # Burrows' Delta's variant (its options come from the config: a change reruns the rows)
        delta=config["recognition"]["delta"],
        # a size capped to every class is the "all" row: computed there, once
        all_configured=plan_paper.all_configured(config),
        # the word baselines of the row: classifier -> word sets, {} when off for the task
        word_methods=lambda wildcards: plan_paper.recognition_word_methods(
            PLAN, wildcards.task
        ),
        word_classifiers=lambda wildcards: plan_paper.recognition_word_classifier_params(
            PLAN, wildcards.task
        ),
    script:
        "../../scripts/recognition.py"


# Word baselines beside Tables 2-3 (issue 12): the corpus documents' exact counts of a pool of words
# (each document's most frequent ones, punctstyle.corpus.words; the words files are read twice;
# excerpts cut from their texts' word streams by the sequences' gaps), then per task the tables of
# the word rows.
rule corpus_words:
    input:
        corpus=out("corpus/f1.parquet"),
        words=lambda wildcards: plan_corpus.per_book(
            config, "words/{book_id}.parquet", selected_book_ids()
        ),
        sequences=lambda wildcards: plan_corpus.excerpt_sequences(
            config, selected_book_ids()
        ),
    output:
        out("corpus/words.npz"),
    log:
        log_path("corpus_words"),
    benchmark:
        out("benchmarks/corpus_words.tsv")
    conda:
        "../../envs/analysis.yaml"
    resources:
        mem_mb=4000,
    params:
        pool_per_book=config["recognition"]["words"]["pool_per_book"],
    script:
        "../../scripts/recognition_words_matrix.py"


rule recognition_word_tables:
    input:
        lambda wildcards: plan_paper.corpus_row_files(
            config, wildcards.task, "words.csv", corpus_counts()
        ),
    output:
        results=out("analysis/recognition/{task}_words_results.csv"),
        summary=out("analysis/recognition/{task}_words_summary.csv"),
        markdown=out("analysis/recognition/{task}_words.md"),
        html=report(
            out("tables/recognition_words_{task}.html"),
            caption="../report/recognition_words.rst",
            category="Beyond the paper",
            subcategory="Word baselines",
        ),
    log:
        log_path("recognition/{task}_word_tables"),
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/recognition_word_tables.py"


rule recognition_tables:
    input:
        lambda wildcards: plan_paper.corpus_row_files(
            config, wildcards.task, "results.csv", corpus_counts()
        ),
    output:
        results=out("analysis/recognition/{task}_results.csv"),
        summary=out("analysis/recognition/{task}_summary.csv"),
        markdown=out("analysis/recognition/{task}_tables.md"),
    log:
        log_path("recognition/{task}_tables"),
    priority: rule_priority("recognition_tables")
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/recognition_tables.py"


# Analyses the corpus cannot feed (no genre column, no dates, fewer than two genres, time slots
# or genders, too few
# authors or texts for an analysis: punctstyle.plan.shapes), with
# their cause: shown in the report and printed at the end of the run (Snakefile onsuccess).
rule skipped_analyses:
    input:
        summary=out("corpus/summary.json"),
    output:
        csv=out("analysis/skipped_analyses.csv"),
        html=report(
            out("tables/skipped_analyses.html"),
            caption="../report/skipped_analyses.rst",
            category="Configuration",
            subcategory="Skipped analyses",
        ),
    log:
        log_path("skipped_analyses"),
    conda:
        "../../envs/analysis.yaml"
    params:
        planned=plan_tasks.planned_skips(PLAN),
        genre_configured=plan_tasks.genre_analysis_configured(PLAN),
        genre_min_docs=config["genres"]["min_docs"],
        # time_slot, gender (config metadata_tasks): skipped without the column or two classes
        metadata_tasks=plan_rows.metadata_tasks(config),
        shapes=plan_shapes.shape_settings(config),
    script:
        "../../scripts/skipped_analyses.py"
