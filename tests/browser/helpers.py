"""Steps a person takes in the browser, shared by the browser tests."""

from __future__ import annotations

from playwright.sync_api import Page, expect


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
        choices.first.click()
        done = "edict"
    elif controls.count():
        # The sin button carries class "sin" in every language.
        wanted = page.locator("#hand .controls button" + (".sin" if sin else ":not(.sin)"))
        (wanted.first if wanted.count() else controls.first).click()
        done = "control"
    elif cards.count():
        cards.first.click()
        done = "card"
    else:
        return ""
    # Bots answer inside the request that committed this move, so on a loaded machine the
    # swap can take a while; a refused move shows its reason in .error instead.
    page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version) > v"
        " || document.querySelector('#table .error') !== null",
        arg=before,
        timeout=45_000,
    )
    error = page.locator("#table .error")
    if error.count():
        raise AssertionError(f"the table refused the {done}: {error.first.inner_text()}")
    return done
