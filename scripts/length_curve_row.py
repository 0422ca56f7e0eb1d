"""Rule length_curve_row: accuracy against the excerpt length for one (class size, seed) row of
the author task (the sample and split of Tables 2-3), every configured method and training mode."""

import numpy as np
import pandas as pd

from punctstyle.attribution_bundle import SequenceFiles, sequence_paths_for_books
from punctstyle.featuresets import matrices_from_tables
from punctstyle.io import atomic_open
from punctstyle.length_curve import EXCERPT_COLUMNS, RESULT_COLUMNS, Document, length_curve_row
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
params, wildcards, output = snakemake.params, snakemake.wildcards, snakemake.output
seed, requested = int(wildcards.seed), int(wildcards.classes)
# labels and ids in the corpus tables' order, exactly as the recognition rule reads them
_, labels, book_ids = matrices_from_tables({"f1": pd.read_parquet(snakemake.input.table)}, "author")
n_available = int(np.unique(labels).size)
results = pd.DataFrame(columns=RESULT_COLUMNS)
excerpts = pd.DataFrame(columns=EXCERPT_COLUMNS)
if n_available < 2:
    log.warning("skipped: the corpus has %d author(s), at least 2 are needed", n_available)
else:
    files = SequenceFiles(sequence_paths_for_books(snakemake.input.sequences, book_ids.tolist()))

    def document(i):
        marks, gaps = files[i]
        return Document(int(book_ids[i]), marks, gaps)

    # the device decides where the network runs, not what it computes: read at run time, not a param
    device = snakemake.config["recognition"]["mlp"]["device"]
    options = {"mlp": {"params": params.mlp, "device": device, "num_threads": snakemake.threads}}
    row = length_curve_row(
        document,
        labels,
        task="author",
        n_classes=min(requested, n_available),
        seed=seed,
        test_fraction=params.test_fraction,
        lengths=params.lengths,
        methods=params.methods,
        training=params.training,
        short_documents=params.short_documents,
        classifier_options=options,
    )
    results, excerpts = row.results, row.excerpts
    log.info("length curve, %d authors, seed %d:\n%s", min(requested, n_available), seed, results.to_string())
for frame, path in ((results, output.results), (excerpts, output.excerpts)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
