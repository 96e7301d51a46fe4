"""A player plays several decisions of Pax Illuminaten by clicking in headless Chromium
(issue 25): a highlighted card of the map, then an action aimed at it; buttons for the
other decisions (payments, favor, ending the turn); the random bots answer between. Once
the table offers "Undo my last action" (15.5.2, P-79), the player takes an action back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.conftest import screenshot
from tests.browser.helpers import log_in, table_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = "browser-pax-0"


def _my_clicks(game: Game, user: Any) -> int:
    """The player's moves still in the game (an undone one is archived)."""
    return game.moves.filter(actor_user=user, archived_at=None).count()


def test_several_pax_decisions_by_clicking_the_map_and_the_buttons(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="illuminatus", password="pw")
    game = services.game_create(
        creator=user,
        game_type="pax",
        player_count=3,
        rated=False,
        seed=SEED,
        bots=[(1, "random"), (2, "random")],
        options={"round_cap": 2},
    )
    page = new_page()
    log_in(page, live_server.url, "illuminatus")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("svg.pax-map")).to_be_visible()
    map_clicks = button_clicks = undos = 0
    for _ in range(120):
        if map_clicks + button_clicks >= 8 and map_clicks >= 1 and undos >= 1:
            break
        expect(page.locator("#table .turn")).to_contain_text("Your decision", timeout=30_000)
        before = table_version(page)
        clicks_before = _my_clicks(game, user)
        undo = page.locator("#table form.undo button")
        if undo.count() and not undos:
            log_before = page.locator(".pax-log li").count()
            undo.click()
            page.wait_for_function(
                f"() => Number(document.querySelector('#table').dataset.version) > {before}",
                timeout=30_000,
            )
            undos += 1
            assert _my_clicks(game, user) == clicks_before - 1  # one action taken back
            assert game.moves.filter(archived_at__isnull=False).count() == 1
            expect(page.locator("#table .turn")).to_contain_text("Your decision")
            assert page.locator(".pax-log li").count() <= log_before
            screenshot(page, "pax-after-undo")
            continue
        targets = page.locator("svg.pax-map a.cell.target")
        if targets.count() and map_clicks <= button_clicks:
            targets.first.click()
            expect(page.locator(".picked-actions")).to_be_visible()
            if map_clicks == 0:
                screenshot(page, "pax-picked-card")
            page.locator(".picked-actions button.act").first.click()
            map_clicks += 1
        else:
            page.locator("#table ul.actions button.act").first.click()
            button_clicks += 1
        page.wait_for_function(
            f"() => Number(document.querySelector('#table').dataset.version) > {before}",
            timeout=30_000,
        )
        assert _my_clicks(game, user) == clicks_before + 1  # one atomic action per click
    assert map_clicks >= 1
    assert map_clicks + button_clicks >= 8
    assert undos == 1, "the table offered no Undo after any of the player's actions"
    expect(page.locator(".pax-log li").first).to_be_visible()
    screenshot(page, "pax-table")
