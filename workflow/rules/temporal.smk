# Section 5: punctuation versus the authors' middle years (and, optionally, publication years).
import os

from snakemake.exceptions import WorkflowError


def publication_years_csv():
    """The configured publication-year CSV (temporal.publication_years_csv), or None."""
    path = config["temporal"]["publication_years_csv"]
    if path and not os.path.isfile(path):
        raise WorkflowError(
            f"config temporal.publication_years_csv: {path} is not a file "
            "(a CSV with columns book_id, year; null to skip the per-author figure)"
        )
    return path or None


def temporal_inputs(wildcards):
    inputs = {
        "f1": out("corpus/f1.parquet"),
        "f5": out("corpus/f5.parquet"),
    }
    if publication_years_csv():
        inputs["years"] = publication_years_csv()
    return inputs


def temporal_outputs():
    return [
        out("analysis/temporal/summary.json"),
        out("analysis/temporal/f1_by_decade.csv"),
        out("analysis/temporal/rate_by_decade.csv"),
    ]


rule temporal:
    input:
        unpack(temporal_inputs),
    output:
        documents=out("analysis/temporal/dated_documents.csv"),
        dates=out("analysis/temporal/date_counts_by_decade.csv"),
        f1=out("analysis/temporal/f1_by_decade.csv"),
        rate=out("analysis/temporal/rate_by_decade.csv"),
        over_time=out("analysis/temporal/author_f1_over_time.csv"),
        summary=out("analysis/temporal/summary.json"),
    log:
        log_path("temporal"),
    conda:
        "../../envs/analysis.yaml"
    resources:
        mem_mb=4000,
    params:
        temporal=config["temporal"],
        publication_years_csv=publication_years_csv(),
    script:
        "../../scripts/temporal.py"
