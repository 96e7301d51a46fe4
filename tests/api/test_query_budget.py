"""How many SQL statements a game view and a move cost (docs/performance.md, "What the
move costs"): every statement is a round trip to PostgreSQL and ORM work in the web
process, so a change that adds one to the hot paths should be a decision, not an accident.

Counted inside the test's transaction, where the service's ``transaction.atomic`` is a
SAVEPOINT/RELEASE pair instead of BEGIN/COMMIT: the same number of statements.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, Game, IdempotencyRecord, Move, Notification, TurnReminder
from tests.api.conftest import Bearer
from tests.api.support import game_url, three_player_game

pytestmark = pytest.mark.django_db

GET_VIEW = 3  # the token, the game (with its adjustment flag), the seats with accounts
# The token; SAVEPOINT; the locked game (with the key's earlier record); the seats (with
# the accounts' preferences and has-webhook flags); ONE statement for every write
# (games.compiled.batched: the move, the game's update, the answer's record, the move
# event, the next player's lock, their notification and its account event); RELEASE.
MOVE_WITH_KEY_THAT_NOTIFIES = 6
# What that one statement does, table by table.
BATCHED_WRITES = (
    'INSERT INTO "games_move"',
    'UPDATE "games_game"',
    'INSERT INTO "games_idempotencyrecord"',
    'FROM "auth_user"',  # the lock, before the account event takes its id
    'INSERT INTO "games_notification"',
    'INSERT INTO "games_event"',
)


def statements(call: Any) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        result = call()
    return result, [query["sql"] for query in captured.captured_queries]


def test_a_view_and_a_move_stay_within_their_statement_budget(
    game: Game, owner: Any, opponent: Any, third: Any, bearer: Bearer
) -> None:
    players = [owner, opponent, third]
    assert game.to_act_seat is not None
    actor = bearer(players[game.to_act_seat])
    actor.get(game_url(game))  # the token's first use also records last_used_at

    response, reads = statements(lambda: actor.get(game_url(game)))
    assert response.status_code == 200
    assert len(reads) == GET_VIEW, "\n".join(reads)

    view = response.json()
    notified_before = Notification.objects.count()
    moves_before, events_before = Move.objects.count(), Event.objects.count()
    body = {"action": view["legal_actions"][0], "version": view["version"]}

    def act() -> Any:
        return actor.post(
            game_url(game, "actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="budget-1"
        )

    answer, writes = statements(act)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["to_act"] != game.to_act_seat  # the turn passed: a notification
    assert Notification.objects.count() == notified_before + 1
    assert len(writes) == MOVE_WITH_KEY_THAT_NOTIFIES, "\n".join(w[:120] for w in writes)
    assert not [w for w in writes if w.startswith('SELECT "games_webhook')]  # none to read
    [batch] = [w for w in writes if w.startswith("WITH ")]
    assert all(part in batch for part in BATCHED_WRITES), batch
    assert "FOR UPDATE" in batch
    # Every row is there, the account event pointing at the notification the inbox lists.
    assert Move.objects.count() == moves_before + 1
    assert Event.objects.count() == events_before + 2  # the game's move event, the account's
    notification = Notification.objects.latest("id")
    account_event = Event.objects.filter(user=notification.user).latest("id")
    assert account_event.payload["notification"] == notification.pk
    assert IdempotencyRecord.objects.get(key="budget-1").response == answer.json()

    # The repeat is answered from the record read by the game's own query: no move.
    replay, repeated = statements(act)
    assert replay.status_code == 200
    assert replay.json() == answer.json()
    assert len(repeated) <= 4, "\n".join(repeated)  # token, SAVEPOINT, game, RELEASE


def test_a_move_in_a_timed_game_adds_its_reminder_within_the_same_statement(
    owner: Any, opponent: Any, third: Any, bearer: Bearer
) -> None:
    game = three_player_game(owner, opponent, third, turn_timeout_seconds=3600)
    players = [owner, opponent, third]
    assert game.to_act_seat is not None
    actor = bearer(players[game.to_act_seat])
    view = actor.get(game_url(game)).json()
    body = {"action": view["legal_actions"][0], "version": view["version"]}
    answer, writes = statements(
        lambda: actor.post(
            game_url(game, "actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="timed-1"
        )
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["to_act"] != game.to_act_seat
    assert len(writes) == MOVE_WITH_KEY_THAT_NOTIFIES, "\n".join(w[:120] for w in writes)
    reminder = TurnReminder.objects.get(game=game, version=answer.json()["version"])
    assert reminder.seat == answer.json()["to_act"]
    assert reminder.sent_at is None
