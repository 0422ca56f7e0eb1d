"""``punctstyle app``: the Flask application and its waitress server.

:func:`create_app` builds the application on an opened run or bundle (:func:`punctstyle.api.open_results`);
its pages are the entries of :data:`punctstyle.app.views.ROUTES`. :func:`serve` opens the folder,
loads the bundle once (so that the first text does not wait for torch), and serves on
127.0.0.1 unless told another host.

Bad input never shows a stack trace: a refusal (:class:`punctstyle.io.InputError`) is a message
in the page (status 400; 413 for a text over the size limit), a request larger than the upload limit is status 413 with the CLI's
"larger than ... MB" line, any other error is a one-line page (status 500) and is logged.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from punctstyle.api.results import Results, open_results
from punctstyle.api.text import MEGABYTE, TooLarge, too_large
from punctstyle.app.views import ROUTES, form_context, nav_links
from punctstyle.io import InputError

FORM_OVERHEAD_BYTES = 64 * 1024
"""Room for the form's other fields and multipart boundaries beyond the text's own limit."""
UPLOAD_HINT = "start the app with a larger --max-mb"
LOG = logging.getLogger("punctstyle.app")


def create_app(results: Results, max_upload_bytes: int) -> Flask:
    """The web application on ``results``: texts of at most ``max_upload_bytes`` bytes."""
    app = Flask("punctstyle.app", static_folder="static", template_folder="templates")
    app.config.update(
        MAX_CONTENT_LENGTH=max_upload_bytes + FORM_OVERHEAD_BYTES,
        MAX_FORM_MEMORY_SIZE=max_upload_bytes + FORM_OVERHEAD_BYTES,
        PUNCTSTYLE_RESULTS=results,
        PUNCTSTYLE_MAX_BYTES=max_upload_bytes,
    )
    for route in ROUTES:
        app.add_url_rule(route.rule, route.endpoint, route.view, methods=list(route.methods))

    @app.context_processor
    def page_context() -> dict[str, Any]:
        return {"results": results, "nav": nav_links(), "max_mb": f"{max_upload_bytes / MEGABYTE:.4g}",
                **form_context(results)}

    @app.errorhandler(InputError)
    def refused(error: InputError) -> tuple[str, int]:
        return message_page("Refused", str(error)), 413 if isinstance(error, TooLarge) else 400

    @app.errorhandler(RequestEntityTooLarge)
    def too_big(error: RequestEntityTooLarge) -> tuple[str, int]:
        return message_page("Refused", str(too_large("the text", max_upload_bytes, UPLOAD_HINT))), 413

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        return message_page(f"{error.code} {error.name}", error.description or error.name), error.code or 500

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[str, int]:
        LOG.exception("unexpected error")
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return message_page("Something went wrong", f"{type(error).__name__}: {first}"), 500

    return app


def message_page(title: str, message: str) -> str:
    """A page with one message (a refusal or an error): the form stays, no stack trace."""
    return render_template("page.html", title=title, refusal=message, sections=[])


def serve(path: Any, host: str = "127.0.0.1", port: int = 8050, max_upload_mb: float = 8.0) -> int:
    """Open ``path``, load its bundle, serve until interrupted; returns the exit status."""
    from waitress import create_server

    results = open_results(path)
    if results.has_bundle:
        results.bundle  # noqa: B018  (load now: the first text should not wait for torch)
    app = create_app(results, int(max_upload_mb * MEGABYTE))
    server = create_server(app, host=host, port=port, threads=4)
    address = f"http://{host}:{server.effective_port}/"
    sys.stderr.write(f"punctstyle app: {results.folder} ({results.kind}) on {address} (Ctrl-C stops it)\n")
    sys.stderr.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
