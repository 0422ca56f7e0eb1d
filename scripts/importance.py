"""Rule f3_importance: the (class size, seed) rows of f3 importance -> mean and sd over seeds,
the top transitions and the top-k accuracies (author task)."""

from punctstyle.training.importance import importance_table, read_importance_rows, top_k_table, top_transitions
from punctstyle.io import atomic_open, write_json_atomic, write_text_atomic
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.render import markdown_table

log = configure_logging(snakemake.log[0])
output = snakemake.output
rows, reasons = read_importance_rows(snakemake.input)
record = {
    "status": "done" if rows else "skipped",
    # every skipped row's reason (all of them when no row ran; none on a corpus where each ran)
    "reason": "; ".join(reasons),
    "class_sizes": sorted({row.n_classes for row in rows}),
    "seeds": sorted({row.seed for row in rows}),
    "ranking": "permutation importance on a held-out part of the training split (never the test split)",
}
importance, top_k = importance_table(rows), top_k_table(rows)
for frame, path in ((importance, output.importance), (top_k, output.top_k)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
top = top_transitions(importance, 10)
text = markdown_table(top, {"importance": ".4f", "sd": ".4f"}) if len(top) else f"No rows: {record['reason']}\n"
write_text_atomic(output.top_transitions, text)
write_json_atomic(output.summary, record)
log.info("f3 importance: %s, class sizes %s\n%s", record["status"], record["class_sizes"], text)
log.info("%s", job_cost_line())
