"""``punctstyle app``: the Flask application and its waitress server.

:func:`create_app` builds the application on an opened run or bundle (:func:`punctstyle.api.open_results`);
its pages are the entries of :data:`punctstyle.app.views.ROUTES`. :func:`serve` opens the folder,
loads the bundle once (so that the first text does not wait for torch), and serves on
127.0.0.1 unless told another host.

Bad input never shows a stack trace: a refusal (:class:`punctstyle.io.InputError`) is a message
in the page (status 400; 413 for a text over the size limit), a request larger than the upload limit is status 413 with the CLI's
"larger than ... MB" line, any other error is a one-line page (status 500) and is logged.

Boundaries (docs/app.md): a request whose ``Host`` is not a name the app was started on
(127.0.0.1, localhost, ``[::1]``, the ``--host`` given) is refused with status 421 before any
page is made (DNS rebinding); no page shows the server's absolute paths (the opened folder is
shown by its name, messages have its path replaced by its name).
"""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from punctstyle.api.results import Results, open_results
from punctstyle.api.text import MEGABYTE, TooLarge, too_large
from punctstyle.app.views import ROUTES, form_context, nav_links
from punctstyle.io import InputError

FORM_OVERHEAD_BYTES = 64 * 1024
"""Room for the form's other fields and multipart boundaries beyond the text's own limit."""
UPLOAD_HINT = "start the app with a larger --max-mb"
LOG = logging.getLogger("punctstyle.app")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The names every app answers to; ``serve`` adds the ``--host`` it listens on."""
WILDCARD_HOSTS = ("0.0.0.0", "::")
MISDIRECTED = 421


def allowed_hosts(host: str) -> frozenset[str]:
    """The host names (lower case, no port) the app answers when it listens on ``host``: the
    local names, ``host`` itself, and for a wildcard address (``0.0.0.0``, ``::``) this
    machine's name, its fully qualified name and their addresses."""
    names = {*LOCAL_HOSTS, host.strip("[]").lower()}
    if host.strip("[]") in WILDCARD_HOSTS:
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name.lower())
            try:
                names.update(socket.gethostbyname_ex(name)[2])
            except OSError:  # a name this machine cannot resolve adds no address
                pass
    return frozenset(n for n in names if n)


def host_name(header: str) -> str:
    """The name of a ``Host`` header, without its port (``[::1]:8050`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1: header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def without_paths(message: str, results: Results) -> str:
    """``message`` with the opened folder's absolute path replaced by its name (and its
    parent's path left out): a page shows nothing of the server's file system."""
    return message.replace(str(results.folder), results.folder.name).replace(str(results.folder.parent) + "/", "")


def create_app(results: Results, max_upload_bytes: int, hosts: Iterable[str] = LOCAL_HOSTS) -> Flask:
    """The web application on ``results``: texts of at most ``max_upload_bytes`` bytes,
    answering only requests whose ``Host`` is one of ``hosts`` (:func:`allowed_hosts`)."""
    app = Flask("punctstyle.app", static_folder="static", template_folder="templates")
    answered = frozenset(h.lower() for h in hosts)
    app.config.update(
        MAX_CONTENT_LENGTH=max_upload_bytes + FORM_OVERHEAD_BYTES,
        MAX_FORM_MEMORY_SIZE=max_upload_bytes + FORM_OVERHEAD_BYTES,
        PUNCTSTYLE_RESULTS=results,
        PUNCTSTYLE_MAX_BYTES=max_upload_bytes,
    )
    for route in ROUTES:
        app.add_url_rule(route.rule, route.endpoint, route.view, methods=list(route.methods))

    @app.before_request
    def known_host() -> Response | None:
        """DNS rebinding: a page asked for under another name (``attacker.example``) is refused
        in plain text, before any page (the authors, the corpus) is made."""
        name = host_name(request.host)
        if name in answered:
            return None
        return Response(f"{name}: not a host name this app answers (it answers {', '.join(sorted(answered))}; "
                        "start it with --host NAME to answer another)\n", MISDIRECTED, mimetype="text/plain")

    @app.context_processor
    def page_context() -> dict[str, Any]:
        return {"results": results, "nav": nav_links(), "max_mb": f"{max_upload_bytes / MEGABYTE:.4g}",
                **form_context(results)}

    @app.errorhandler(InputError)
    def refused(error: InputError) -> tuple[str, int]:
        return message_page("Refused", without_paths(str(error), results)), 413 if isinstance(error, TooLarge) else 400

    @app.errorhandler(RequestEntityTooLarge)
    def too_big(error: RequestEntityTooLarge) -> tuple[str, int]:
        return message_page("Refused", str(too_large("the text", max_upload_bytes, UPLOAD_HINT))), 413

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        description = without_paths(error.description or error.name, results)
        return message_page(f"{error.code} {error.name}", description), error.code or 500

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[str, int]:
        LOG.exception("unexpected error")
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return message_page("Something went wrong", without_paths(f"{type(error).__name__}: {first}", results)), 500

    return app


def message_page(title: str, message: str) -> str:
    """A page with one message (a refusal or an error): the form stays, no stack trace."""
    return render_template("page.html", title=title, refusal=message, sections=[])


def serve(path: Any, host: str = "127.0.0.1", port: int = 8050, max_upload_mb: float = 8.0) -> int:
    """Open ``path``, load its bundle, serve until interrupted; returns the exit status."""
    from waitress import create_server

    results = open_results(path)
    app = create_app(results, int(max_upload_mb * MEGABYTE), allowed_hosts(host))
    try:  # listen first: a port in use is refused before the bundle is loaded
        server = create_server(app, host=host, port=port, threads=4)
    except OSError as exc:
        raise InputError(f"{host}:{port}: cannot listen there ({exc.strerror or exc}); "
                         "choose another --port (0: any free port)") from None
    if results.has_bundle:
        results.bundle  # noqa: B018  (load now: the first text should not wait for torch)
    shown_host = f"[{host}]" if ":" in host else host
    address = f"http://{shown_host}:{server.effective_port}/"
    sys.stderr.write(f"punctstyle app: {results.folder} ({results.kind}) on {address} (Ctrl-C stops it)\n")
    sys.stderr.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
