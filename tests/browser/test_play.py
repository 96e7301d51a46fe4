"""A visitor clicks "Play now", signs up and lands at a table against three bots; a player
plays whole hands of a fixed deal by clicking (edict, sin or pass, cards, settlement)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games import selectors, services
from games.models import Game, Move
from tests.browser.conftest import PHONE, screenshot
from tests.browser.helpers import log_in, table_version, take_one_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_visitor_clicks_play_now_signs_up_and_lands_at_a_table_against_three_bots(
    live_server: Any, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Play now against 3 bots").click()
    expect(page).to_have_url(f"{live_server.url}/accounts/signup/?next=%2Fplay-now")
    expect(page.locator("main")).to_contain_text(
        "Your game starts as soon as your account is created"
    )
    page.fill("#id_username", "ada")
    page.fill("#id_password1", "a-long-Passphrase-9")
    page.fill("#id_password2", "a-long-Passphrase-9")
    page.click("form.stack button[type=submit]")
    expect(page.locator("#table")).to_be_visible()
    game = Game.objects.get()
    assert page.url == f"{live_server.url}/games/{game.pk}/"
    seats = list(game.seats.order_by("number").select_related("player__user"))
    assert seats[0].player.user.username == "ada"
    assert [s.player.is_bot for s in seats] == [False, True, True, True]
    expect(page.get_by_role("link", name="Profile")).to_have_attribute("href", "/players/ada/")
    screenshot(page, "table-desktop-start")


# A fixed deal (unrated games may choose their seed): the person at seat 0 is the first
# Ruler; in hand 2 the two heuristic bots before them pass, so they decide sin or pass.
# Clicking the first edict and then always the first playable card, hand 1 ends with one
# payment and hand 2 with three (deterministic: bots draw from the seed and the move count).
SEED = "browser-hand-2"
HEURISTIC_BOTS = [(1, "heuristic"), (2, "heuristic"), (3, "heuristic")]


def _at_the_fixed_deal(
    live_server: Any, new_page: Any, django_user_model: Any, *, javascript: bool
) -> tuple[Game, Any]:
    """A signed-in player's page at a sandbox game of the fixed deal (seat 0, heuristic
    bots in the other seats)."""
    user = django_user_model.objects.create_user(username="ruler", password="pw")
    game = services.game_create(
        creator=user, player_count=4, rated=False, seed=SEED, bots=HEURISTIC_BOTS
    )
    page = new_page(javascript=javascript)
    log_in(page, live_server.url, "ruler")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return game, page


def _play_cards_until_settled(page: Any, hand: int) -> int:
    """Click the first playable card whenever it is my turn until the hand is settled (the
    table then stays on the hand that ended until I move on)."""
    played = 0
    settled = page.locator("#hand-over h2", has_text=f"Hand {hand} is over")
    for _ in range(200):
        if settled.count():
            return played
        if page.locator("#hand button.card:not([disabled])").count():
            assert take_one_step(page) == "card"
            played += 1
        else:
            page.wait_for_timeout(200)
    raise AssertionError(f"hand {hand} was not settled after {played} cards")


def test_a_whole_hand_by_clicking_edict_sin_or_pass_cards_and_the_settlement(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    game, page = _at_the_fixed_deal(live_server, new_page, django_user_model, javascript=True)
    # Hand 1: I am the Ruler and choose an edict from the row.
    expect(page.locator("#status")).to_contain_text("Your turn")
    first_edict = page.locator("#edicts article.edict").first
    title = first_edict.locator("h3").inner_text()
    screenshot(page, "hand-1-edict-row")
    assert take_one_step(page) == "edict"
    expect(page.locator("#edicts h2")).to_have_text("Edicts in force")
    expect(page.locator("#edicts article.force h3").first).to_have_text(title)
    cards_1 = _play_cards_until_settled(page, 1)
    assert cards_1 == 9  # every card of my hand, one per trick
    payments = page.locator("#hand-over .payments li")
    expect(payments).to_have_count(1)
    expect(payments.first).to_contain_text("paid")
    expect(payments.first).to_contain_text(re.compile(r"\d+ florins? \("))
    screenshot(page, "hand-1-settlement")
    page.get_by_role("button", name="Continue to hand 2").click()
    expect(page.locator("#hand-over")).to_have_count(0)
    # Hand 2: seat 1 rules; the bots at seats 2 and 3 passed, now I decide: pass.
    expect(page.locator("#hand .controls button.sin")).to_be_visible(timeout=45_000)
    assert take_one_step(page) == "control"  # pass (not the sin button)
    expect(page.locator("#hand .controls")).to_have_count(0)
    cards_2 = _play_cards_until_settled(page, 2)
    assert 1 <= cards_2 <= 9  # the hand may end early once its outcome is certain
    expect(page.locator("#hand-over .payments li")).to_have_count(3)
    settlement = selectors.hand_settlements(game=game)
    assert [len(s.payments) for s in settlement] == [1, 3]
    for payment in settlement[1].payments:
        unit = "florin" if payment["owed"] == 1 else "florins"  # "1 florin", "5 florins"
        expect(page.locator("#hand-over")).to_contain_text(f" {payment['owed']} {unit} (")
    mine = Move.objects.filter(game=game, seat=0)
    assert mine.filter(action__type="choose_edict").count() == 1
    assert mine.filter(action__type="pass").count() == 1
    assert mine.filter(action__type="play").count() == cards_1 + cards_2
    screenshot(page, "table-desktop-settlement")
    page.set_viewport_size(PHONE)
    screenshot(page, "table-phone-settlement")


MOVE = "#edicts button, #hand .controls button, #hand button.card:not([disabled])"


def _plain_steps(page: Any, base_url: str, game: Game, moves: int) -> int:
    """Without JavaScript, make ``moves`` moves by plain form posts, whatever is offered
    (an edict, sin or pass, a card), and "Continue" after a hand; returns how many times
    a hand ended on the way. Bots answer inside each post (eager tasks), so every page
    offers my next step."""
    made = hands_over = 0
    while made < moves:
        go_on = page.locator("#continue")
        if go_on.count():  # the hand is over; its summary stays until I move on
            hands_over += 1
            assert hands_over <= 2, "Continue did not move on to the next hand"
            go_on.click()
            page.wait_for_load_state()
            expect(page.locator("#continue")).to_have_count(0)
            continue
        before = Game.objects.get().version
        page.locator(MOVE).first.click()
        page.wait_for_load_state()
        expect(page).to_have_url(f"{base_url}/games/{game.pk}/")
        assert Game.objects.get().version > before
        assert table_version(page) == Game.objects.get().version
        made += 1
    expect(page.locator(".error")).to_have_count(0)
    return hands_over


def test_the_table_can_be_played_without_javascript(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    # A random deal: about 3% of first hands end (their outcome certain) within my first
    # five moves, and the table then offers "Continue" before any move (seen twice in CI).
    django_user_model.objects.create_user(username="plain", password="pw")
    page = new_page(javascript=False)
    log_in(page, live_server.url, "plain")
    page.get_by_role("button", name="Play Indulgence now against 3 bots").click()
    game = Game.objects.get()
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    _plain_steps(page, live_server.url, game, 6)


def test_without_javascript_a_whole_hand_then_continue_then_the_next_hand(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    game, page = _at_the_fixed_deal(live_server, new_page, django_user_model, javascript=False)
    # Hand 1 of this deal: my edict and my 9 cards; then hand 2's sin-or-pass.
    assert _plain_steps(page, live_server.url, game, 11) == 1
    assert selectors.hand_settlements(game=game)[0].payments
