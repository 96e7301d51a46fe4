"""games.compiled.batched: the writes of a block sent as one statement must leave exactly
what sending them one by one leaves (rows, ids filled in, errors), and every other
statement must see the writes asked for before it.

PostgreSQL only: elsewhere ``batched()`` sends each write as it comes (the rest of the
suite covers that path)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from games import compiled, events, services
from games.models import Event, Game, IdempotencyRecord, Move, Notification
from tests.helpers import game_with_seed, wait_until_a_request_waits_for_a_lock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def game(owner: Any, opponent: Any, third: Any) -> Game:
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="batch")
    for user in (opponent, third):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def _notification_and_event(game: Game, user: Any, title: str) -> tuple[Notification, Event]:
    """What notifications_send writes for one account: the notification, then an account
    event that carries the notification's id (a Ref while it waits in a batch)."""
    notification = Notification(user=user, kind="your_turn", game=game, title=title)
    compiled.insert(notification)
    events.account_events_lock([user.pk])
    event = Event(
        user_id=user.pk,
        type="your_turn",
        version=game.version,
        payload={"title": title, "notification": compiled.Ref(notification)},
    )
    compiled.insert(event)
    return notification, event


def _writes(game: Game, user: Any, title: str) -> tuple[Notification, Event, Event]:
    game_event = Event(game=game, type="move", version=game.version, payload={"seq": 1})
    compiled.insert(game_event)
    game.version += 1
    compiled.update(game, ["version"])
    notification, account_event = _notification_and_event(game, user, title)
    return notification, account_event, game_event


def _stored(event: Event) -> tuple[Any, ...]:
    row = Event.objects.get(pk=event.pk)
    return (row.game_id, row.user_id, row.type, row.version, row.payload)


def test_one_statement_writes_the_rows_the_calls_write_one_by_one(game: Game, owner: Any) -> None:
    with CaptureQueriesContext(connection) as one_by_one, transaction.atomic():
        expected = _writes(game, owner, "one by one")
    with CaptureQueriesContext(connection) as batch, transaction.atomic(), compiled.batched():
        written = _writes(game, owner, "batched")
        assert written[0].pk is None  # nothing sent yet
    # SAVEPOINT, four writes and a lock, RELEASE; batched: the writes and the lock are one.
    assert len(one_by_one) == 7
    assert [q["sql"].split()[0] for q in batch.captured_queries] == ["SAVEPOINT", "WITH", "RELEASE"]

    notification, account_event, game_event = written
    assert notification.pk is not None
    assert account_event.pk is not None
    assert game_event.pk is not None
    # The Ref became the notification's id, in the row and in the object alike.
    assert account_event.payload == {"title": "batched", "notification": notification.pk}
    assert _stored(account_event)[4] == account_event.payload
    assert expected[1].payload["notification"] == expected[0].pk  # outside a batch too
    assert _stored(game_event)[:3] == _stored(expected[2])[:3]
    assert _stored(game_event)[4] == _stored(expected[2])[4]
    assert Notification.objects.get(pk=notification.pk).title == "batched"
    game.refresh_from_db()
    assert game.version == expected[2].version + 2  # both updates landed


def test_a_statement_sent_inside_the_block_first_sends_the_writes_before_it(
    game: Game,
) -> None:
    with transaction.atomic(), compiled.batched():
        event = Event(game=game, type="probe", version=1, payload={})
        compiled.insert(event)
        assert event.pk is None
        # Any other statement (here an ORM read) sees the row, as if it had been sent.
        assert Event.objects.filter(game=game, type="probe").count() == 1
        assert event.pk is not None
        game.version += 1
        compiled.update(game, ["version"])
        assert Game.objects.get(pk=game.pk).version == game.version


def test_a_foreign_key_may_point_at_a_row_written_in_the_same_statement(owner: Any) -> None:
    with transaction.atomic(), compiled.batched():
        new = Game(player_count=3, seed="s", seed_commitment="c", created_by=owner)
        compiled.insert(new)
        move = Move(
            game_id=compiled.Ref(new), seq=1, seat=0, action={}, actor_kind="human", version_after=1
        )
        compiled.insert(move)
    assert move.game_id == new.pk
    assert Move.objects.get(pk=move.pk).game_id == new.pk


def test_a_ref_to_an_object_never_written_is_refused(game: Game, owner: Any) -> None:
    orphan = Notification(user=owner, kind="your_turn", game=game, title="never saved")
    event = Event(user_id=owner.pk, type="x", payload={"notification": compiled.Ref(orphan)})
    with pytest.raises(ValueError, match="not written yet"):
        compiled.insert(event)
    with (
        transaction.atomic(),
        compiled.batched(),
        pytest.raises(ValueError, match="not written yet"),
    ):
        compiled.insert(event)


def test_a_taken_key_is_not_written_and_leaves_pk_none(game: Game, owner: Any) -> None:
    def record(response: dict[str, Any]) -> IdempotencyRecord:
        return IdempotencyRecord(
            user=owner, key="k", game=game, request_hash="h", response=response
        )

    first, again, batched = record({"n": 1}), record({"n": 2}), record({"n": 3})
    compiled.insert(first, on_conflict=("user", "key"))
    compiled.insert(again, on_conflict=("user", "key"))
    with transaction.atomic(), compiled.batched():
        compiled.insert(batched, on_conflict=("user", "key"))
    assert first.pk is not None
    assert again.pk is None
    assert batched.pk is None
    assert IdempotencyRecord.objects.get(user=owner, key="k").response == {"n": 1}


def test_an_update_of_a_row_that_is_gone_fails_when_the_batch_is_sent(game: Game) -> None:
    event = Event.objects.create(game=game, type="move", version=1, payload={})
    Event.objects.filter(pk=event.pk).delete()

    def update_in_a_batch() -> None:
        with transaction.atomic(), compiled.batched():
            compiled.update(event, ["version"])

    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update_in_a_batch()


