"""New Eleusis in headless Chromium (issue 24, item 4): a newcomer creates a game from
the lobby against three bots and plays a whole round by clicking (cards ticked one by
one and as a string, a prophet declaration, the prophet's calls), then opens the revealed
rule's verification (NE-29.2); a dealer writes a rule in the editor, checked as typed
(NE-21.6, NE-22), sets it, and verifies the round the bots then play under it.

The games' seeds are fixed (the server's ``server_seed``, in this process) so that the
rounds are the same on every run."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import kinds, services
from games.models import Game
from games.services import lifecycle
from tests.browser.conftest import PHONE, screenshot
from tests.browser.helpers import log_in, table_version
from tests.browser.test_accessibility import axe_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_STEPS = 1000  # clicks and 200 ms waits for the bots; the round ends well before


def _create_from_the_lobby(page: Page, base: str, *, variant: str, hand_size: str) -> None:
    page.goto(f"{base}/lobby/")
    page.get_by_role("link", name="Create a game of New Eleusis").click()
    expect(page.locator("#create-title")).to_have_text("Create a game of New Eleusis")
    page.select_option("#id_variant", variant)
    page.select_option("#id_round_limit", "1")
    page.select_option("#id_hand_size", hand_size)
    for seat in (1, 2, 3):
        page.select_option(f"#id_seat_{seat}", "novice")
    page.uncheck("#id_rated")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#table.eleusis")).to_be_visible(timeout=60_000)


def _wait_for_change(page: Page, before: int) -> None:
    for _ in range(150):
        if table_version(page) != before or page.locator("#table .error").count():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the table stayed at version {before}")


def _revealed(page: Page) -> bool:
    return page.locator("#reveal a.verify").count() > 0


def test_a_newcomer_plays_a_whole_round_from_the_lobby_declares_prophet_and_verifies(
    live_server: Any, new_page: Any, django_user_model: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(lifecycle, "server_seed", lambda: "browser-eleusis-round-1")
    django_user_model.objects.create_user(username="ada", password="pw")
    page = new_page()
    log_in(page, live_server.url, "ada")
    _create_from_the_lobby(page, live_server.url, variant="practice", hand_size="6")
    game = Game.objects.get()
    assert (game.game_type, game.variant) == ("eleusis", "practice")
    commitment = page.locator(".commitment code").inner_text()
    assert len(commitment) == 64  # NE-23.1: committed before the first play
    plays = strings = calls = 0
    declared = False
    for _ in range(MAX_STEPS):
        if _revealed(page):
            break
        before = table_version(page)
        if page.locator("#play-form").count():
            boxes = page.locator("#play-form input[name=cards]")
            if not strings and boxes.count() >= 3:
                boxes.nth(2).check()  # a string of two, the third card first
                boxes.nth(0).check()
                expect(page.locator("#play-form .order").nth(2)).to_have_text("1")
                expect(page.locator("#play-form .order").nth(0)).to_have_text("2")
                strings += 1
            else:
                boxes.nth(0).check()
            if not declared and page.locator("#intent").count():
                page.select_option("#intent", "declare")
                declared = True
                screenshot(page, "eleusis-declaring")
            page.locator("#play-button").click()
            plays += 1
            _wait_for_change(page, before)
        elif page.locator("#hand .controls button").count():
            if not calls:
                screenshot(page, "eleusis-prophet-call")
            page.locator("#hand .controls button").first.click()
            calls += 1
            _wait_for_change(page, before)
        else:
            page.wait_for_timeout(200)
    assert _revealed(page), f"the round did not end in {MAX_STEPS} steps"
    state = kinds.of(game).load(Game.objects.get(pk=game.pk).snapshot)
    r = state.rounds[0]
    assert declared
    assert any(line.seat == 0 for line in r.lines), "the declaration took office (NE-10.1)"
    assert strings == 1
    assert plays >= 2
    # The reveal: the rule the house picked, its commitment as published at the start.
    reveal = page.locator("#reveal")
    expect(reveal).to_contain_text(r.rule.source.strip().splitlines()[0])
    expect(reveal).to_contain_text(commitment)
    screenshot(page, "eleusis-round-revealed")
    page.locator("#reveal a.verify").first.click()
    expect(page.locator("main")).to_contain_text("Round 1 verifies")
    screenshot(page, "eleusis-verified")


def test_a_dealer_writes_a_rule_checked_as_typed_and_verifies_its_round(
    live_server: Any, new_page: Any, django_user_model: Any, monkeypatch: Any
) -> None:
    # U("eltable-4", eleusis/first-dealer, 4) = 0: the person deals the first round.
    monkeypatch.setattr(lifecycle, "server_seed", lambda: "eltable-4")
    django_user_model.objects.create_user(username="dora", password="pw")
    page = new_page()
    log_in(page, live_server.url, "dora")
    _create_from_the_lobby(page, live_server.url, variant="standard", hand_size="6")
    expect(page.locator("#editor")).to_be_visible()
    source = page.locator("#rule-source")
    source.fill("accept card.colour != prev.color")
    expect(page.locator("#rule-check")).to_contain_text("Line 1, column")
    screenshot(page, "eleusis-editor-error")
    source.fill("accept card.color != prev.color")
    expect(page.locator("#rule-check")).to_contain_text("passes the sanity check")
    expect(page.locator("#rule-check")).to_contain_text("right next")
    page.get_by_label("The rule does not use rank.").check()
    screenshot(page, "eleusis-editor-ok")
    page.locator("#set-rule").click()
    expect(page.locator("#status")).to_contain_text("The rule does not use rank.")
    expect(page.locator("#editor")).to_have_count(0)
    for _ in range(MAX_STEPS):  # the bots play; the dealer's page follows live
        if _revealed(page):
            break
        page.wait_for_timeout(300)
    assert _revealed(page), "the bots' round did not end"
    expect(page.locator("#reveal")).to_contain_text("accept card.color != prev.color")
    page.set_viewport_size(PHONE)
    screenshot(page, "eleusis-phone-revealed")
    page.locator("#reveal a.verify").first.click()
    expect(page.locator("main")).to_contain_text("Round 1 verifies")


def test_the_new_eleusis_pages_have_no_serious_accessibility_violations(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="axel", password="pw")
    novices = [(1, "novice"), (2, "novice"), (3, "novice")]
    options = {"hand_size": 6, "sanity_walks": 20, "round_limit": 1}
    dealing = services.game_create(  # the person deals first (E04): the rule editor
        creator=user,
        game_type="eleusis",
        player_count=4,
        rated=False,
        seed="eltable-4",
        bots=novices,
        options=options,
    )
    playing = services.game_create(  # a bot deals: the person plays
        creator=user,
        game_type="eleusis",
        player_count=4,
        rated=False,
        seed="eltable-0",
        bots=novices,
        options=options,
    )
    page = new_page(bypass_csp=True)
    log_in(page, live_server.url, "axel")
    found: dict[str, list[str]] = {}
    for name, path in (
        ("editor", f"/games/{dealing.pk}/"),
        ("table", f"/games/{playing.pk}/"),
        ("rules", "/rules/eleusis/"),
        ("lobby", "/lobby/?game=eleusis"),
    ):
        page.goto(f"{live_server.url}{path}")
        if name == "editor":
            page.fill("#rule-source", "accept card.color != prev.color")
            expect(page.locator("#rule-check")).to_contain_text("passes the sanity check")
        found[name] = axe_problems(page)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{playing.pk}/")
    found["table on a phone"] = axe_problems(page)
    screenshot(page, "eleusis-phone-table")
    assert not any(found.values()), found
