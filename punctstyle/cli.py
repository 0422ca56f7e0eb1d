"""The ``punctstyle`` command line: marks, features and author attribution of one text.

Usage::

    punctstyle extract FILE          # {"marks": [",", "...", ...], "gaps": [3, 0, ...]}
    punctstyle features FILE         # {"f1": [...], ..., "f6": [...]}
    punctstyle attribute FILE [--model DIR] [--top 5] [--json]

FILE is a plain text (UTF-8, else Latin-1); ``-`` reads standard input. A Project Gutenberg
header and licence footer are stripped when present, then the text is cleaned as in the
workflow (:func:`punctstyle.clean.clean_text`) before extraction. Bad input (a missing or
unreadable file, a missing model folder) prints one line on standard error naming the file
and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from punctstyle import __version__
from punctstyle.io import InputError

DEFAULT_MODEL_DIR = os.path.join("results", "models", "attribution")
EXIT_OK = 0
EXIT_INPUT_ERROR = 2


# --------------------------------------------------------------------------- input


def read_text(path: str) -> str:
    """The text of ``path`` (``-``: standard input), UTF-8 (BOM stripped) else Latin-1.

    Raises :class:`InputError` with a one-line message naming the file.
    """
    from punctstyle.download import decode_text

    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a text file") from None
    except PermissionError:
        raise InputError(f"{name}: cannot read the file (permission denied)") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    text, _ = decode_text(data)
    if "\x00" in text:
        raise InputError(f"{name}: not a plain text file (binary content, NUL bytes)")
    return text


def sequence_of_text(text: str) -> Any:
    """Clean a text (Gutenberg header/footer, the paper's repairs) and extract its marks."""
    from punctstyle.clean import clean_text
    from punctstyle.extract import extract

    return extract(clean_text(text))


def sequence_of_file(path: str) -> Any:
    return sequence_of_text(read_text(path))


# --------------------------------------------------------------------------- output


def _finite(value: Any) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def extraction_json(sequence: Any) -> dict[str, list]:
    """``{"marks": [mark strings], "gaps": [ints]}``."""
    from punctstyle.marks import MARKS

    return {
        "marks": [MARKS[int(code)] for code in sequence.marks],
        "gaps": [int(gap) for gap in sequence.gaps],
    }


def features_json(sequence: Any) -> dict[str, list[float]]:
    """``{"f1": [...], ..., "f6": [...]}`` (flattened row-major as in the corpus tables)."""
    from punctstyle.features import compute_features

    features = compute_features(sequence.marks, sequence.gaps)
    return {name: [float(v) for v in values] for name, values in features.items()}


def attribution_json(
    name: str, sequence: Any, ranking: Any, bundle: Any, warning: str | None
) -> dict[str, Any]:
    """The ``--json`` output of ``attribute``."""
    kl_columns = [c for c in ranking.columns if c.startswith("kl_")]
    authors = []
    for row in ranking.itertuples(index=False):
        values = row._asdict()
        entry = {"rank": int(values["rank"]), "author": str(values["author"])}
        entry["probability"] = _finite(values["probability"])
        entry.update({column: _finite(values[column]) for column in kl_columns})
        authors.append(entry)
    return {
        "file": name,
        "n_marks": len(sequence),
        "n_words": int(sequence.n_words),
        "min_marks": bundle.min_marks,
        "warning": warning,
        "model": bundle.directory,
        "feature_set": list(bundle.model.feature_set),
        "kl_features": list(bundle.kl_features),
        "n_authors": int(len(bundle.model.classes)),
        "authors": authors,
    }


def _cell(value: Any, digits: int) -> str:
    value = _finite(value)
    return "n/a" if value is None else f"{value:.{digits}f}"


def attribution_table(name: str, sequence: Any, ranking: Any, bundle: Any) -> str:
    """The aligned text table of ``attribute``: rank, author, probability, KL distances."""
    kl_columns = [c for c in ranking.columns if c.startswith("kl_")]
    headers = ["rank", "author", "P(author)"] + [f"KL {c[3:]}" for c in kl_columns]
    rows = [
        [str(int(r["rank"])), str(r["author"]), _cell(r["probability"], 3)]
        + [_cell(r[c], 4) for c in kl_columns]
        for _, r in ranking.iterrows()
    ]
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [cells[0].rjust(widths[0]), cells[1].ljust(widths[1])]
        parts += [c.rjust(w) for c, w in zip(cells[2:], widths[2:])]
        return "  ".join(parts).rstrip()

    title = (
        f"{name}: {len(sequence)} marks, {sequence.n_words} words; "
        f"{len(bundle.model.classes)} authors in the model ({bundle.directory})"
    )
    legend = (
        "P(author): MLP probability on features "
        + "+".join(bundle.model.feature_set)
        + "; KL: divergence from the author's signature to the text (smaller is closer)"
    )
    body = [line(headers), line(["-" * w for w in widths])] + [line(row) for row in rows]
    return "\n".join([title, *body, legend]) + "\n"


# --------------------------------------------------------------------------- commands


def cmd_extract(args: argparse.Namespace) -> int:
    _print_json(extraction_json(sequence_of_file(args.file)))
    return EXIT_OK


def cmd_features(args: argparse.Namespace) -> int:
    _print_json(features_json(sequence_of_file(args.file)))
    return EXIT_OK


def cmd_attribute(args: argparse.Namespace) -> int:
    from punctstyle.attribute import load_attribution_bundle
    from punctstyle.features import compute_features

    name = "<stdin>" if args.file == "-" else args.file
    text = read_text(args.file)
    bundle = load_attribution_bundle(args.model)
    sequence = sequence_of_text(text)
    ranking = bundle.rank(compute_features(sequence.marks, sequence.gaps), top=args.top)
    warning = bundle.too_short(len(sequence))
    if warning:
        sys.stderr.write(f"punctstyle: {name}: {warning}\n")
    if args.json:
        _print_json(attribution_json(name, sequence, ranking, bundle, warning))
    else:
        sys.stdout.write(attribution_table(name, sequence, ranking, bundle))
    return EXIT_OK


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return number


FILE_HELP = "plain text file (UTF-8, else Latin-1; a Gutenberg header/footer is stripped); - reads stdin"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="punctstyle",
        description="Stylometry without words: punctuation sequences of a text (Darmon et al.).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    extract = commands.add_parser(
        "extract",
        help="print the punctuation marks and word gaps of a text as JSON",
        description='Print {"marks": [...], "gaps": [...]}: the marks of the text in order '
        '(! " ( ) , . : ; ? ...) and the number of words before each mark.',
    )
    extract.add_argument("file", metavar="FILE", help=FILE_HELP)
    extract.set_defaults(run=cmd_extract)

    features = commands.add_parser(
        "features",
        help="print the six punctuation features f1..f6 of a text as JSON",
        description='Print {"f1": [...], ..., "f6": [...]}: mark frequencies (10), transition '
        "matrix (100), joint transition matrix (100), sentence lengths (200), word gaps (40) "
        "and mean gaps between mark pairs (100), as in section 2.2 of the paper.",
    )
    features.add_argument("file", metavar="FILE", help=FILE_HELP)
    features.set_defaults(run=cmd_features)

    attribute = commands.add_parser(
        "attribute",
        help="who punctuates like this? rank the authors of the model for a text",
        description="Rank the authors of an attribution bundle (made by the workflow rule "
        "attribution_model) for a text: MLP probability and KL divergence of the text to each "
        "author's signature. A text with fewer marks than the bundle's threshold gets a "
        "warning (standard error, and the 'warning' field of --json).",
    )
    attribute.add_argument("file", metavar="FILE", help=FILE_HELP)
    attribute.add_argument(
        "--model",
        metavar="DIR",
        default=DEFAULT_MODEL_DIR,
        help=f"attribution bundle folder (default: {DEFAULT_MODEL_DIR})",
    )
    attribute.add_argument(
        "--top", metavar="N", type=_positive_int, default=5, help="number of authors shown (default: 5)"
    )
    attribute.add_argument("--json", action="store_true", help="print JSON instead of a table")
    attribute.set_defaults(run=cmd_attribute)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 2 on bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except InputError as exc:
        sys.stderr.write(f"punctstyle: error: {exc}\n")
        return EXIT_INPUT_ERROR
    except BrokenPipeError:  # e.g. `punctstyle extract book.txt | head`
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