def test_an_error_of_the_block_still_sends_its_writes_unless_it_is_the_database_s(
    game: Game,
) -> None:
    def insert_then_raise(kind: str, error: Exception) -> None:
        with compiled.batched():
            compiled.insert(Event(game=game, type=kind, version=1, payload={}))
            raise error

    with transaction.atomic():
        with pytest.raises(KeyError):
            insert_then_raise("kept", KeyError("the caller may catch this and go on"))
        assert Event.objects.filter(game=game, type="kept").exists()
    with transaction.atomic():
        with pytest.raises(DatabaseError):
            insert_then_raise("dropped", DatabaseError("the transaction is broken"))
        assert not Event.objects.filter(game=game, type="dropped").exists()


def test_a_savepoint_rolled_back_in_the_block_undoes_only_its_own_writes(game: Game) -> None:
    ran: list[list[str]] = []

    def rolled_back() -> None:
        with transaction.atomic():
            compiled.insert(Event(game=game, type="inside", version=1, payload={}))
            compiled.on_commit_grouped(ran.append, "inside")
            raise RuntimeError

    with transaction.atomic(), compiled.batched():
        compiled.insert(Event(game=game, type="before", version=1, payload={}))
        compiled.on_commit_grouped(ran.append, "before")
        with pytest.raises(RuntimeError):
            rolled_back()
        compiled.insert(Event(game=game, type="after", version=1, payload={}))
        compiled.on_commit_grouped(ran.append, "after")
        kinds = set(Event.objects.filter(game=game).values_list("type", flat=True))
    assert {"before", "after"} <= kinds
    assert "inside" not in kinds
    assert ran == []  # pytest-django's transaction never commits: hooks wait (or vanish)


@pytest.mark.django_db(transaction=True)
def test_grouped_hooks_run_once_after_commit_with_every_item_and_never_on_rollback(
    game: Game,
) -> None:
    ran: list[list[str]] = []
    with transaction.atomic(), compiled.batched():
        compiled.on_commit_grouped(ran.append, "a")
        compiled.on_commit_grouped(ran.append, "b")
        assert ran == []
    assert ran == [["a", "b"]]
    ran.clear()

    def rolled_back() -> None:
        with transaction.atomic(), compiled.batched():
            compiled.on_commit_grouped(ran.append, "rolled back")
            raise RuntimeError

    with pytest.raises(RuntimeError):
        rolled_back()
    assert ran == []
    compiled.on_commit_grouped(ran.append, "no transaction")  # runs at once, alone
    assert ran == [["no transaction"]]


def test_outside_a_transaction_a_batch_is_refused(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    def enter() -> None:
        with compiled.batched():
            pass

    monkeypatch.setattr(connection, "get_autocommit", lambda: True)
    with pytest.raises(transaction.TransactionManagementError):
        enter()


@pytest.mark.django_db(transaction=True)
def test_an_account_event_takes_its_id_only_once_its_account_is_locked(game: Game) -> None:
    """The account streams resume "after id N": an account's events must commit in id
    order. A writer holding the account's lock commits a larger id than an event whose
    batch waits for that lock could have taken before waiting; so the batch's INSERT
    must take its id after the lock (its one-time filter), never before."""
    user = get_user_model().objects.get(username="owner")
    holding, go = threading.Event(), threading.Event()
    ids: dict[str, int] = {}

    def holder() -> None:
        try:
            with transaction.atomic():
                events.account_events_lock([user.pk])  # the lock first, then, later, the id
                holding.set()
                go.wait(timeout=20)
                ids["holder"] = events.account_event_add(
                    user_id=user.pk, type="holder", payload={}
                ).pk
        finally:
            connections.close_all()

    def batcher() -> None:
        try:
            holding.wait(timeout=20)
            with transaction.atomic(), compiled.batched():
                events.account_events_lock([user.pk])
                event = Event(user_id=user.pk, type="batched", payload={})
                compiled.insert(event)
            ids["batched"] = event.pk
        finally:
            connections.close_all()

    threads = [threading.Thread(target=holder), threading.Thread(target=batcher)]
    for thread in threads:
        thread.start()
    assert holding.wait(timeout=20)
    assert wait_until_a_request_waits_for_a_lock()  # the batch is sent and waits
    go.set()  # now the holder takes an id and commits; then the batch goes on
    for thread in threads:
        thread.join(timeout=30)
    assert ids["batched"] > ids["holder"], ids


def test_a_block_inside_another_sends_its_writes_when_it_ends(game: Game) -> None:
    with transaction.atomic(), compiled.batched():
        first = Event(game=game, type="outer", version=1, payload={})
        compiled.insert(first)
        with compiled.batched():
            inner = Event(game=game, type="inner", version=1, payload={})
            compiled.insert(inner)
        assert inner.pk is not None  # what the inner block's caller may read at once
        assert first.pk is not None  # sent in the same statement


def test_a_ref_in_a_document_kept_as_text_is_filled_in_too(game: Game, owner: Any) -> None:
    """The answer stored for an Idempotency-Key is JSON kept as text (JSONTextField)."""
    with transaction.atomic(), compiled.batched():
        notification = Notification(user=owner, kind="your_turn", game=game, title="t")
        compiled.insert(notification)
        record = IdempotencyRecord(
            user=owner,
            key="ref-in-text",
            game=game,
            request_hash="h",
            response={"notification": compiled.Ref(notification), "n": 1},
        )
        compiled.insert(record)
    stored = IdempotencyRecord.objects.get(pk=record.pk).response
    assert stored == {"notification": notification.pk, "n": 1} == record.response
