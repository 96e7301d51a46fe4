"""games.compiled: an ORM query compiled once, run again with new arguments, must give
exactly what the ORM gives (fields, select_related objects, converted annotations)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import F, QuerySet, signals
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import compiled, notifications, selectors, services, write_plans
from games.compiled import CompiledQuery
from games.models import Event, Game, Seat
from games.services import store
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db


def started_game(users: list[Any], seed: str) -> Game:
    game = game_with_seed(creator=users[0], player_count=3, rated=False, seed=seed)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def same_instance(a: Any, b: Any) -> None:
    assert type(a) is type(b)
    for field in type(a)._meta.concrete_fields:
        assert getattr(a, field.attname) == getattr(b, field.attname), field.name


@pytest.fixture
def users(owner: Any, opponent: Any, third: Any) -> list[Any]:
    return [owner, opponent, third]


def test_the_locked_game_with_a_key_record_is_what_the_orm_reads(users: list[Any]) -> None:
    game = started_game(users, "compiled-1")
    mover = users[game.to_act_seat or 0]
    action = selectors.game_view(game=game, user=mover)["legal_actions"][0]
    services.action_submit(
        game_id=game.pk,
        user=mover,
        action=action,
        expected_version=game.version,
        idempotency_key="key-1",
    )
    for key in ("key-1", "no-such-key"):
        with transaction.atomic():
            locked = store.GAME_LOCKED_WITH_KEY.first(game.pk, mover.pk, key)
            orm = store.games_locked_with_key(game.pk, mover.pk, key).first()
        assert locked is not None
        assert orm is not None
        same_instance(locked, orm)
        assert isinstance(locked.snapshot, dict)  # JSON decoded, as the ORM does
        for name in ("has_florin_adjustments", "idempotent_hash", "idempotent_response"):
            assert getattr(locked, name) == getattr(orm, name), name
    with transaction.atomic():
        found = store.GAME_LOCKED_WITH_KEY.first(game.pk, mover.pk, "key-1")
    assert found is not None
    assert isinstance(found.idempotent_response, dict)  # type: ignore[attr-defined]
    assert found.idempotent_response["version"] == game.version + 1  # type: ignore[attr-defined]


def test_each_call_runs_with_its_own_arguments(users: list[Any], make_user: Any) -> None:
    first = started_game(users, "compiled-2")
    others = [make_user(f"other-{i}") for i in range(3)]
    second = started_game(others, "compiled-3")
    with transaction.atomic():
        assert store.lock_game(first.pk).pk == first.pk
        assert store.lock_game(second.pk).pk == second.pk
        assert store.GAME_LOCKED.first(10**9) is None


def test_seats_come_with_their_accounts_and_game_in_one_query(users: list[Any]) -> None:
    game = started_game(users, "compiled-4")
    orm = list(game.seats.select_related("player__user").order_by("number"))
    with CaptureQueriesContext(connection) as queries:
        seats = selectors.seats_of_game(game)
        names = [seat.player.user.username for seat in seats]
        games = {seat.game.pk for seat in seats}
    assert len(queries) == 1
    assert names == [u.username for u in users]
    assert games == {game.pk}
    for seat, expected in zip(seats, orm, strict=True):
        same_instance(seat, expected)
        same_instance(seat.player, expected.player)
        same_instance(seat.player.user, expected.player.user)


def test_the_notified_account_is_read_with_its_preferences(users: list[Any]) -> None:
    owner = users[0]
    player = services.player_ensure(user=owner)
    player.notification_preferences = {"email_your_turn": False}
    player.save()
    with transaction.atomic():
        (locked,) = notifications._USER_LOCKED(owner.pk)
        (orm,) = notifications._users_locked([owner.pk])
    same_instance(locked, orm)
    assert locked.player.notification_preferences == {"email_your_turn": False}
    assert locked.has_webhooks is False  # type: ignore[attr-defined]


def test_the_sql_is_compiled_once_per_process(users: list[Any]) -> None:
    game = started_game(users, "compiled-5")
    query: CompiledQuery[Seat] = CompiledQuery(
        lambda game_id: Seat.objects.filter(game_id=game_id).order_by("number"), int
    )
    with mock.patch.object(query, "_compile", wraps=query._compile) as compile_calls:
        assert [s.number for s in query(game.pk)] == [0, 1, 2]
        assert [s.number for s in query(game.pk)] == [0, 1, 2]
        assert query(-5) == []
    assert compile_calls.call_count == 1


def test_a_sentinel_the_lookup_rewrites_is_refused_when_built() -> None:
    def build(name: str) -> QuerySet[Any]:
        return get_user_model().objects.filter(username__contains=name)

    with pytest.raises(ValueError, match="does not reach the SQL unchanged"):
        CompiledQuery(build, str)("x")


def test_the_wrong_number_of_arguments_is_refused() -> None:
    with pytest.raises(TypeError):
        store.GAME_LOCKED(1, 2)


@pytest.mark.postgres
def test_a_locking_query_outside_a_transaction_is_refused_as_the_orm_refuses_it(
    users: list[Any],
) -> None:
    game = started_game(users, "compiled-6")
    query = CompiledQuery(lambda pk: Game.objects.select_for_update().filter(pk=pk), int)
    with transaction.atomic():
        assert query.first(game.pk) is not None  # compiled inside a transaction
    # Under pytest-django the test runs in a transaction: leave it to see autocommit.
    with (
        mock.patch.object(connection, "get_autocommit", return_value=True),
        pytest.raises(TransactionManagementError),
    ):
        query.first(game.pk)


def test_an_inserted_row_reads_back_as_the_orm_would_have_stored_it(users: list[Any]) -> None:
    game = started_game(users, "compiled-7")
    event = Event(game=game, type="move", version=7, payload={"a": [1, "é"]}, seat_payloads={})
    compiled.insert(event)
    assert event.pk is not None
    assert not event._state.adding
    stored = Event.objects.get(pk=event.pk)
    assert (stored.game_id, stored.type, stored.version) == (game.pk, "move", 7)
    assert stored.payload == {"a": [1, "é"]}
    assert stored.created_at == event.created_at  # auto_now_add filled in, as save() does
    orm = Event.objects.create(game=game, type="move", version=8, payload={}, seat_payloads={})
    assert orm.pk > event.pk  # the same sequence


def test_an_update_writes_only_the_named_fields(users: list[Any]) -> None:
    game = started_game(users, "compiled-8")
    Game.objects.filter(pk=game.pk).update(turn_timeout_seconds=999)  # a field not named
    game.version += 5
    game.move_count += 2
    compiled.update(game, ["version", "move_count"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.move_count) == (game.version, game.move_count)
    assert stored.turn_timeout_seconds == 999


def test_an_update_of_a_row_that_is_gone_fails_as_save_does(users: list[Any]) -> None:
    game = started_game(users, "compiled-9")
    event = Event.objects.create(game=game, type="move", version=1, payload={}, seat_payloads={})
    Event.objects.filter(pk=event.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        compiled.update(event, ["version"])


def test_expressions_and_signal_receivers_take_the_orm_path(users: list[Any]) -> None:
    game = started_game(users, "compiled-10")
    before = game.version
    game.version = F("version") + 1
    compiled.update(game, ["version"])
    game.refresh_from_db()
    assert game.version == before + 1
    seen: list[Any] = []

    def receiver(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    signals.post_save.connect(receiver, sender=Event)
    try:
        event = Event(game=game, type="move", version=1, payload={}, seat_payloads={})
        compiled.insert(event)
    finally:
        signals.post_save.disconnect(receiver, sender=Event)
    assert seen == [event]


@pytest.mark.filterwarnings("ignore:DateTimeField .* received a naive datetime")
def test_parameters_are_what_the_orm_would_send(users: list[Any]) -> None:
    """The shortcut past Django's per-field preparation (values it returns unchanged) must
    send exactly what the ORM sends, odd values included (a lazy string, a bool where an
    int goes, a naive datetime, which Django makes aware)."""
    from datetime import datetime

    from django.utils import timezone
    from django.utils.translation import gettext_lazy

    from games.models import IdempotencyRecord, Move, Notification

    game = started_game(users, "compiled-params")
    odd = Notification(
        user=users[0],
        kind="your_turn",
        game=game,
        title=gettext_lazy("Your turn"),  # a Promise, not a str
        email_attempts=True,  # a bool where an int goes
        email_due_at=datetime(2026, 1, 1, 12, 0),  # naive
    )
    plain = Move(game=game, seq=1, seat=None, action={"type": "pass"}, actor_kind="human")
    plain.version_after = 1
    account_event = Event(user_id=users[1].pk, type="your_turn", version=3, payload={"a": 1})
    record = IdempotencyRecord(
        user=users[0], key="k", game=game, request_hash="h", response={"id": 1}
    )
    now = timezone.now()
    for obj in (odd, plain, account_event, record):
        plan = write_plans._insert_plan(type(obj), connection, "default", None)
        with mock.patch.object(timezone, "now", return_value=now):  # auto_now_add, twice
            shortcut = write_plans._params(plan, obj, connection, adding=True)
            orm = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in plan.fields]
        assert shortcut is not None
        assert [repr(v) for v in shortcut] == [repr(v) for v in orm]
    compiled.update(game, store.GAME_PLAY_FIELDS)  # builds the game's update plan
    [plan] = [
        p
        for key, p in write_plans._WRITE_PLANS.items()
        if key[:3] == ("update", Game, tuple(store.GAME_PLAY_FIELDS))
        and key[-1] == connection.vendor
    ]
    with mock.patch.object(timezone, "now", return_value=now):
        shortcut = write_plans._params(plan, game, connection, adding=False)
        orm = [f.get_db_prep_save(f.pre_save(game, False), connection) for f in plan.fields]
    assert [repr(v) for v in shortcut or []] == [repr(v) for v in orm]
