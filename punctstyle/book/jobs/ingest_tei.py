"""Rule ingest_document of a TEI corpus: the text of one TEI file -> ``books/{id}.txt.gz`` +
``books/{id}.json`` (:func:`punctstyle.sources.tei_job.read_tei_document`).

``python -m punctstyle.book.jobs.ingest_tei ID --document PATH --doc-id ID --file FILE
--parts [PART ...] --notes True|False --max-text-mb MB --text PATH --provenance PATH --log PATH``.
"""

from __future__ import annotations

import argparse
import sys

from punctstyle.book.jobs import book_parser, run_job, text_outputs


def parser() -> argparse.ArgumentParser:
    parser = book_parser("ingest_tei", __doc__.split("\n\n")[0])
    parser.add_argument("--document", required=True, help="the TEI file")
    parser.add_argument("--doc-id", required=True)
    parser.add_argument("--file", required=True, help="the file as the selection names it")
    parser.add_argument("--parts", nargs="*", default=[], help="tei.parts")
    parser.add_argument("--notes", choices=["True", "False"], required=True, help="tei.notes")
    text_outputs(parser)
    return parser


def ingest_tei(args: argparse.Namespace) -> None:
    """Read the file's text (the parts asked for), log the outcome, write its text and provenance."""
    from punctstyle.logs import configure_logging
    from punctstyle.sources.folder import write_document
    from punctstyle.sources.tei_job import read_tei_document

    log = configure_logging(args.log)
    document = read_tei_document(
        args.document,
        args.book_id,
        args.doc_id,
        parts=tuple(args.parts),
        notes=args.notes == "True",
        max_bytes=int(args.max_text_mb * 1024 * 1024),
    )
    log.info(
        "TEI text %d (%s): %s %s", args.book_id, args.doc_id, document.status, document.reason or len(document.text)
    )
    write_document(document, args.file, args.text, args.provenance, source="tei")


if __name__ == "__main__":
    run_job(parser, ingest_tei, sys.argv[1:])
