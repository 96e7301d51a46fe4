"""Issue 26, item 6 (medium): staff read running games' hands through the export.

Before the fix any staff credential, a read-only token included, read the full record
(every hand, the seed) of every running game through ``/export`` and the replay page,
including games the staff member plays in. Now a running game's record is open to staff
only inside an active dispute case on it, never at a game they sit at, and every such
read is in the audit log.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import AuditAction, AuditEntry, Game
from tests.api.support import assert_error, game_url

pytestmark = pytest.mark.django_db


def _export(client: Any, game: Game) -> Any:
    return client.get(game_url(game, "export"))


def test_staff_cannot_read_a_running_games_record_outside_a_dispute(
    game: Game, staff: Any, bearer: Any
) -> None:
    for client in (bearer(staff, scopes=("read",)), bearer(staff)):
        body = assert_error(_export(client, game), 409, "game_not_finished")
        assert "dispute" in body["detail"]
    web = Client()
    web.force_login(staff)
    assert web.get(f"/games/{game.pk}/replay").status_code == 409
    assert not AuditEntry.objects.exists()


def test_staff_read_a_disputed_running_game_and_the_read_is_audited(
    game: Game, staff: Any, opponent: Any, bearer: Any
) -> None:
    dispute = services.dispute_create(game_id=game.pk, user=opponent, reason="A card vanished.")
    response = _export(bearer(staff, scopes=("read",)), game)
    assert response.status_code == 200
    assert response.json()["seed"] == Game.objects.get(pk=game.pk).seed
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor_id, entry.dispute_id) == (
        AuditAction.RECORD_READ,
        staff.pk,
        dispute.pk,
    )
    web = Client()
    web.force_login(staff)
    assert web.get(f"/games/{game.pk}/replay").status_code == 200
    assert AuditEntry.objects.filter(action=AuditAction.RECORD_READ).count() == 2


def test_staff_who_sit_at_the_game_never_read_its_record_while_it_runs(
    staff: Any, opponent: Any, third: Any, bearer: Any
) -> None:
    game = services.game_create(creator=staff, player_count=3, rated=False)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    services.dispute_create(game_id=game.pk, user=opponent, reason="A card vanished.")
    body = assert_error(_export(bearer(staff), game), 403, "forbidden")
    assert "sit at this game" in body["detail"]
    assert not AuditEntry.objects.filter(action=AuditAction.RECORD_READ).exists()


def test_players_and_outsiders_still_wait_for_the_end(
    game: Game, outsider: Any, owner: Any, bearer: Any, anonymous: Any
) -> None:
    for client in (bearer(outsider), bearer(owner), anonymous):
        assert_error(_export(client, game), 409, "game_not_finished")
