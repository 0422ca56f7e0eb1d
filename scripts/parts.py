"""Rule book_parts: KL of each part of each corpus book to the rest of its book, its author's
other books and other authors' books."""

import numpy as np
import pandas as pd

from punctstyle.attribution_bundle import SequenceFiles, sequence_paths_for_books
from punctstyle.io import atomic_open, write_json_atomic
from punctstyle.logs import configure_logging
from punctstyle.parts import PART_COLUMNS, PART_FEATURES, SUMMARY_COLUMNS, References, parts_analysis, parts_summary

log = configure_logging(snakemake.log[0])
params, output = snakemake.params, snakemake.output
tables = {name: pd.read_parquet(path) for name, path in zip(PART_FEATURES, snakemake.input.tables, strict=True)}
references = References.from_tables(tables)
n_authors = int(np.unique(references.authors).size)
record = {"n_books": int(references.book_ids.size), "n_authors": n_authors, "part_counts": list(params.part_counts),
          "min_part_marks": params.min_part_marks, "other_books": params.other_books, "seed": params.seed,
          "own_author_reference": "mean feature vector of the author's other books",
          "other_books_reference": "mean KL to a seeded sample of other authors' books",
          "direction": "d(reference, part)"}
if n_authors < 2:
    record.update(status="skipped", reason=f"the corpus has {n_authors} author(s), at least 2 are needed")
    log.warning("book parts skipped: %s", record["reason"])
    rows, summary = pd.DataFrame(columns=PART_COLUMNS), pd.DataFrame(columns=SUMMARY_COLUMNS)
    skipped = pd.DataFrame(columns=["n_parts", "n_books", "n_skipped"])
else:
    sequences = SequenceFiles(sequence_paths_for_books(snakemake.input.sequences, references.book_ids.tolist()))
    rows, skipped = parts_analysis(sequences, references, part_counts=params.part_counts,
                                   min_part_marks=params.min_part_marks, n_other_books=params.other_books,
                                   seed=params.seed)
    summary = parts_summary(rows, skipped)
    record.update(status="done", reason="")
record["books_per_p"] = skipped.to_dict("records")
for frame, path in ((rows, output.parts), (summary, output.summary)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
write_json_atomic(output.info, record)
log.info("book parts: %s\n%s", record["status"], summary.to_string())
