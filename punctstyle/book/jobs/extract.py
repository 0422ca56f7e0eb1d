"""Rule extract_book: a book's text -> its sequence, words and features files, in one pass
(:func:`punctstyle.book.steps.extract_book_files`).

``python -m punctstyle.book.jobs.extract ID --text PATH --provenance PATH --rules PATH
--sequence PATH --words PATH --features PATH --min-marks N --quotation double|any|none
--excerpt-marks N|None --log PATH``. The tokenizer's rules come from the run's rules file (rule
tokenizer_rules): no spaCy import, nor pandas nor torch.
"""

from __future__ import annotations

import argparse
import sys

from punctstyle.book.jobs import book_parser, optional_int, run_job


def parser() -> argparse.ArgumentParser:
    parser = book_parser("extract", __doc__.split("\n\n")[0])
    parser.add_argument("--text", required=True, help="books/{id}.txt.gz")
    parser.add_argument("--provenance", required=True, help="books/{id}.json")
    parser.add_argument("--rules", required=True, help="the run's tokenizer rules file")
    parser.add_argument("--sequence", required=True, help="sequences/{id}.parquet to write")
    parser.add_argument("--words", required=True, help="words/{id}.parquet to write")
    parser.add_argument("--features", required=True, help="features/{id}.parquet to write")
    parser.add_argument("--min-marks", type=int, required=True, help="extraction.min_marks")
    parser.add_argument("--quotation", required=True, help="extraction.require_quotation_marks")
    parser.add_argument("--excerpt-marks", type=optional_int, default=None, help="extraction.excerpt_marks")
    return parser


def extract(args: argparse.Namespace) -> None:
    """Extract the book, compute its features, write the three files, log two lines."""
    from punctstyle.job_threads import limit_numeric_threads

    limit_numeric_threads(1)  # before numpy is imported (Snakemake's shell sets them already)

    from punctstyle.book.inclusion import InclusionRule
    from punctstyle.book.steps import extract_book_files
    from punctstyle.io import discarding_unreadable
    from punctstyle.logs import configure_logging
    from punctstyle.text.chunk_cache import ChunkCachedExtractor
    from punctstyle.text.tokenizer import TokenizerRules

    log = configure_logging(args.log)
    rule = InclusionRule(min_marks=args.min_marks, require_quotation_marks=args.quotation)
    # no version check: the workflow names the rules file after the installed spaCy
    # (punctstyle.plan.corpus.tokenizer_rules_file) and a conda environment's change reruns its export
    # (Snakemake's software-env trigger); the check's importlib.metadata costs 0.03 CPU s a job
    extractor = ChunkCachedExtractor(rules=TokenizerRules.load(args.rules, check_version=False))
    # a corrupt text or provenance of the book: deleted, made again by the next run
    with discarding_unreadable([args.text, args.provenance]):
        sequence, row = extract_book_files(
            args.text,
            args.provenance,
            args.book_id,
            sequence_path=args.sequence,
            words_path=args.words,
            features_path=args.features,
            rule=rule,
            excerpt_marks=args.excerpt_marks,
            extractor=extractor,
        )
    excerpts = f" ({row['n_excerpts']} excerpts)" if "n_excerpts" in row else ""
    log.info("book %d: %d marks, %d words", args.book_id, len(sequence), sequence.n_words)
    log.info("book %d: %s %s%s", args.book_id, row["status"], row["reason"], excerpts)


if __name__ == "__main__":
    run_job(parser, extract, sys.argv[1:])
