# The parts of a book against the whole (beyond the paper, its open questions, section 5):
# whether a part of a book is representative of the whole. Targets (entry parts):
# punctstyle.plan.analyses; switch in config beyond.parts.enabled (the config key and the output
# folder analysis/beyond/ keep their names for existing configs and results folders).


rule book_parts:
    input:
        tables=plan_corpus.part_tables(config),
        sequences=attribution_sequences,
    output:
        **plan_targets.parts_analysis_files(config),
    log:
        log_path("beyond/book_parts"),
    benchmark:
        out("benchmarks/beyond/book_parts.tsv")
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        part_counts=config["beyond"]["parts"]["part_counts"],
        min_part_marks=config["beyond"]["parts"]["min_part_marks"],
        other_books=config["beyond"]["parts"]["other_books"],
        seed=config["beyond"]["parts"]["seed"],
    script:
        "../../scripts/parts.py"


rule figures_parts:
    input:
        **plan_targets.parts_analysis_files(config),
    output:
        distributions=FLAGS.beyond(
            "beyond/parts_kl", "parts_kl", "Is a part representative of the whole"
        ),
        distributions_pdf=pdf("beyond/parts_kl"),
        by_size=FLAGS.beyond(
            "beyond/parts_by_size",
            "parts_by_size",
            "Is a part representative of the whole",
        ),
        by_size_pdf=pdf("beyond/parts_by_size"),
        table=report(
            out("tables/beyond_parts.html"),
            caption=caption("parts_table"),
            category=Section.BEYOND,
            subcategory="Is a part representative of the whole",
        ),
    log:
        log_path("figures/beyond_parts"),
    benchmark:
        out("benchmarks/beyond/figures_parts.tsv")
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    script:
        "../../scripts/figures_parts.py"
