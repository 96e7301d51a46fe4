"""Issue 21, item 5 on the site: the creator of a game nobody played may abort it from
its table, and sandboxes are not listed in the public lobby."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import selectors, services
from games.models import Game, GameStatus
from tests.web.conftest import client_for
from tests.web.test_first_game import text_of

pytestmark = pytest.mark.django_db


def test_the_creator_aborts_a_fresh_game_from_its_table(owner: Any, opponent: Any) -> None:
    game = services.game_create(creator=owner, player_count=3)
    client = client_for(owner)
    page = text_of(client.get(f"/games/{game.pk}/"))
    assert "No person has moved in this game yet, so you, its creator, may call it off." in page
    assert f"Game {game.pk}" in text_of(client_for(opponent).get("/lobby/"))
    response = client.post(f"/games/{game.pk}/abort")
    assert response.status_code == 302
    assert response["Location"] == "/lobby/"
    game.refresh_from_db()
    assert game.status == GameStatus.VOID
    lobby = text_of(client.get("/lobby/"))
    assert f"Game {game.pk} was aborted." in lobby
    assert f"Game {game.pk}" not in text_of(client_for(opponent).get("/lobby/"))


def test_a_play_now_game_is_abortable_until_its_player_moves(owner: Any) -> None:
    client = client_for(owner)
    client.post("/play-now")
    game = Game.objects.get()
    assert "Abort game" in text_of(client.get(f"/games/{game.pk}/"))
    while game.to_act_seat not in (0, None):  # no on_commit in these tests: bots by hand
        services.bot_turn_play(game_id=game.pk, expected_version=game.version)
        game.refresh_from_db()
    view = selectors.game_view(game=game, user=owner)
    services.action_submit(
        game_id=game.pk, user=owner, action=view["legal_actions"][0], expected_version=game.version
    )
    page = text_of(client.get(f"/games/{game.pk}/"))
    assert "Abort" not in page
    client.post(f"/games/{game.pk}/abort")
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS
    assert "can no longer be aborted" in text_of(client.get(f"/games/{game.pk}/"))


def test_others_are_not_offered_the_button_and_are_refused(
    owner: Any, opponent: Any, outsider: Any
) -> None:
    game = services.game_create(creator=owner, player_count=3)
    services.game_join(game_id=game.pk, user=opponent)
    for user in (opponent, outsider):
        client = client_for(user)
        assert "Abort" not in text_of(client.get(f"/games/{game.pk}/"))
        client.post(f"/games/{game.pk}/abort")
        assert "Only the player who created a game may abort it." in text_of(
            client.get(f"/games/{game.pk}/")
        )
    assert Client().post(f"/games/{game.pk}/abort").status_code == 302  # to log in
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_a_sandbox_is_listed_to_its_creator_only(owner: Any, outsider: Any) -> None:
    sandbox = services.game_create(
        creator=owner, player_count=3, rated=False, seed="s-1", bots=[(1, "random"), (2, "random")]
    )
    assert sandbox.status == GameStatus.IN_PROGRESS
    watched = services.game_create(
        creator=owner, player_count=3, bots=[(1, "random"), (2, "random")]
    )
    public = text_of(client_for(outsider).get("/lobby/"))
    assert f"Watch game {watched.pk}" in public
    assert f"game {sandbox.pk}" not in public.lower()
    assert f"Game {sandbox.pk}" in text_of(client_for(owner).get("/lobby/"))  # my games
    assert "This sandbox is yours alone" in text_of(client_for(owner).get(f"/games/{sandbox.pk}/"))
