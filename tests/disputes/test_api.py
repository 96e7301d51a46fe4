"""/api/v1/disputes: players follow their disputes; nobody else sees them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games import disputes
from games.models import Dispute, Game
from tests.disputes.conftest import Users

pytestmark = pytest.mark.django_db


def test_the_players_of_the_game_follow_a_dispute_to_its_resolution(
    client: Client,
    running_game: Game,
    players: Users,
    staff: Any,
    dispute_on: Callable[..., Dispute],
) -> None:
    dispute = dispute_on(running_game, "The timeout fired early.")
    disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
    disputes.dispute_dismiss(dispute_id=dispute.pk, staff=staff, resolution="It did not.")
    client.force_login(players[2])

    body = client.get(f"/api/v1/disputes/{dispute.pk}").json()

    assert body["status"] == "dismissed"
    assert body["resolution"] == "It did not."
    assert body["reason"] == "The timeout fired early."
    assert (body["game"], body["opened_by"]) == (running_game.pk, "opponent")
    listed = client.get("/api/v1/disputes/").json()["disputes"]
    assert [d["id"] for d in listed] == [dispute.pk]


def test_outsiders_do_not_see_the_dispute(
    client: Client, running_game: Game, outsider: Any, dispute_on: Callable[..., Dispute]
) -> None:
    dispute = dispute_on(running_game)
    assert client.get(f"/api/v1/disputes/{dispute.pk}").status_code == 401
    client.force_login(outsider)
    response = client.get(f"/api/v1/disputes/{dispute.pk}")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert client.get("/api/v1/disputes/").json() == {"disputes": []}
