"""Rule ingest_document of a folder corpus: one file of the folder -> ``books/{id}.txt.gz`` +
``books/{id}.json`` (:func:`punctstyle.sources.folder.read_document`, ``write_document``).

``python -m punctstyle.book.jobs.ingest ID --document PATH --doc-id ID --file FILE
--max-text-mb MB --text PATH --provenance PATH --log PATH``.
"""

from __future__ import annotations

import argparse
import sys

from punctstyle.book.jobs import book_parser, run_job, text_outputs


def parser() -> argparse.ArgumentParser:
    parser = book_parser("ingest", __doc__.split("\n\n")[0])
    parser.add_argument("--document", required=True, help="the file")
    parser.add_argument("--doc-id", required=True)
    parser.add_argument("--file", required=True, help="the file as the metadata CSV names it")
    text_outputs(parser)
    return parser


def ingest(args: argparse.Namespace) -> None:
    """Read and decode the file, log the outcome, write its text and provenance."""
    from punctstyle.logs import configure_logging
    from punctstyle.sources.folder import read_document, write_document

    log = configure_logging(args.log)
    document = read_document(args.document, args.book_id, args.doc_id, max_bytes=int(args.max_text_mb * 1024 * 1024))
    log.info(
        "document %d (%s): %s %s", args.book_id, args.doc_id, document.status, document.reason or document.encoding
    )
    write_document(document, args.file, args.text, args.provenance)


if __name__ == "__main__":
    run_job(parser, ingest, sys.argv[1:])
