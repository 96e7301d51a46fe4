"""The Pax table's "Undo" button (the spec's 15.5.2; docs/pax.md P-79): shown to the seat
to act only while its last action can be taken back, posted by htmx with the CSRF token
and the version seen; the table comes back as it was before the action, for the player
and the others; a refusal is shown on the table; the button is in Japanese for a
Japanese player."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client as DjangoClient

from games import services
from games.models import Game, Move
from tests.api.test_pax_undo import people_game, plain_action, scout_path, to_menu

pytestmark = pytest.mark.django_db

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
BUTTON = "Undo my last action"


def _web(user: Any, *, csrf: bool = False) -> DjangoClient:
    client = DjangoClient(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def _menu_with(owner: Any, opponent: Any, want: Any, seed: str) -> Game:
    return to_menu(
        people_game(owner, opponent, seed), {0: owner, 1: opponent}, random.Random(7), want=want
    )


def test_the_button_appears_after_a_plain_action_and_takes_it_back(
    owner: Any, opponent: Any
) -> None:
    game = _menu_with(owner, opponent, lambda g: plain_action(g, 0, "influence"), "undo-web-0")
    action = plain_action(game, 0, "influence")
    assert action is not None
    web = _web(owner, csrf=True)
    before_mine = web.get(f"/games/{game.pk}/", **HTMX).content.decode()
    before_theirs = _web(opponent).get(f"/games/{game.pk}/", **HTMX).content.decode()
    services.action_submit(game_id=game.pk, user=owner, action=action)
    game.refresh_from_db()

    table = web.get(f"/games/{game.pk}/", **HTMX).content.decode()
    assert BUTTON in table
    form = re.search(r'<form class="undo"[^>]*>.*?</form>', table, re.S)
    assert form is not None
    assert f'hx-post="/games/{game.pk}/undo"' in form.group(0)
    assert f'name="version" value="{game.version}"' in form.group(0)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(0))
    assert token is not None
    assert BUTTON not in _web(opponent).get(f"/games/{game.pk}/", **HTMX).content.decode()
    assert BUTTON not in DjangoClient().get(f"/games/{game.pk}/").content.decode()

    # Without the CSRF token the post is refused; with the form's, the action is taken back.
    refused = web.post(f"/games/{game.pk}/undo", {"version": str(game.version)}, **HTMX)
    assert refused.status_code == 403
    answer = web.post(
        f"/games/{game.pk}/undo",
        {"version": str(game.version), "csrfmiddlewaretoken": token.group(1)},
        **HTMX,
    )
    assert answer.status_code == 200
    assert Move.objects.filter(game=game, archived_at__isnull=False).count() == 1
    again_mine = _web(owner).get(f"/games/{game.pk}/", **HTMX).content.decode()
    again_theirs = _web(opponent).get(f"/games/{game.pk}/", **HTMX).content.decode()
    # The tables are what they were before the action but for the version they carry
    # (and the CSRF token, masked anew on every page).
    for before, after in ((before_mine, again_mine), (before_theirs, again_theirs)):
        assert _unversioned(before) == _unversioned(after)


def _unversioned(page: str) -> str:
    page = re.sub(r'(data-version="|since=|name="version" value=")\d+', r"\1N", page)
    return re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1T", page)


def test_no_button_after_a_scout_and_a_stale_post_is_told_on_the_table(
    owner: Any, opponent: Any
) -> None:
    game = _menu_with(owner, opponent, lambda g: scout_path(g, 0), "undo-web-1")
    path = scout_path(game, 0)
    assert path is not None
    for action in path:
        services.action_submit(game_id=game.pk, user=owner, action=action)
    game.refresh_from_db()
    web = _web(owner)
    assert BUTTON not in web.get(f"/games/{game.pk}/", **HTMX).content.decode()
    answer = web.post(f"/games/{game.pk}/undo", {"version": str(game.version)}, **HTMX)
    assert answer.status_code == 409
    assert "15.5.2" in answer.content.decode()
    # Without JavaScript: back to the table, the refusal shown there.
    plain = web.post(f"/games/{game.pk}/undo", {"version": str(game.version)}, follow=True)
    assert plain.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert "15.5.2" in plain.content.decode()
    assert not Move.objects.filter(game=game, archived_at__isnull=False).exists()


def test_a_japanese_player_s_undo_button(owner: Any, opponent: Any) -> None:
    game = _menu_with(owner, opponent, lambda g: plain_action(g, 0), "undo-web-2")
    services.action_submit(game_id=game.pk, user=owner, action=plain_action(game, 0))
    services.player_language_set(user=owner, language="ja")
    text = _web(owner).get(f"/games/{game.pk}/").content.decode()
    assert 'class="undo"' in text
    assert BUTTON not in text
    assert "直前の行動を取り消す" in text
