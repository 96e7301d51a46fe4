"""Players report a problem with a game from the table; staff review it (tests/disputes)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Dispute, Game
from tests.helpers import game_with_seed
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(owner: Any, opponent: Any, third: Any) -> Game:
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="web-dispute")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


def test_a_seated_player_is_offered_the_dispute_form(game: Game, owner: Any) -> None:
    page = client_for(owner).get(f"/games/{game.pk}/").content.decode()
    assert "Report a problem with this game" in page
    assert f'action="/games/{game.pk}/dispute"' in page


def test_a_spectator_is_not_offered_the_form(game: Game, outsider: Any, client: Client) -> None:
    for viewer in (client_for(outsider), client):
        assert (
            "Report a problem with this game"
            not in viewer.get(f"/games/{game.pk}/").content.decode()
        )


def test_sending_a_dispute_opens_it_and_shows_its_status(game: Game, opponent: Any) -> None:
    player = client_for(opponent)
    response = player.post(f"/games/{game.pk}/dispute", {"reason": "A bot played out of turn."})
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/#disputes"
    dispute = Dispute.objects.get(game=game)
    assert (dispute.opened_by, dispute.reason, dispute.status) == (
        opponent,
        "A bot played out of turn.",
        "open",
    )
    page = player.get(f"/games/{game.pk}/").content.decode()
    assert "Your dispute was sent to the staff" in page
    assert "A bot played out of turn." in page


def test_an_empty_reason_is_refused_with_the_reason(game: Game, owner: Any) -> None:
    player = client_for(owner)
    player.post(f"/games/{game.pk}/dispute", {"reason": "   "})
    assert not Dispute.objects.exists()
    assert "the reason may not be empty" in player.get(f"/games/{game.pk}/").content.decode()


def test_an_outsider_cannot_dispute(game: Game, outsider: Any) -> None:
    client_for(outsider).post(f"/games/{game.pk}/dispute", {"reason": "I was watching."})
    assert not Dispute.objects.exists()


def test_the_disputes_section_speaks_japanese(game: Game, third: Any) -> None:
    services.player_language_set(user=third, language="ja")
    player = client_for(third)
    player.post(f"/games/{game.pk}/dispute", {"reason": "おかしい"})
    page = player.get(f"/games/{game.pk}/").content.decode()
    assert "異議をスタッフに送りました" in page
    assert "募集中" in page  # the dispute's status, "Open"
