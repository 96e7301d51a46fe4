"""Issue 21, item 4 in real Chromium: at phone width the hand stays on screen while a trick
is played; the end of a hand stays on screen (its deciding trick and who paid whom) until
the player moves on, while the game goes on; the game-over page, the sin decision, the
history, the replay by hand, an open table and the settings, each photographed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import selectors, services
from games.models import Game, GameStatus
from tests.api.support import finished_game
from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, screenshot
from tests.browser.helpers import log_in, take_one_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# As in test_play.py: the person at seat 0 is the first Ruler, three heuristic bots.
SEED = "browser-hand-2"
HEURISTIC_BOTS = [(1, "heuristic"), (2, "heuristic"), (3, "heuristic")]


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the whole element is inside the visible part of the page."""
    return bool(
        page.evaluate(
            """s => { const r = document.querySelector(s).getBoundingClientRect();
                      return r.height > 0 && r.top >= 0 && r.left >= 0
                        && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }""",
            selector,
        )
    )


def test_at_phone_width_the_hand_is_on_screen_and_a_settled_hand_waits_for_the_player(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="phone", password="pw")
    game = services.game_create(
        creator=user, player_count=4, rated=False, seed=SEED, bots=HEURISTIC_BOTS
    )
    page = new_page(viewport=PHONE)
    log_in(page, live_server.url, "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert take_one_step(page) == "edict"

    # Hand 1: every time it is my turn inside a trick others have begun, the hand (all
    # its cards) is on screen, at the top of the page and with the trick scrolled to.
    checked = 0
    for _ in range(300):
        if page.locator("#hand-over").count():
            break
        playable = page.locator("#hand button.card:not([disabled])")
        if playable.count() and page.locator("#trick .plays li").count():
            page.evaluate("window.scrollTo(0, 0)")
            assert in_viewport(page, "#hand .cards"), "the hand is below the screen"
            page.locator("#trick").scroll_into_view_if_needed()
            assert in_viewport(page, "#hand .cards")
            assert in_viewport(page, "#trick .plays")
            if checked == 0:
                screenshot(page, "phone-trick-with-hand")  # the whole page
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(SCREENSHOTS / "phone-trick-with-hand-screen.png"))
            checked += 1
        if playable.count():
            take_one_step(page)
        else:
            page.wait_for_timeout(200)
    assert checked >= 3, f"only {checked} tricks were joined by the person"

    # The end of hand 1 stays on screen while hand 2 goes on (bots choose, pass, ...).
    over = page.locator("#hand-over")
    expect(over.locator("h2")).to_have_text("Hand 1 is over")
    expect(over).to_contain_text("The last trick:")
    [settlement] = selectors.hand_settlements(game=game)
    expect(over.locator(".payments li")).to_have_count(len(settlement.payments))
    assert in_viewport(page, "#hand-over h2")
    screenshot(page, "phone-hand-over")
    # The game went on behind it (the next Ruler, a bot, chose; the bots before me passed:
    # they answer within the request of my last card), and a reload keeps it too.
    expect(page.locator("#status")).to_contain_text("Hand 2 of 12")
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.reload()
    expect(over.locator("h2")).to_have_text("Hand 1 is over")
    expect(page.locator("#hand")).to_have_count(0)
    page.set_viewport_size(DESKTOP)
    screenshot(page, "desktop-hand-over")
    page.set_viewport_size(PHONE)

    page.get_by_role("button", name="Continue to hand 2").click()
    expect(page.locator("#hand-over")).to_have_count(0)
    expect(page.locator("#hand")).to_be_visible()
    expect(page.locator("#settlement summary")).to_have_text("Settlement of hand 1")


def test_the_sin_decision_says_what_a_sin_wins_and_costs(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="sinner", password="pw")
    game = services.game_create(
        creator=user, player_count=4, rated=False, seed=SEED, bots=HEURISTIC_BOTS
    )
    page = new_page(viewport=PHONE)
    log_in(page, live_server.url, "sinner")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    for _ in range(300):  # hand 1 as above, then on to hand 2's sin decision
        if page.locator("#continue").count():
            page.locator("#continue").click()
            expect(page.locator("#hand-over")).to_have_count(0)
        elif page.locator("#hand .controls button.sin").count():
            break
        elif not take_one_step(page):
            page.wait_for_timeout(200)
    terms = page.locator(".sin-terms")
    expect(terms).to_contain_text("What a sin means this hand")
    expect(terms).to_contain_text("If the sin succeeds, every other player, the Ruler included")
    expect(terms).to_contain_text("If it fails, the sinner pays the Ruler 8 florins.")
    expect(terms).to_contain_text("Heuristic bot #2: passed · Heuristic bot #3: passed")
    expect(page.locator("#hand")).to_contain_text(
        "Passed so far: Heuristic bot #2, Heuristic bot #3."
    )
    screenshot(page, "phone-sin-decision")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "desktop-sin-decision")


