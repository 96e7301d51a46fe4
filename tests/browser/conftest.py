"""Real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright's sync API
against pytest-django's live server. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# tests themselves (fixtures, assertions) are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, Page, sync_playwright

from tests.web.conftest import compile_translations_once

CHROMIUM = settings.CHROMIUM_PATH  # tests/settings.py: missing -> one loud skip line
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(settings.BASE_DIR) / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
STREAM_KEEPALIVE = 1.0


@pytest.fixture(scope="session", autouse=True)
def compiled_translations() -> None:
    compile_translations_once()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Any]:
    """Open pages in fresh contexts (separate cookies: separate people)."""
    contexts = []

    def open_page(
        *,
        viewport: dict[str, int] | None = None,
        locale: str = "en-US",
        javascript: bool = True,
        bypass_csp: bool = False,
    ) -> Page:
        # bypass_csp: for a test tool injected into the page (axe), which the site's
        # Content-Security-Policy rightly refuses as an inline script.
        context = browser.new_context(
            viewport=viewport or DESKTOP,
            locale=locale,
            java_script_enabled=javascript,
            bypass_csp=bypass_csp,
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    if contexts:
        # Let the live server's event-stream threads notice the closed connections (their
        # next keep-alive write fails) before the test database goes away under them.
        time.sleep(STREAM_KEEPALIVE + 0.5)


@pytest.fixture(autouse=True)
def quick_stream_keepalive(settings: Any) -> None:
    settings.STREAM_KEEPALIVE_SECONDS = STREAM_KEEPALIVE


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
