"""Rule cross_analyses (issue 25): across genres and forms, through translators, the shape of
the gaps (punctstyle.beyond.cross_report); every table written atomically."""

from pathlib import Path

from punctstyle.beyond import cross_report
from punctstyle.beyond.cross_domain import cross_domain_pair_table, cross_domain_summary
from punctstyle.io import atomic_path
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
inputs, output, params = snakemake.input, snakemake.output, snakemake.params
corpus_dir = Path(inputs.selection).parent


def write(name, frame):
    with atomic_path(output[name]) as tmp:
        frame.to_csv(tmp, index=False)


records = cross_report.run_cross_domain(
    corpus_dir=corpus_dir,
    cross=params.cross,
    methods=params.cross["genres"]["methods"],
    seeds=params.cross["seeds"],
    mlp_params=params.mlp,
    config=snakemake.config,
    threads=snakemake.threads,
)
write("cross_domain_records", records)
write("cross_domain_pairs", cross_domain_pair_table(records))
write("cross_domain_summary", cross_domain_summary(records))
write("group_sizes", cross_report.group_size_table(corpus_dir, params.cross))
log.info("across groups: %d records", len(records))

sequences = cross_report.sequence_paths(inputs.sequences)
fits = cross_report.run_gap_weibull(Path(inputs.table), sequences)
write("gap_weibull", fits)
write("gap_weibull_examples", cross_report.gap_examples(fits, sequences))
write("gap_weibull_era", cross_report.weibull_by_era(fits))
write("gap_weibull_consistency", cross_report.weibull_consistency(fits))
write("gap_weibull_recognition", cross_report.weibull_recognition(fits, corpus_dir, params.cross["seeds"]))
log.info("discrete Weibull fits: %d books, %d with a decreasing hazard", len(fits), int((fits["beta"] < 1).sum()))

tables = cross_report.run_translators(
    corpus_dir,
    Path(inputs.catalog),
    params.cross,
    params.cross["seeds"],
    min_docs_per_author=params.min_docs_per_author,
)
for name, frame in tables.items():
    write(f"translator_{name}", frame)
log.info("translators: %d translated corpus books", len(tables["books"]))
