"""Once a game is over its table links the replay and the full record, for every game:
the record downloads as the API's export (anyone may read a published record)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import GameStatus
from tests.helpers import played_out
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

# A person at seat 0 and built-in bots, small enough to be played out quickly.
GAMES = {
    "indulgence": {"player_count": 3, "bots": [(1, "random"), (2, "random")]},
    "eleusis": {
        "player_count": 4,
        "bots": [(1, "novice"), (2, "novice"), (3, "novice")],
        "options": {"hand_size": 3, "sanity_walks": 20, "round_limit": 1},
    },
    "pax": {"player_count": 2, "variant": "automa-SG"},
}
LINK = re.compile(r'<a href="([^"]+)" download="game-(\d+)\.json"')


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_finished_game_links_its_replay_and_its_full_record(owner: Any, game_type: str) -> None:
    game = services.game_create(
        creator=owner, game_type=game_type, rated=False, seed="after", **GAMES[game_type]
    )
    running = client_for(owner).get(f"/games/{game.pk}/").content.decode()
    assert "Download the full record" not in running  # published once the game is over
    game = played_out(owner, game_type, seed="after", **GAMES[game_type])
    assert game.status == GameStatus.FINISHED
    for client in (client_for(owner), Client()):  # a seat, and anyone
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert f'href="/games/{game.pk}/replay"' in page
        link = LINK.search(page)
        assert link, page[-3000:]
        assert link.group(2) == str(game.pk)
        response = client.get(link.group(1))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/json")
        record = json.loads(response.content)
        assert record == json.loads(Client().get(f"/api/v1/games/{game.pk}/export").content)
        assert record["game_type"] == game_type
        assert len(record["moves"]) == game.moves.count()


def test_a_void_game_links_its_record_but_no_replay(owner: Any) -> None:
    game = services.game_create(creator=owner, rated=False, seed="after", **GAMES["indulgence"])
    services.game_abort(game_id=game.pk, user=owner)
    page = client_for(owner).get(f"/games/{game.pk}/").content.decode()
    assert LINK.search(page)
    assert "/replay" not in page


def test_a_game_called_off_before_it_started_has_no_record_to_link(owner: Any) -> None:
    game = services.game_create(creator=owner, player_count=3, rated=False)  # open seats
    services.game_abort(game_id=game.pk, user=owner)
    game.refresh_from_db()
    assert game.status == GameStatus.VOID
    page = client_for(owner).get(f"/games/{game.pk}/").content.decode()
    assert "Download the full record" not in page
    assert Client().get(f"/api/v1/games/{game.pk}/export").status_code == 409


def test_the_link_reads_in_japanese(owner: Any) -> None:
    game = played_out(owner, "indulgence", seed="after", **GAMES["indulgence"])
    services.player_language_set(user=owner, language="ja")
    page = client_for(owner).get(f"/games/{game.pk}/").content.decode()
    assert "全記録をダウンロード（JSON）" in page
