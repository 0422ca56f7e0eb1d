"""The ``punctstyle`` command line: marks, features and author attribution of one text.

Usage::

    punctstyle extract FILE          # {"marks": [",", "...", ...], "gaps": [3, 0, ...]}
    punctstyle features FILE         # {"f1": [...], ..., "f6": [...]}
    punctstyle attribute FILE [--model DIR] [--top 5] [--json]

FILE is a plain text; ``-`` reads standard input. At most ``--max-mb``
megabytes are read (default: the workflow's ``mirror.max_text_mb``); a larger input is
refused. A Project Gutenberg header and licence footer are stripped when present, then the
text is cleaned as in the workflow (:func:`punctstyle.text.clean.clean_text`) before extraction.
FILE is decoded as a folder corpus decodes its documents (a UTF-8 or UTF-16 byte-order mark
decides, else UTF-8, else Latin-1). Bad input (a missing, unreadable, binary or too large
file, an HTML page, an empty or mark-less text to compute features of or to attribute, a
missing, unsafe or inconsistent model bundle) prints one line on standard error naming the
file and exits with status 2. ``extract`` prints the empty sequence
(``{"marks": [], "gaps": []}``) for an empty or mark-less text.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from punctstyle import __version__
from punctstyle.io import InputError
from punctstyle.sources.decoding import html_start
from punctstyle.sources.folder import decode_document
from punctstyle.book.steps import clean_and_extract
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.marks import MARKS
from punctstyle.features import compute_features
from punctstyle.settings import schema_default

DEFAULT_MODEL_DIR = os.path.join("results", "models", "attribution")
EXIT_OK = 0
EXIT_INPUT_ERROR = 2


# --------------------------------------------------------------------------- input


READ_CHUNK = 1024 * 1024
MEGABYTE = 1024 * 1024


def _read_bounded(handle: Any, name: str, max_bytes: int) -> bytearray:
    """At most ``max_bytes`` bytes of ``handle``, read in chunks; one more byte is refused."""
    data = bytearray()
    while len(data) <= max_bytes:
        chunk = handle.read(min(READ_CHUNK, max_bytes + 1 - len(data)))
        if not chunk:
            return data
        data += chunk
    raise InputError(
        f"{name}: larger than {max_bytes / MEGABYTE:.4g} MB, the most this command reads "
        "(raise it with --max-mb)"
    )


def read_text(path: str, max_bytes: int) -> str:
    """The text of ``path`` (``-``: standard input), decoded by :func:`decoded_text`.

    Reads at most ``max_bytes`` bytes (chunk by chunk, so a device such as ``/dev/zero``
    costs bounded memory). Raises :class:`InputError` with a one-line message naming the file.
    """
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = _read_bounded(sys.stdin.buffer, name, max_bytes)
        else:
            with open(path, "rb") as handle:
                data = _read_bounded(handle, name, max_bytes)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a text file") from None
    except PermissionError:
        raise InputError(f"{name}: cannot read the file (permission denied)") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    return decoded_text(name, bytes(data))


def decoded_text(name: str, data: bytes) -> str:
    """The text of a file's bytes, decoded as a folder corpus decodes its documents
    (:func:`punctstyle.sources.folder.decode_document`: a UTF-8 or UTF-16 byte-order mark
    decides, else UTF-8, else Latin-1). Refused with :class:`InputError`: an HTML or XML page
    (the download route's check, :func:`punctstyle.sources.decoding.html_start`) and binary content
    (NUL characters after decoding)."""

    if (tag := html_start(data)) is not None:
        raise InputError(f"{name}: an HTML page, not a text (starts with {tag})")
    text, _ = decode_document(data)
    if "\x00" in text:
        raise InputError(f"{name}: not a plain text file (binary content, NUL bytes)")
    return text


def sequence_of_text(text: str) -> Any:
    """Clean a text (Gutenberg header/footer, the paper's repairs) and extract its marks, piece
    by piece as the workflow's extraction does (bounded memory, same output as whole-text
    cleaning and extraction)."""

    return clean_and_extract(text, ChunkCachedExtractor())[0]


def sequence_of_file(path: str, max_bytes: int) -> Any:
    return sequence_of_text(read_text(path, max_bytes))


def max_read_bytes(args: argparse.Namespace) -> int:
    """``--max-mb`` in bytes."""
    return int(args.max_mb * MEGABYTE)


# --------------------------------------------------------------------------- output


def _finite(value: Any) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def extraction_json(sequence: Any) -> dict[str, list]:
    """``{"marks": [mark strings], "gaps": [ints]}``."""

    return {
        "marks": [MARKS[int(code)] for code in sequence.marks],
        "gaps": [int(gap) for gap in sequence.gaps],
    }


def features_json(sequence: Any) -> dict[str, list[float]]:
    """``{"f1": [...], ..., "f6": [...]}`` (flattened row-major as in the corpus tables)."""

    features = compute_features(sequence.marks, sequence.gaps)
    return {name: [float(v) for v in values] for name, values in features.items()}


def attribution_json(name: str, sequence: Any, ranking: Any, bundle: Any, verdict: Verdict) -> dict[str, Any]:
    """The ``--json`` output of ``attribute``.

    ``n_marks``: marks found; ``min_marks``: marks needed (None: the bundle could not
    estimate it); ``too_short`` and ``warning`` (None when long enough); ``disagreement``:
    None when the MLP's first author is the KL-nearest one, else both authors, the measured
    accuracies at the nearest measured length and the ``trusted`` method.
    """
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
        "too_short": verdict.warning is not None,
        "warning": verdict.warning,
        "disagreement": None if verdict.disagreement is None else verdict.disagreement.as_json(),
        "model": bundle.directory,
        "feature_set": list(bundle.model.feature_set),
        "kl_features": list(bundle.kl_features),
        "n_authors": int(len(bundle.model.classes)),
        "authors": authors,
    }


def _cell(value: Any, digits: int) -> str:
    value = _finite(value)
    return "n/a" if value is None else f"{value:.{digits}f}"


def _aligned(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Header, rule and rows: the first column right-aligned, the second left, the rest right."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [cells[0].rjust(widths[0]), cells[1].ljust(widths[1])]
        parts += [c.rjust(w) for c, w in zip(cells[2:], widths[2:], strict=True)]
        return "  ".join(parts).rstrip()

    return [line(headers), line(["-" * w for w in widths])] + [line(row) for row in rows]


def attribution_table(name: str, sequence: Any, ranking: Any, bundle: Any, verdict: Verdict) -> str:
    """The text output of ``attribute``: a title, the warning when the text is too short, the
    aligned table (rank, author, probability, KL divergences), the legend, and which method
    to trust when the MLP and KL disagree."""
    kl_columns = [c for c in ranking.columns if c.startswith("kl_")]
    headers = ["rank", "author", "P(author)"] + [f"KL {c[3:]}" for c in kl_columns]
    rows = [
        [str(int(r["rank"])), str(r["author"]), _cell(r["probability"], 3)]
        + [_cell(r[c], 4) for c in kl_columns]
        for _, r in ranking.iterrows()
    ]
    title = (
        f"{name}: {len(sequence)} marks, {sequence.n_words} words; "
        f"{len(bundle.model.classes)} authors in the model ({bundle.directory})"
    )
    legend = (
        "P(author): MLP probability on features "
        + "+".join(bundle.model.feature_set)
        + "; KL: divergence from the author's signature to the text (smaller is closer)"
    )
    lines = [title]
    if verdict.warning:
        lines.append(f"WARNING: {verdict.warning}")
    lines += [*_aligned(headers, rows), legend]
    if verdict.disagreement is not None:
        lines.append(f"Note: {verdict.disagreement.message()}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- commands


def cmd_extract(args: argparse.Namespace) -> int:
    _print_json(extraction_json(sequence_of_file(args.file, max_read_bytes(args))))
    return EXIT_OK


def cmd_features(args: argparse.Namespace) -> int:
    name = "<stdin>" if args.file == "-" else args.file
    text = read_text(args.file, max_read_bytes(args))
    _print_json(features_json(sequence_with_marks(name, text, purpose="compute features of")))
    return EXIT_OK


@dataclass(frozen=True)
class Verdict:
    """What ``attribute`` says beside the ranking: too short? which method to trust?"""

    warning: str | None
    disagreement: Any


def sequence_with_marks(name: str, text: str, purpose: str = "attribute") -> Any:
    """The marks of a text to attribute (or to compute features of); an empty or mark-less
    text raises :class:`InputError` ("nothing to <purpose>"). ``extract`` does not refuse:
    it prints the empty sequence."""
    if not text.strip():
        raise InputError(f"{name}: empty text, nothing to {purpose}")
    sequence = sequence_of_text(text)
    if len(sequence) == 0:
        raise InputError(f"{name}: no punctuation mark in the text, nothing to {purpose}")
    return sequence


def cmd_attribute(args: argparse.Namespace) -> int:
    from punctstyle.attribution.attribute import shown_authors  # lazy: loads torch
    from punctstyle.attribution.bundle import load_attribution_bundle  # lazy: loads torch

    name = "<stdin>" if args.file == "-" else args.file
    sequence = sequence_with_marks(name, read_text(args.file, max_read_bytes(args)))
    bundle = load_attribution_bundle(args.model)
    everyone = bundle.rank(compute_features(sequence.marks, sequence.gaps), top=None)
    verdict = Verdict(bundle.too_short(len(sequence)), bundle.disagreement(everyone, len(sequence)))
    if verdict.warning:
        sys.stderr.write(f"punctstyle: {name}: {verdict.warning}\n")
    ranking = shown_authors(everyone, args.top)
    if args.json:
        _print_json(attribution_json(name, sequence, ranking, bundle, verdict))
    else:
        sys.stdout.write(attribution_table(name, sequence, ranking, bundle, verdict))
    return EXIT_OK


def cmd_rolling(args: argparse.Namespace) -> int:
    """``punctstyle rolling``: the logic is :mod:`punctstyle.attribution.rolling`."""
    from punctstyle.attribution.bundle import load_attribution_bundle  # lazy: loads torch
    from punctstyle.attribution.rolling import default_window, roll_with_bundle, rolling_table

    name = "<stdin>" if args.file == "-" else args.file
    if args.figure and not args.figure.lower().endswith((".png", ".pdf", ".svg")):
        raise InputError(f"{args.figure}: figure file must end in .png, .pdf or .svg")
    sequence = sequence_with_marks(name, read_text(args.file, max_read_bytes(args)), purpose="roll over")
    bundle = load_attribution_bundle(args.model)
    window = args.window or default_window(bundle.threshold)
    if len(sequence) < window:
        raise InputError(f"{name}: {len(sequence)} marks, shorter than one window of {window} (lower --window)")
    result = roll_with_bundle(bundle, sequence.marks, sequence.gaps, window, args.step)
    if args.figure:
        from punctstyle.report.plots.rolling import rolling_figure, save_figure_as

        save_figure_as(rolling_figure(result, f"{name}: rolling attribution"), args.figure)
    if args.json:
        _print_json({"file": name, "model": bundle.directory, **result.as_json()})
    else:
        sys.stdout.write(rolling_table(name, result))
    return EXIT_OK


def _positive_number(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}") from None
    if not number > 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}")
    return number


def add_input_arguments(command: argparse.ArgumentParser) -> None:
    """FILE and ``--max-mb`` (default: the schema's ``mirror.max_text_mb``)."""

    default = float(schema_default("mirror", "max_text_mb"))
    command.add_argument("file", metavar="FILE", help=FILE_HELP)
    command.add_argument(
        "--max-mb",
        metavar="MB",
        type=_positive_number,
        default=default,
        help=f"read at most this many megabytes (MiB); a larger input is refused (default: {default:g}, "
        "the workflow's mirror.max_text_mb)",
    )


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
    add_input_arguments(extract)
    extract.set_defaults(run=cmd_extract)

    features = commands.add_parser(
        "features",
        help="print the punctuation features of a text as JSON (the paper's f1..f6, then f7)",
        description='Print {"f1": [...], ..., "f6": [...]}: mark frequencies (10), transition '
        "matrix (100), joint transition matrix (100), sentence lengths (200), word gaps (40) "
        "and mean gaps between mark pairs (100), as in section 2.2 of the paper.",
    )
    add_input_arguments(features)
    features.set_defaults(run=cmd_features)

    attribute = commands.add_parser(
        "attribute",
        help="who punctuates like this? rank the authors of the model for a text",
        description="Rank the authors of an attribution bundle (made by the workflow rule "
        "attribution_model) for a text: MLP probability and KL divergence of the text to each "
        "author's signature. An empty or mark-less text is refused. A text with fewer marks "
        "than the bundle's threshold gets a warning (in the table, in the 'warning' and 'too_short' "
        "fields of --json, and on standard error); when the MLP and KL disagree on the first author, "
        "the output says which one the bundle's measured accuracy per text length trusts at this length.",
    )
    add_input_arguments(attribute)
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

    rolling = commands.add_parser(
        "rolling",
        help="where does the hand change? attribute slices of a text along it",
        description="Cut the text into slices of --window marks every --step marks, score each "
        "slice against the bundle's authors with the method that is most accurate at that length "
        "(the bundle's measured curves: the MLP or KL nearest signature), and mark the change points "
        "(penalised least-squares segmentation of the slices' scores). A text shorter than one window is refused.",
    )
    add_input_arguments(rolling)
    rolling.add_argument("--model", metavar="DIR", default=DEFAULT_MODEL_DIR,
                         help=f"attribution bundle folder (default: {DEFAULT_MODEL_DIR})")
    rolling.add_argument("--window", metavar="N", type=_positive_int, default=None,
                         help="marks per slice (default: the bundle's minimum marks for attribution, else 800)")
    rolling.add_argument("--step", metavar="S", type=_positive_int, default=None,
                         help="marks between slice starts (default: a quarter of the window)")
    rolling.add_argument("--json", action="store_true", help="print JSON instead of a table")
    rolling.add_argument("--figure", metavar="PATH", default=None,
                         help="draw the scores along the text into PATH (.png, .pdf or .svg)")
    rolling.set_defaults(run=cmd_rolling)
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
