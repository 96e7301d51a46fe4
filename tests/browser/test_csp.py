"""In a real browser (Chromium), the site's pages break no rule of their
Content-Security-Policy: every violation the browser reports is recorded and there must be
none, while a person plays moves, the live stream runs, and polling takes over without it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import selectors, services
from games.models import Game
from tests.browser.helpers import log_in, table_version, take_one_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Playwright's init scripts run outside the page's policy: this one records what it blocks.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def _watched(new_page: Any) -> tuple[Page, list[str]]:
    page = new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return page, console


def _violations(page: Page, console: list[str]) -> list[str]:
    return [*page.evaluate("window.__cspViolations || []"), *console]


def test_playing_at_the_table_breaks_no_rule_of_the_policy(
    live_server: Any, new_page: Any, owner: Any
) -> None:
    game = services.game_create(
        creator=owner,
        player_count=4,
        bots=[(1, "heuristic"), (2, "heuristic"), (3, "heuristic")],
        rated=False,
        seed="browser-hand-2",
    )
    page, console = _watched(new_page)
    log_in(page, live_server.url, "owner")
    for url in ("/", "/lobby/", "/rules/", "/leaderboard/", "/settings/", "/players/owner/"):
        page.goto(f"{live_server.url}{url}")
        assert _violations(page, console) == [], url
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_function("() => window.indulgenceStreamOpen === true")
    before = table_version(page)
    for _ in range(3):
        take_one_step(page)
    page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version) > v", arg=before
    )
    expect(page.locator("#table")).to_be_visible()
    assert _violations(page, console) == []


def test_polling_without_the_stream_works_under_the_policy(
    live_server: Any, new_page: Any, owner: Any, opponent: Any, third: Any
) -> None:
    game = services.game_create(creator=owner, player_count=3, rated=False)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game = Game.objects.get(pk=game.pk)
    page, console = _watched(new_page)
    page.route("**/stream", lambda route: route.abort())  # no SSE: polling only
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "since=" in r.url else None)
    log_in(page, live_server.url, "owner")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_function("() => window.indulgenceStreamOpen === false")
    for _ in range(60):  # table.js polls every 4 s
        if 304 in polls:
            break
        page.wait_for_timeout(250)
    assert 304 in polls, polls
    shown = table_version(page)
    seats = {0: owner, 1: opponent, 2: third}
    actor = seats[game.to_act_seat]  # type: ignore[index]
    view = selectors.game_view(game=game, user=actor)
    services.action_submit(
        game_id=game.pk, user=actor, action=view["legal_actions"][0], expected_version=game.version
    )
    page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version) > v",
        arg=shown,
        timeout=15_000,
    )
    assert _violations(page, console) == []


def test_the_api_docs_and_the_admin_log_in_work_under_the_policy(
    live_server: Any, new_page: Any
) -> None:
    page, console = _watched(new_page)
    page.goto(f"{live_server.url}/api/v1/docs/")  # Swagger UI: inline blocks with the nonce
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Indulgence Online API")
    page.goto(f"{live_server.url}/admin/login/")
    expect(page.locator("#id_username")).to_be_visible()
    assert _violations(page, console) == []
