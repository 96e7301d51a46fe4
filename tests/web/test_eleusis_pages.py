"""The pages dispatch per game (issue 24): the lobby's create form of each game, a New
Eleusis table (its own template, the seat's view, its forms posting to the same address),
its replay and rules page; Indulgence's pages as they were."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games import selectors
from games.models import Game, GameStatus
from tests.helpers import server_steps
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_lobby_offers_each_games_create_form(owner_client: Client) -> None:
    indulgence = owner_client.get("/lobby/").content.decode()
    assert 'name="game_type" value="indulgence"' in indulgence
    assert 'name="seat_3"' in indulgence
    assert 'name="seat_4"' not in indulgence
    eleusis = owner_client.get("/lobby/?game=eleusis").content.decode()
    assert 'name="game_type" value="eleusis"' in eleusis
    assert 'value="novice"' in eleusis
    assert 'value="heuristic"' not in eleusis
    assert 'name="seat_9"' in eleusis
    assert 'value="standard"' in eleusis


def test_a_new_eleusis_game_is_created_from_the_lobby_and_played_at_its_table(
    owner: Any,
) -> None:
    client = client_for(owner)
    response = client.post(
        "/games/new",
        {
            "game_type": "eleusis",
            "player_count": "4",
            "variant": "standard",
            "seat_1": "novice",
            "seat_2": "novice",
            "seat_3": "novice",
        },
    )
    assert response.status_code == 302, response.content[:500]
    game = Game.objects.get()
    assert (game.game_type, game.variant, game.status) == ("eleusis", "standard", "in_progress")
    for _ in range(200):
        server_steps(game)
        if game.status != GameStatus.IN_PROGRESS:
            break
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert "New Eleusis, game" in page
        view = selectors.game_view(game=game, user=owner)
        for card in view["my_hand"] or []:
            assert card in page  # the seat's own hand is shown
        if view["phase"] == "turn":  # the hand's form: tick a card, play it
            card = view["my_hand"][0]
            assert f'name="cards" value="{card}"' in page
            data = {"do": "play", "cards": [card]}
        elif view["phase"] == "rule_setup":  # the editor's ready rules
            data = {"action": json.dumps({"type": "library_rule", "difficulty": "easy"})}
            assert "A ready rule, easy" in page
        else:  # every other explicit action is a button posting its JSON
            action = next(a for a in view["legal_actions"] if "template" not in a)
            button = json.dumps(action, separators=(",", ":"), sort_keys=True)
            assert button.replace('"', "&quot;") in page
            data = {"action": button}
        answer = client.post(
            f"/games/{game.pk}/act",
            {**data, "version": str(view["version"])},
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 200, answer.content[:300]
        game.refresh_from_db()
        if game.move_count > 12:
            break
    assert game.move_count > 12 or game.status == GameStatus.FINISHED


def test_the_rules_page_of_each_game(client: Client) -> None:
    assert "Rules of New Eleusis" in client.get("/rules/eleusis/").content.decode()
    assert client.get("/rules/indulgence/").status_code == 200
    assert client.get("/rules/").status_code == 200
    assert client.get("/rules/chess/").status_code == 404
