# Issue 25, beyond the paper: where punctuation beats words. Across genres and forms, through
# translators, and the discrete Weibull shape of the word gaps (config cross.*; planning in
# punctstyle.plan.cross; targets, params and inputs: punctstyle.plan.analyses "cross").
from punctstyle.plan.rule_support import PAPER_FEATURES
from punctstyle.plan import cross as plan_cross


rule cross_analyses:
    input:
        unpack(lambda wildcards: analysis_inputs(PLAN, "cross", selected_book_ids)),
        table=out("corpus/f1.parquet"),
        tables=expand(out("corpus/{feature}.parquet"), feature=PAPER_FEATURES),
        selection=out("corpus/selection.parquet"),
        words=out("corpus/words.npz"),
        catalog=out("catalog/pg_catalog.csv"),
        sequences=attribution_sequences,
    output:
        **plan_cross.cross_analysis_files(config),
    log:
        log_path("beyond/cross_analyses"),
    benchmark:
        out("benchmarks/beyond/cross_analyses.tsv")
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        **analysis_params(PLAN, "cross"),
        cross=config["cross"],
        min_docs_per_author=config["selection"]["min_docs_per_author"],
    script:
        "../../scripts/cross_analyses.py"


rule figures_cross:
    input:
        **plan_cross.cross_analysis_files(config),
    output:
        cross_domain=FLAGS.beyond(
            "beyond/cross_domain", "cross_domain", "Where punctuation beats words"
        ),
        cross_domain_pdf=pdf("beyond/cross_domain"),
        gap_weibull_fit=FLAGS.beyond(
            "beyond/gap_weibull_fit",
            "gap_weibull_fit",
            "Where punctuation beats words",
        ),
        gap_weibull_fit_pdf=pdf("beyond/gap_weibull_fit"),
        gap_weibull_plane=FLAGS.beyond(
            "beyond/gap_weibull_plane",
            "gap_weibull_plane",
            "Where punctuation beats words",
        ),
        gap_weibull_plane_pdf=pdf("beyond/gap_weibull_plane"),
        translators=FLAGS.beyond(
            "beyond/translators", "translators", "Where punctuation beats words"
        ),
        translators_pdf=pdf("beyond/translators"),
        table=report(
            out("tables/beyond_cross.html"),
            caption=caption("cross_table"),
            category=Section.BEYOND,
            subcategory="Where punctuation beats words",
        ),
    log:
        log_path("figures/beyond_cross"),
    benchmark:
        out("benchmarks/beyond/figures_cross.tsv")
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "../../scripts/figures_cross.py"
