"""Helpers of the browser tests and of docs/img/make_screenshots.py: the app served in a thread
(waitress on 127.0.0.1, a free port) and headless Chromium driven by selenium.

Chromium and its driver come from Debian's packages (``apt-get install chromium
chromium-driver``, as ``.ci/run`` does): selenium is pointed at ``/usr/bin/chromedriver``, so it
never downloads a browser or a driver. :func:`browser_missing` says why the tests are skipped.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMEDRIVER_NAMES = ("chromedriver",)
CHROMIUM_NAMES = ("chromium", "chromium-browser")
WINDOW = (1100, 1400)


def _which(names: tuple[str, ...]) -> str | None:
    return next((found for name in names if (found := shutil.which(name))), None)


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if _which(CHROMIUM_NAMES) is None or _which(CHROMEDRIVER_NAMES) is None:
        return "no chromium/chromedriver here (apt-get install chromium chromium-driver; .ci/run installs them)"
    return None


@contextlib.contextmanager
def served(results_path: Any, max_upload_bytes: int = 2 * 1024 * 1024) -> Iterator[str]:
    """The app on ``results_path`` served in a daemon thread; yields its base URL."""
    from waitress import create_server

    from punctstyle.api import open_results
    from punctstyle.app.server import create_app

    results = open_results(results_path)
    if results.has_bundle:
        results.bundle  # noqa: B018  (as `punctstyle app` does: loaded before serving)
    server = create_server(create_app(results, max_upload_bytes), host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        thread.join(timeout=5)


@contextlib.contextmanager
def chromium(*arguments: str) -> Iterator[Any]:
    """Headless Chromium (Debian's) with Debian's chromedriver; ``arguments``: more command-line
    switches (e.g. ``--host-resolver-rules=MAP attacker.example 127.0.0.1``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _which(CHROMIUM_NAMES) or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}", *arguments):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=_which(CHROMEDRIVER_NAMES)), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def paste_and_submit(driver: Any, text: str, button: str = "#submit") -> None:
    """Put ``text`` in the page's text box (as a paste does) and submit the form with ``button``
    (a CSS selector; default: the first button, Attribute)."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.ID, "text")
    driver.execute_script("arguments[0].value = arguments[1];", box, text)
    driver.find_element(By.CSS_SELECTOR, button).click()


def upload_and_submit(driver: Any, path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, "file").send_keys(str(path))
    driver.find_element(By.ID, "submit").click()


def drawn_images(driver: Any) -> list[dict[str, int]]:
    """Natural sizes of the page's figures that finished loading (an empty one is 0 x 0)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('img.figure'))"
        ".map(i => ({width: i.naturalWidth, height: i.naturalHeight, complete: i.complete}));"
    )


def full_page_screenshot(driver: Any, path: Path) -> Path:
    """A screenshot of the whole page (the window grown to the page's height)."""
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    driver.set_window_size(WINDOW[0], max(WINDOW[1] // 2, min(int(height) + 200, 6000)))
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    driver.set_window_size(*WINDOW)
    return path
