"""The ``punctstyle`` command line: marks, features and author attribution of one text.

Usage::

    punctstyle extract FILE          # {"marks": [",", "...", ...], "gaps": [3, 0, ...]}
    punctstyle features FILE         # {"f1": [...], ..., "f6": [...]}
    punctstyle attribute FILE [--model DIR] [--top 5] [--json]
    punctstyle verify FILE --author NAME [--model DIR] [--json]
    punctstyle rolling FILE [--model DIR] [--window N] [--step S] [--json] [--figure PATH]
    punctstyle app RESULTS_OR_BUNDLE [--port 8050] [--host 127.0.0.1]   # a local web page

The commands are thin layers over :mod:`punctstyle.api` (docs/api.md); each is one entry of
:data:`COMMANDS`.

FILE is a plain text; ``-`` reads standard input. ``attribute``, ``verify`` and ``rolling`` also
read a TEI file (its ``<body>`` without notes, as the TEI source reads it) and extract with the
language the bundle records (``--language`` overrides; :mod:`punctstyle.api.language`). At most ``--max-mb``
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
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from punctstyle import __version__
from punctstyle.api.attribution import attribution_json, attribution_table  # noqa: F401  (re-exported)
from punctstyle.api.text import (  # noqa: F401  (re-exported: the CLI's names before the API)
    MEGABYTE,
    READ_CHUNK,
    decoded_text,
    extraction_json,
    features_json,
    read_bounded,
    read_text,
    sequence_of_text,
    sequence_with_marks,
)
from punctstyle.io import InputError
from punctstyle.settings import schema_default

DEFAULT_MODEL_DIR = os.path.join("results", "models", "attribution")
MODEL_HINT = "point --model at a run's outdir or an attribution bundle folder"
EXIT_OK = 0
EXIT_INPUT_ERROR = 2
_read_bounded = read_bounded


def sequence_of_file(path: str, max_bytes: int) -> Any:
    return sequence_of_text(read_text(path, max_bytes))


def max_read_bytes(args: argparse.Namespace) -> int:
    """``--max-mb`` in bytes."""
    return int(args.max_mb * MEGABYTE)


def input_name(args: argparse.Namespace) -> str:
    return "<stdin>" if args.file == "-" else args.file


def model_folder(model: str | None) -> str:
    """The bundle folder ``--model`` names: a bundle folder, or a run's outdir (its
    ``models/attribution``, as :func:`punctstyle.api.open_results` takes either). Without
    ``--model``: ``results/models/attribution`` of the working folder or of the nearest folder
    above it that has one; none found is refused, saying where it looked."""
    from punctstyle.api.results import BUNDLE_IN_RUN, is_run

    if model is not None:
        return os.path.join(model, BUNDLE_IN_RUN) if is_run(Path(model)) else model
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / DEFAULT_MODEL_DIR).is_dir():
            return DEFAULT_MODEL_DIR if folder == here else str(folder / DEFAULT_MODEL_DIR)
    raise InputError(f"{here / DEFAULT_MODEL_DIR}: model folder does not exist (looked for {DEFAULT_MODEL_DIR} "
                     f"in {here} and the folders above it; {MODEL_HINT})")


def figure_target(path: str | None) -> str | None:
    """``--figure``: checked before any work, so that a bad path costs nothing: a known
    extension, an existing folder (not created), a folder this user can write in (a probe file
    is created and removed there)."""
    import tempfile

    if path is None:
        return None
    if not path.lower().endswith((".png", ".pdf", ".svg")):
        raise InputError(f"{path}: figure file must end in .png, .pdf or .svg")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"{path}: no such folder {folder} (create it first)")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".punctstyle-probe-"):
            pass
    except OSError as exc:
        raise InputError(f"{path}: cannot write in {folder} ({exc.strerror or exc})") from None
    return path


def print_warning(warning: str | None) -> None:
    """A one-line warning on standard error (the language warning of a TEI file)."""
    if warning:
        sys.stderr.write(f"punctstyle: warning: {warning}\n")


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------- commands
# Each command is a function of the parsed arguments over punctstyle.api; its arguments and
# help live in COMMANDS below (one entry per subcommand).


def cmd_extract(args: argparse.Namespace) -> int:
    _print_json(extraction_json(sequence_of_file(args.file, max_read_bytes(args))))
    return EXIT_OK


def cmd_features(args: argparse.Namespace) -> int:
    text = read_text(args.file, max_read_bytes(args))
    _print_json(features_json(sequence_with_marks(input_name(args), text, purpose="compute features of")))
    return EXIT_OK


def cmd_attribute(args: argparse.Namespace) -> int:
    from punctstyle.api.results import attribute_document
    from punctstyle.api.text import read_document
    from punctstyle.attribution.bundle import load_attribution_bundle  # lazy: loads torch

    name = input_name(args)
    document = read_document(args.file, max_read_bytes(args))
    attribution, language_warning = attribute_document(document, load_attribution_bundle(model_folder(args.model)),
                                                       name, args.method, args.language)
    print_warning(language_warning)
    if attribution.warning:
        sys.stderr.write(f"punctstyle: {name}: {attribution.warning}\n")
    if args.json:
        _print_json(attribution.as_json(args.top))
    else:
        sys.stdout.write(attribution.as_text(args.top))
    return EXIT_OK


def cmd_app(args: argparse.Namespace) -> int:
    from punctstyle.app.server import serve  # lazy: imports the web framework

    return serve(args.results, host=args.host, port=args.port, max_upload_mb=args.max_mb)


def cmd_rolling(args: argparse.Namespace) -> int:
    """``punctstyle rolling``: :func:`punctstyle.api.results.rolling_sequence` (the logic is
    :mod:`punctstyle.attribution.rolling`)."""
    from punctstyle.api.results import rolling_sequence
    from punctstyle.attribution.bundle import load_attribution_bundle  # lazy: loads torch
    from punctstyle.attribution.rolling import rolling_table

    from punctstyle.api.language import bundle_language, document_extracted
    from punctstyle.api.text import read_document

    name = input_name(args)
    figure = figure_target(args.figure)
    document = read_document(args.file, max_read_bytes(args))
    bundle = load_attribution_bundle(model_folder(args.model))
    sequence, stream, extractor, language_warning = document_extracted(
        document, bundle_language(bundle), args.language, name, purpose="roll over"
    )
    print_warning(language_warning)
    result = rolling_sequence(name, sequence, bundle, args.window, args.step, method=args.method, stream=stream,
                              text=document.text, extractor=extractor)
    if figure:
        from punctstyle.api.figures import rolling_figure
        from punctstyle.report.plots.rolling import save_figure_as

        try:
            save_figure_as(rolling_figure(result, f"{name}: rolling attribution"), figure)
        except OSError as exc:
            raise InputError(f"{figure}: cannot write the figure ({exc.strerror or exc})") from None
    from punctstyle.attribution.rolling import rolling_choice_note, rolling_choice_record, rolling_default

    default = rolling_default(bundle)
    chosen = args.method or default
    if args.json:
        _print_json({"file": name, "model": bundle.directory, "method_choice": chosen, "default_method": default,
                     "default_measured": rolling_choice_record(bundle.threshold), **result.as_json()})
    else:
        how = rolling_choice_note(bundle.threshold) if args.method is None else "--method"
        sys.stdout.write(rolling_table(name, result, f"; {chosen} ({how})"))
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


def _port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, got {value!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, got {value!r}")
    return number


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return number


MODEL_HELP = (f"attribution bundle folder, or a run's outdir (default: {DEFAULT_MODEL_DIR} of the working folder "
              "or of the nearest folder above it that has one)")
FILE_HELP = ("plain text file (UTF-8, else Latin-1; a Gutenberg header/footer is stripped) or, for attribute, verify "
             "and rolling, a TEI file (its body is read); - reads stdin")


def add_model_arguments(command: argparse.ArgumentParser) -> None:
    """``--model DIR``, ``--top N``, ``--method`` and ``--json`` of ``attribute``."""
    from punctstyle.api.attribution import METHOD_CHOICES

    command.add_argument("--model", metavar="DIR", default=None, help=MODEL_HELP)
    command.add_argument(
        "--method", choices=METHOD_CHOICES, default="auto",
        help="the answer given: auto (default: the method most accurate at the text's length on held-out books), "
             "punctuation (the more accurate of the MLP and KL there), words (Delta on the most frequent words), "
             "both (Delta on words with f1..f6), mlp, or kl (the bundle's first KL feature); every method is "
             "shown either way",
    )
    command.add_argument(
        "--top", metavar="N", type=_positive_int, default=5, help="number of authors shown (default: 5)"
    )
    command.add_argument("--json", action="store_true", help="print JSON instead of a table")


def add_app_arguments(command: argparse.ArgumentParser) -> None:
    """RESULTS, ``--host``, ``--port`` and ``--max-mb`` (the upload limit) of ``app``."""
    default = float(schema_default("mirror", "max_text_mb"))
    command.add_argument("results", metavar="RESULTS_OR_BUNDLE",
                         help="a finished run's outdir (e.g. results) or an attribution bundle folder")
    command.add_argument("--host", default="127.0.0.1",
                         help="address to listen on (default: 127.0.0.1, this machine only); the page answers "
                              "requests for this name, 127.0.0.1 and localhost only (421 for another Host)")
    command.add_argument("--port", metavar="N", type=_port, default=8050,
                         help="port to listen on (default: 8050; 0: any free port)")
    command.add_argument("--max-mb", metavar="MB", type=_positive_number, default=default,
                         help=f"largest text accepted by the page, in MiB (default: {default:g})")


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, help line, description, arguments and the function it runs."""

    name: str
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


