"""A person signs up, starts a game against three bots and plays a whole hand by clicking."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import PHONE, screenshot
from tests.browser.helpers import log_in, sign_up, table_version, take_one_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_player_plays_a_whole_hand_against_three_bots(
    live_server: Any, new_page: Any
) -> None:
    page = new_page()
    sign_up(page, live_server.url, "ada")
    page.get_by_role("button", name="Play now against 3 bots").first.click()
    expect(page.locator("#table")).to_be_visible()
    game = Game.objects.get()
    assert page.url == f"{live_server.url}/games/{game.pk}/"
    screenshot(page, "table-desktop-start")
    done: list[str] = []
    for _ in range(60):
        if page.locator("#settlement").count():
            break
        step = take_one_step(page, sin=False)
        if step:
            done.append(step)
        else:
            page.wait_for_timeout(200)
    expect(page.locator("#settlement")).to_contain_text("Settlement of hand 1")
    assert "card" in done
    screenshot(page, "table-desktop-settlement")
    page.set_viewport_size(PHONE)
    screenshot(page, "table-phone-settlement")


def test_the_table_can_be_played_without_javascript(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    django_user_model.objects.create_user(username="plain", password="pw")
    page = new_page(javascript=False)
    log_in(page, live_server.url, "plain")
    page.get_by_role("button", name="Play now against 3 bots").first.click()
    game = Game.objects.get()
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    for _ in range(6):  # whatever is offered: an edict, sin or pass, a card; plain form posts
        before = Game.objects.get().version
        move = page.locator(
            "#edicts button, #hand .controls button, #hand button.card:not([disabled])"
        ).first
        move.click()
        page.wait_for_load_state()
        expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
        assert Game.objects.get().version > before
        assert table_version(page) == Game.objects.get().version
    expect(page.locator(".error")).to_have_count(0)
