"""Issue 26, item 2 (high): chosen seeds.

Before the fix an unrated game could be created with a ``seed`` its creator chose, which
lets the creator compute every deal offline, and other people could join it without being
told; and the server's own seeds were 128 bits committed to by an unsalted sha256, while a
short chosen seed ("7") is found from its commitment at once. Now a chosen-seed game is a
sandbox (the creator and built-in bots only, marked in the API, lobby and table), and every
game another person can join has a 256-bit seed drawn by the server.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game, Invitation
from tests.api.support import assert_error, game_url

pytestmark = pytest.mark.django_db

BOTS = [{"seat": 1, "bot": "random"}, {"seat": 2, "bot": "random"}]


def test_a_chosen_seed_game_is_a_sandbox_marked_in_the_api(owner: Any, bearer: Any) -> None:
    client = bearer(owner)
    body = {"player_count": 3, "rated": False, "seed": "7", "bots": BOTS}
    created = client.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["sandbox"] is True
    listed = client.get("/api/v1/games/?mine=true").json()["results"]
    assert [g["sandbox"] for g in listed] == [True]


@pytest.mark.parametrize(
    "extra",
    [{}, {"bots": BOTS[:1]}, {"bots": BOTS[:1], "invite": ["opponent"]}],
    ids=["open seats", "one open seat", "an invitation"],
)
def test_no_other_person_can_be_seated_at_a_chosen_seed_game(
    owner: Any, opponent: Any, bearer: Any, extra: dict[str, Any]
) -> None:
    body = {"player_count": 3, "rated": False, "seed": "7", **extra}
    response = bearer(owner).post("/api/v1/games/", body, format="json")
    assert "sandbox" in assert_error(response, 400, "invalid_request")["detail"]
    assert not Game.objects.exists()
    assert not Invitation.objects.exists()


def test_an_open_sandbox_from_before_cannot_be_joined(
    owner: Any, opponent: Any, bearer: Any
) -> None:
    # Games made before the fix with a chosen seed and open seats are marked sandboxes by
    # migration 0011; nobody else may take their seats, over the API or the web.
    game = services.game_create(creator=owner, player_count=3, rated=False)
    Game.objects.filter(pk=game.pk).update(sandbox=True, seed="7")
    response = bearer(opponent).post(game_url(game, "join"), format="json")
    assert "sandbox" in assert_error(response, 403, "forbidden")["detail"]
    web = Client()
    web.force_login(opponent)
    web.post(f"/games/{game.pk}/join")
    game.refresh_from_db()
    assert game.seats.count() == 1
    lobby = web.get("/lobby/").content.decode()
    assert f"Join game {game.pk}" not in lobby


def test_the_table_and_lobby_say_sandbox(owner: Any) -> None:
    game = services.game_create(
        creator=owner, player_count=3, rated=False, seed="7", bots=[(1, "random"), (2, "random")]
    )
    web = Client()
    web.force_login(owner)
    assert "sandbox (chosen seed)" in web.get(f"/games/{game.pk}/").content.decode()
    assert "sandbox (chosen seed)" in web.get("/lobby/").content.decode()


def test_a_joinable_game_has_a_256_bit_server_seed(owner: Any, bearer: Any) -> None:
    seeds = set()
    for _ in range(3):
        created = bearer(owner).post("/api/v1/games/", {"player_count": 3}, format="json").json()
        game = Game.objects.get(pk=created["id"])
        assert re.fullmatch(r"[0-9a-f]{64}", game.seed)  # 256 random bits
        assert created["seed_commitment"] == hashlib.sha256(game.seed.encode()).hexdigest()
        assert created["sandbox"] is False
        seeds.add(game.seed)
    assert len(seeds) == 3