LANGUAGE_HELP = ("extract the text with this language's rules (fr, de, pl, ... or fra, fr-FR; default: the language "
                 "the bundle was built with, English for a bundle that does not record one)")


def add_language_argument(command: argparse.ArgumentParser) -> None:
    """``--language`` of ``attribute``, ``verify`` and ``rolling``."""
    command.add_argument("--language", metavar="CODE", default=None, help=LANGUAGE_HELP)


def _attribute_arguments(command: argparse.ArgumentParser) -> None:
    add_input_arguments(command)
    add_model_arguments(command)
    add_language_argument(command)


def _verify_arguments(command: argparse.ArgumentParser) -> None:
    """FILE, ``--max-mb``, ``--author NAME``, ``--model DIR`` and ``--json`` of ``verify``."""
    add_input_arguments(command)
    command.add_argument("--author", metavar="NAME", required=True, help="the author to verify (as in the bundle)")
    command.add_argument("--model", metavar="DIR", default=None,
                         help=MODEL_HELP + "; the bundle needs the verification files")
    command.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_language_argument(command)


def _rolling_arguments(command: argparse.ArgumentParser) -> None:
    """FILE, ``--max-mb``, ``--model``, ``--window``, ``--step``, ``--json`` and ``--figure`` of ``rolling``."""
    add_input_arguments(command)
    command.add_argument("--model", metavar="DIR", default=None, help=MODEL_HELP)
    command.add_argument("--window", metavar="N", type=_positive_int, default=None,
                         help="marks per slice (default: the bundle's minimum marks for attribution, at least 800)")
    command.add_argument("--step", metavar="S", type=_positive_int, default=None,
                         help="marks between slice starts (default: a quarter of the window)")
    command.add_argument("--method", choices=("punctuation", "words", "both"), default=None,
                         help="what the slices are scored on: punctuation (the bundle's MLP or KL, the more "
                              "accurate at the window), words (Delta on the most frequent words) or both (Delta on "
                              "words with f1..f6); default: the one with the best change-point F1 on the bundle's "
                              "synthetic collaborations of held-out books (punctuation for a bundle without words)")
    command.add_argument("--json", action="store_true", help="print JSON instead of a table")
    command.add_argument("--figure", metavar="PATH", default=None,
                         help="draw the scores along the text into PATH (.png, .pdf or .svg)")
    add_language_argument(command)


