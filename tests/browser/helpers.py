"""Steps a person takes in the browser, shared by the browser tests."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"


def sign_up(page: Page, base_url: str, username: str, *, language: str = "en") -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "a-long-Passphrase-9")
    page.fill("#id_password2", "a-long-Passphrase-9")
    page.select_option("#id_language", language)
    page.click("form.stack button[type=submit]")
    expect(page).to_have_url(f"{base_url}/lobby/")


def log_in(page: Page, base_url: str, username: str, password: str = "pw") -> None:  # noqa: S107
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.stack button[type=submit]")
    expect(page).to_have_url(f"{base_url}/")


def _table_state(page: Page, before: int) -> str:
    """What the page shows when a move seems unanswered (seen rarely under heavy load):
    the versions, requests in flight, the stream, and the page saved for a look."""
    facts = page.evaluate(
        "() => ({version: document.querySelector('#table').dataset.version,"
        " inFlight: document.querySelectorAll('.htmx-request').length,"
        " streamOpen: window.indulgenceStreamOpen, url: location.href,"
        " status: (document.querySelector('#status') || {}).innerText})"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"unanswered-{int(time.time())}.html"
    path.write_text(page.content())
    return f"version {before} before, {facts}; page saved to {path}"


def table_version(page: Page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or 0)


def take_one_step(page: Page, *, sin: bool = False) -> str:
    """Make whatever move the table offers: an edict, sin/pass, trump, a tie, or the first
    playable card. Returns what was done ("" when it is not this page's turn)."""
    before = table_version(page)
    choices = page.locator("#edicts button")
    controls = page.locator("#hand .controls button")
    cards = page.locator("#hand button.card:not([disabled])")
    if choices.count():
        target = choices.first
        done = "edict"
    elif controls.count():
        # The sin button carries class "sin" in every language.
        wanted = page.locator("#hand .controls button" + (".sin" if sin else ":not(.sin)"))
        target = wanted.first if wanted.count() else controls.first
        done = "control"
    elif cards.count():
        target = cards.first
        done = "card"
    else:
        return ""
    target.click()
    # Bots answer inside the request that committed this move, so on a loaded machine the
    # swap can take a while; a refused move shows its reason in .error instead.
    answered = (
        "v => Number(document.querySelector('#table').dataset.version) > v"
        " || document.querySelector('#table .error') !== null"
    )
    try:
        page.wait_for_function(answered, arg=before, timeout=45_000)
    except PlaywrightTimeoutError as exc:
        raise AssertionError(f"no answer to the {done}: {_table_state(page, before)}") from exc
    error = page.locator("#table .error")
    if error.count():
        raise AssertionError(f"the table refused the {done}: {error.first.inner_text()}")
    return done