def test_game_over_standings_history_replay_and_rematch(
    live_server: Any, new_page: Any, owner: Any, opponent: Any, third: Any
) -> None:
    game = finished_game(owner, opponent, third, rated=True)
    assert game.result is not None
    page = new_page()
    log_in(page, live_server.url, "owner")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    standings = page.locator("#game-over")
    expect(standings.locator("h2")).to_have_text("Final standings")
    expect(standings.locator("tbody tr")).to_have_count(3)
    winner = {0: "owner", 1: "opponent", 2: "third"}[game.result["winner_seat"]]
    first = standings.locator("tbody tr").first.locator("td")
    expect(first.nth(0)).to_have_text("1st")
    expect(first.nth(1)).to_have_text(winner)
    expect(first.nth(2)).to_have_text(str(game.result["florins"][str(game.result["winner_seat"])]))
    expect(first.nth(3)).to_contain_text("→")  # the rating change and the new rating
    expect(page.get_by_role("button", name="Play again against 3 bots")).to_be_visible()
    screenshot(page, "desktop-game-over")
    page.set_viewport_size(PHONE)
    screenshot(page, "phone-game-over")
    page.set_viewport_size(DESKTOP)

    page.goto(f"{live_server.url}/games/{game.pk}/history")
    expect(page.locator(".history-list > li")).to_have_count(
        len(selectors.hand_summaries(game=game))
    )
    expect(page.locator(".history-list > li").first).to_contain_text("Ruler:")
    expect(page.locator(".history-list > li").first).to_contain_text("taken by")
    screenshot(page, "desktop-history")

    page.goto(f"{live_server.url}/games/{game.pk}/replay")
    page.get_by_role("navigation", name="Jump to a hand").get_by_role("link", name="Hand 3").click()
    expect(page.locator("#status")).to_contain_text("Hand 3 of 9")
    expect(page.locator("#board .last-move")).to_contain_text(
        "The hand was settled and the next one dealt."
    )
    screenshot(page, "desktop-replay-hand-3")

    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("button", name="Rematch: the same table again").click()
    rematch = Game.objects.exclude(pk=game.pk).get()
    expect(page).to_have_url(f"{live_server.url}/games/{rematch.pk}/")
    assert rematch.status == GameStatus.OPEN
    expect(page.locator("#seats")).to_contain_text("Seat 1: open, waiting for a player")
    expect(page.locator("#seats")).to_contain_text("Seat 2: open, waiting for a player")
    expect(page.get_by_role("heading", name="Your hand")).to_have_count(0)
    screenshot(page, "desktop-open-table")

    page.get_by_role("button", name=f"Abort game {rematch.pk}").click()
    expect(page).to_have_url(f"{live_server.url}/lobby/")
    expect(page.locator(".messages")).to_contain_text(f"Game {rematch.pk} was aborted.")
    rematch.refresh_from_db()
    assert rematch.status == GameStatus.VOID


def test_settings_show_the_token_header_and_the_profile_shows_places(
    live_server: Any, new_page: Any, owner: Any, opponent: Any, third: Any
) -> None:
    game = finished_game(owner, opponent, third, rated=True)
    assert game.result is not None
    page = new_page()
    log_in(page, live_server.url, "owner")
    page.goto(f"{live_server.url}/settings/")
    expect(page.locator("#tokens")).to_contain_text(
        "Bots and REST clients send a token in this header: Authorization: Bearer <token>"
    )
    screenshot(page, "desktop-settings")
    page.goto(f"{live_server.url}/players/owner/")
    place = selectors.places(game.result)[0]
    expect(page.locator("#recent-h ~ table")).to_contain_text(
        f"{['1st', '2nd', '3rd'][place - 1]} of 3"
    )
    screenshot(page, "desktop-profile")
    page.goto(f"{live_server.url}/leaderboard/")
    expect(page.locator("#id_variant")).to_have_value("expert")  # the pool with games
    screenshot(page, "desktop-leaderboard")
