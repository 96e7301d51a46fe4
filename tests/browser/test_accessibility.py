"""axe-core (shipped in the axe-playwright-python wheel, no network) finds no serious or
critical violation on the main pages; the table page fits its transfer budget."""

from __future__ import annotations

import gzip
import random
from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest
from playwright.sync_api import Page

from games import services
from games.models import Game
from tests.browser.conftest import PHONE, screenshot
from tests.browser.helpers import log_in
from tests.helpers import play_humans_until
from tests.web.test_first_game import drive, hand_settled, my_sin_decision_after_a_pass

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE_JS = Path(axe_playwright_python.__file__).with_name("axe.min.js")
PAGE_BUDGET = 60 * 1024  # bytes, gzip, everything the table page downloads


def axe_problems(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE_JS))
    result = page.evaluate("async () => await axe.run(document)")
    assert result["passes"], "axe-core ran no check"
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


BOTS = [(1, "random"), (2, "random")]
BOTS4 = [(1, "random"), (2, "random"), (3, "random")]


@pytest.fixture
def live_game(django_user_model: Any) -> Game:
    user = django_user_model.objects.create_user(username="reader", password="pw")
    return services.game_create(creator=user, player_count=3, rated=False, seed="axe", bots=BOTS)


@pytest.fixture
def finished_and_live_games(live_game: Game) -> tuple[Game, Game]:
    user = live_game.created_by
    finished = services.game_create(
        creator=user, player_count=3, rated=False, seed="axe-finished", bots=BOTS
    )
    play_humans_until(finished, {0: user})
    return finished, live_game


def test_the_main_pages_have_no_serious_accessibility_violations(
    live_server: Any, new_page: Any, finished_and_live_games: tuple[Game, Game]
) -> None:
    finished, live = finished_and_live_games
    user = live.created_by
    # Issue 21: the end of a hand (paused on it) and a sin decision, against bots.
    paused, deciding = (
        services.game_create(creator=user, player_count=4, rated=False, seed=seed, bots=BOTS4)
        for seed in ("axe-paused", "axe-sin")
    )
    drive(paused, {0: user}, hand_settled(1), rng=random.Random(4))
    drive(deciding, {0: user}, my_sin_decision_after_a_pass, rng=random.Random(3))
    page = new_page(bypass_csp=True)
    log_in(page, live_server.url, "reader")
    paths = {
        "home": "/",
        "lobby": "/lobby/",
        "table": f"/games/{live.pk}/",
        "hand over": f"/games/{paused.pk}/",
        "sin decision": f"/games/{deciding.pk}/",
        "game over": f"/games/{finished.pk}/",
        "history": f"/games/{finished.pk}/history",
        "replay": f"/games/{finished.pk}/replay?move=40",
        "settings": "/settings/",
        "profile": "/players/reader/",
        "play now": "/play-now",
        "rules": "/rules/",
        "leaderboard": "/leaderboard/",
    }
    problems = {}
    for name, path in paths.items():
        page.goto(live_server.url + path)
        found = axe_problems(page)
        if found:
            problems[name] = found
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{live.pk}/")
    if found := axe_problems(page):
        problems["table on a phone"] = found
    screenshot(page, "table-phone-axe")
    page.goto(f"{live_server.url}/games/{finished.pk}/replay?move=40")
    screenshot(page, "replay-phone")
    assert problems == {}


def test_the_table_page_fits_in_60_kb_transferred(
    live_server: Any, new_page: Any, live_game: Game
) -> None:
    live = live_game
    page = new_page(bypass_csp=True)
    log_in(page, live_server.url, "reader")
    bodies: dict[str, bytes] = {}

    def keep(response: Any) -> None:
        if response.request.resource_type in ("document", "stylesheet", "script", "image"):
            bodies[response.url] = response.body()

    page.on("response", keep)
    page.goto(f"{live_server.url}/games/{live.pk}/", wait_until="networkidle")
    page.remove_listener("response", keep)
    kinds = {url.rsplit("/", 1)[-1] for url in bodies}
    assert {"site.css", "htmx-2.0.11.min.js", "htmx-ext-sse-2.2.4.min.js", "table.js"} <= kinds
    transferred = sum(len(gzip.compress(body, 9)) for body in bodies.values())
    print(f"table page transferred (gzip): {transferred} bytes")
    assert transferred <= PAGE_BUDGET, {url: len(gzip.compress(b, 9)) for url, b in bodies.items()}
