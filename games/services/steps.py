"""What follows a stored state: its announcement (stream events, notifications) and,
after commit, the server's next step: a bot's turn, or the automatic step the engine
takes when nobody is to act (Indulgence's hand settlement, New Eleusis' end of round),
claimed exactly once.

Tasks are queued by name (``games.jobs``): this module never imports ``games.tasks``.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games import announce, compiled, jobs, kinds, selectors
from games.models import ActorKind, Game, GameStatus, HandSettlement, Move, Seat
from games.services import store

BOT_TURN_TASK = "games.bot_turn"
# The automatic step of any game; the name predates the other games (it settled
# Indulgence's hands) and is kept so that messages queued before a deploy still run.
STEP_TASK = "games.hand_settle"


def step_run(*, game_id: int, key: int) -> bool:
    """Take the automatic step the game waits on (``to_act`` None and not over:
    Indulgence's hand settlement, New Eleusis' end of round), exactly once: ``key`` is
    the kind's ``step_key`` when the step was queued, and a repeat or a stale copy finds
    the game elsewhere and does nothing."""
    with transaction.atomic():
        # Locked: the step is claimed by whoever holds the lock and finds it still due;
        # a second delivery of the same task then finds nothing to do.
        game = store.lock_game(game_id)
        if game.status != GameStatus.IN_PROGRESS:
            return False
        kind = kinds.of(game)
        state = store.load_state(game)
        if kind.engine.to_act(state) is not None or kind.engine.is_over(state):
            return False
        if kind.step_key(state) != key:
            return False
        new_state = kind.engine.advance(state)
        settlement = kind.step_settlement(new_state, key)
        if settlement is not None:
            try:
                with transaction.atomic():
                    HandSettlement.objects.create(game=game, hand_number=key, **settlement)
            except IntegrityError:
                return False  # already settled: the unique row is the claim
        seats = selectors.seats_of_game(game, notifying=True)  # before the batch, as above
        with compiled.batched():
            step_record(
                game,
                new_state,
                seats=seats,
                previous=state,
                seat=None,
                action={"type": "advance"},
                actor_kind=ActorKind.SYSTEM,
            )
    return True


def hand_settle(*, game_id: int, hand_number: int) -> bool:
    """Settle a finished Indulgence hand and deal the next one, exactly once per hand
    (:func:`step_run`, whose key is the hand's number)."""
    return step_run(game_id=game_id, key=hand_number)


def step_record(
    game: Game,
    state: Any,
    *,
    seats: list[Seat],
    previous: Any = None,
    keep_deadline: bool = False,
    **step: Any,
) -> Move:
    """Append a step (``store.append_move``'s fields) to the move log, store the state it
    led to, and announce it. Called under the game's lock, in the caller's write batch,
    with the game's seats read before it (``selectors.seats_of_game(game, notifying=True)``).
    ``previous``: the state before the step (for the game's own notices);
    ``keep_deadline``: an action off turn (``store.store_state``)."""
    move = store.append_move(game, **step)
    store.store_state(game, state, keep_deadline=keep_deadline)
    compiled.update(game, store.GAME_PLAY_FIELDS)
    schedule_next_step(game, state, move=move, seats=seats, previous=previous)
    return move


def schedule_next_step(
    game: Game,
    state: Any,
    *,
    move: Move | None = None,
    seats: list[Seat] | None = None,
    previous: Any = None,
) -> None:
    """Announce the stored state (stream events, notifications: games.announce), then,
    after commit, queue whatever it waits for: the automatic step or a bot. ``seats``:
    the game's seats with their accounts, when the caller has already read them."""
    if seats is None:
        seats = selectors.seats_of_game(game, notifying=True)
    announce.game_changed(game=game, state=state, move=move, seats=seats, previous=previous)
    queue_next_step(game, state, seats=seats)


def queue_next_step(game: Game, state: Any, *, seats: list[Seat] | None = None) -> None:
    """After commit, queue whatever the stored state waits for: the automatic step or a
    bot. (A rewind calls this alone: it announces the rewind itself.)"""
    if game.status != GameStatus.IN_PROGRESS:
        return
    if game.to_act_seat is None:
        jobs.enqueue_on_commit(STEP_TASK, game.pk, kinds.of(game).step_key(state))
        return
    if seats is None:
        seat = game.seats.filter(number=game.to_act_seat).first()
    else:
        seat = next((s for s in seats if s.number == game.to_act_seat), None)
    if seat is not None and seat.bot_kind:
        jobs.enqueue_on_commit(BOT_TURN_TASK, game.pk, game.version)


def next_step_queue(game: Game) -> None:
    """Queue the step a stored game waits on (a bot turn or the automatic step), for the sweep
    and for redelivered tasks: a spare is harmless (the tasks claim)."""
    if game.to_act_seat is None:
        state = store.load_state(game)
        jobs.enqueue_on_commit(STEP_TASK, game.pk, kinds.of(game).step_key(state))
    else:
        jobs.enqueue_on_commit(BOT_TURN_TASK, game.pk, game.version)
