# Section 5: punctuation versus the authors' middle years (and, optionally, publication
# years). Targets and inputs: punctstyle.plan.analyses (temporal).


rule temporal:
    input:
        unpack(lambda wildcards: analysis_inputs(PLAN, "temporal", selected_book_ids)),
    output:
        documents=out("analysis/temporal/dated_documents.csv"),
        dates=out("analysis/temporal/date_counts_by_decade.csv"),
        f1=out("analysis/temporal/f1_by_decade.csv"),
        rate=out("analysis/temporal/rate_by_decade.csv"),
        over_time=out("analysis/temporal/author_f1_over_time.csv"),
        summary=out("analysis/temporal/summary.json"),
    log:
        log_path("temporal"),
    priority: rule_priority("temporal")
    conda:
        "../../envs/analysis.yaml"
    resources:
        mem_mb=4000,
    params:
        temporal=config["temporal"],
        publication_years_csv=PLAN.publication_years_csv(),
    script:
        "../../scripts/temporal.py"
