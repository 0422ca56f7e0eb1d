"""The screenshots of docs/app.md: each view of `punctstyle app` in headless Chromium.

Usage (from the repository root; RESULTS: a finished run, e.g. of config/test.yaml)::

    PYTHONPATH=. .venv/bin/python docs/img/make_screenshots.py RESULTS

Writes docs/img/app_<view>.png (the verification is of the pasted text against the first author of
the menu, the rolling view of the pasted text with the bundle's window). Uses the browser tests' helpers (tests/app_browser.py): Debian's
chromium and chromedriver, selenium. The pasted text is invented sentences (not a corpus book).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.app_browser import browser_missing, chromium, full_page_screenshot, paste_and_submit, served  # noqa: E402

TEXT = (
    "The lamp was lit; the wind rose, and the rain came on. \"Come in,\" she said; he did not move. "
    "Nobody spoke: the clock, the fire, the dog; all was still. Then, at last, a knock! "
) * 40


def main(results: str) -> int:
    reason = browser_missing()
    if reason:
        sys.stderr.write(f"make_screenshots: {reason}\n")
        return 2
    out = REPO / "docs" / "img"
    with served(results) as url, chromium() as driver:
        driver.get(url + "/")
        full_page_screenshot(driver, out / "app_home.png")
        paste_and_submit(driver, TEXT)
        full_page_screenshot(driver, out / "app_text.png")
        for name, path in (("authors", "/authors"), ("recognition", "/recognition"), ("books", "/books")):
            driver.get(url + path)
            full_page_screenshot(driver, out / f"app_{name}.png")
        driver.get(url + "/authors")
        driver.find_element("css selector", "ul.links a").click()
        full_page_screenshot(driver, out / "app_author.png")
        driver.get(url + "/books")
        driver.find_element("css selector", "ul.links a").click()
        full_page_screenshot(driver, out / "app_book.png")
        for name in ("verify", "rolling"):
            driver.get(url + "/")
            paste_and_submit(driver, TEXT, button=f'button[formaction="/{name}"]')
            full_page_screenshot(driver, out / f"app_{name}.png")
        driver.get(url + "/maps")
        driver.save_screenshot(str(out / "app_maps.png"))  # the first family's maps: the whole page is 3 families
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