def cmd_verify(args: argparse.Namespace) -> int:
    """``verify``: General Imposters score and decision (:func:`punctstyle.api.verify`)."""
    from punctstyle.api.results import verify_document
    from punctstyle.api.text import read_document

    name = input_name(args)
    document = read_document(args.file, max_read_bytes(args))
    result, language_warning = verify_document(document, args.author, model_folder(args.model), name, args.language)
    print_warning(language_warning)
    if result.warning:
        sys.stderr.write(f"punctstyle: {name}: {result.warning}\n")
    if args.json:
        sys.stdout.write(json.dumps(result.as_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.table())
    return EXIT_OK


COMMANDS: tuple[Command, ...] = (
    Command(
        "extract",
        "print the punctuation marks and word gaps of a text as JSON",
        'Print {"marks": [...], "gaps": [...]}: the marks of the text in order '
        '(! " ( ) , . : ; ? ...) and the number of words before each mark.',
        add_input_arguments,
        cmd_extract,
    ),
    Command(
        "features",
        "print the punctuation features of a text as JSON (the paper's f1..f6, then f7)",
        'Print {"f1": [...], ..., "f6": [...]}: mark frequencies (10), transition '
        "matrix (100), joint transition matrix (100), sentence lengths (200), word gaps (40) "
        "and mean gaps between mark pairs (100), as in section 2.2 of the paper.",
        add_input_arguments,
        cmd_features,
    ),
    Command(
        "attribute",
        "who punctuates like this? rank the authors of the model for a text",
        "Rank the authors of an attribution bundle (made by the workflow rule "
        "attribution_model) for a text: MLP probability and KL divergence of the text to each "
        "author's signature. An empty or mark-less text is refused. A text with fewer marks "
        "than the bundle's threshold gets a warning (in the table, in the 'warning' and 'too_short' "
        "fields of --json, and on standard error); when the MLP and KL disagree on the first author, "
        "the output says which one the bundle's measured accuracy per text length trusts at this length.",
        _attribute_arguments,
        cmd_attribute,
    ),
    Command(
        "verify",
        "is this text by this author? General Imposters score and decision",
        "Score a text for one author of the bundle by General Imposters (stylo's imposters(): "
        "the share of 100 iterations, each on half the features and half the other authors, in which the "
        "author's texts are nearer than every other author's) and decide with the band calibrated on the "
        "corpus: same author, different author or undecided. An empty or too short text, or an author "
        "the bundle does not hold, is refused (exit status 2); a short text gets a warning.",
        _verify_arguments,
        cmd_verify,
    ),
    Command(
        "rolling",
        "where does the hand change? attribute slices of a text along it",
        "Cut the text into slices of --window marks every --step marks, score each "
        "slice against the bundle's authors with the method that is most accurate at that length "
        "(the bundle's measured curves: the MLP or KL nearest signature), and mark the change points "
        "(penalised least-squares segmentation of the slices' scores). A text shorter than one window is refused.",
        _rolling_arguments,
        cmd_rolling,
    ),
    Command(
        "app",
        "open a finished run or a bundle in the browser (a local web page)",
        "Serve a local web page on a finished run or an attribution bundle: paste or drop a text to "
        "see its punctuation sequence, its f1 and f3 beside the nearest authors' and the attribution "
        "table; browse the corpus (authors' fingerprints, a book's sequence, the recognition tables). "
        "It listens on 127.0.0.1 only unless --host says otherwise; stop it with Ctrl-C.",
        add_app_arguments,
        cmd_app,
    ),
)
"""The subcommands, in the order ``--help`` lists them: a new one is one entry here."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="punctstyle",
        description="Stylometry without words: punctuation sequences of a text (Darmon et al.).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for spec in COMMANDS:
        command = commands.add_parser(spec.name, help=spec.help, description=spec.description)
        spec.add_arguments(command)
        command.set_defaults(run=spec.run)
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
