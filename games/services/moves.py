"""Moves: a seated player's action, and a built-in bot's turn. Each locks the game row,
checks who acts and the version they saw, applies the action through the engine, then
appends the move, stores the state and announces it in one write batch
(``games.compiled.batched``); what follows is queued after commit (``steps``).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from engine.core import IllegalAction
from games import bots, compiled, kinds, selectors
from games.errors import (
    Forbidden,
    GameNotActive,
    IdempotencyKeyReused,
    IllegalActionError,
    NotSeated,
    NotYourTurn,
    VersionConflict,
)
from games.models import ActorKind, Game, GameStatus, IdempotencyRecord, Seat
from games.services import steps, store


@dataclass(frozen=True)
class ActionResult:
    game: Game
    view: dict[str, Any]
    replayed: bool


def action_submit(
    *,
    game_id: int,
    user: User,
    action: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Apply a seated player's action. A rejected action changes nothing.

    With an ``idempotency_key`` a repeat of the same request is answered with the first
    request's result (``replayed``), never applied twice."""
    request_hash = _request_hash(game_id, action, expected_version)
    try:
        return _action_apply(
            game_id=game_id,
            user=user,
            action=action,
            expected_version=expected_version,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
        )
    except (VersionConflict, NotYourTurn, IllegalActionError, GameNotActive, IdempotencyKeyReused):
        if idempotency_key is None:
            raise
        # A repeat that waited for the game's lock while the first request held it: the
        # locking query's snapshot predates the first's commit, so it could not see the
        # record. Refused, it looks again (a new statement sees what has committed).
        record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
        if record is None:
            raise
        if record.request_hash != request_hash:
            raise IdempotencyKeyReused(
                "This Idempotency-Key was already used for a different request."
            ) from None
        return ActionResult(game=Game.objects.get(pk=game_id), view=record.response, replayed=True)


def _action_apply(
    *,
    game_id: int,
    user: User,
    action: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    request_hash: str,
) -> ActionResult:
    with transaction.atomic():
        # Locked: one move at a time per game; a concurrent duplicate waits, then fails
        # the version or turn check (or finds its idempotency record) instead of racing.
        game = store.lock_game(game_id, idempotency=(user, idempotency_key))
        recorded_hash = getattr(game, "idempotent_hash", None)
        if recorded_hash is not None:
            # This key's record (read by the same query): a repeat gets the first answer.
            if recorded_hash != request_hash:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used for a different request."
                )
            first_answer: dict[str, Any] = getattr(game, "idempotent_response", None) or {}
            return ActionResult(game=game, view=first_answer, replayed=True)
        # One read of the seats (with their accounts) serves the turn check, the view,
        # the announcement (the next player's notification) and the next-step queueing.
        seats = selectors.seats_of_game(game, notifying=True)
        seat = human_seat(game, user, seats=seats)
        if game.status != GameStatus.IN_PROGRESS:
            raise GameNotActive(
                _("This game is %(status)s; no moves now.")
                % {"status": game.get_status_display().lower()}
            )
        if expected_version is not None and expected_version != game.version:
            raise VersionConflict(
                _(
                    "The game is at version %(current)d, not %(sent)d: "
                    "fetch the game and decide again."
                )
                % {"current": game.version, "sent": expected_version}
            )
        kind = kinds.of(game)
        state = store.load_state(game)
        off_turn = _check_turn(kind, state, seat.number)
        new_state = apply_action(kind, state, seat.number, action)
        # The move's writes (the game, the move, its events and notifications, the key's
        # record) go to PostgreSQL as one statement (games.compiled.batched).
        with compiled.batched():
            if seat.autopilot_streak:
                seat.autopilot_streak = 0
                compiled.update(seat, ["autopilot_streak"])
            move = steps.step_record(
                game,
                new_state,
                seats=seats,
                previous=state,
                keep_deadline=off_turn,
                seat=seat.number,
                action=action,
                actor_kind=ActorKind.HUMAN,
                user=user,
                idempotency_key=idempotency_key or "",
            )
            # The move just appended is the log's last: the view's ``can_undo`` (where the
            # game offers undo) needs no read inside the write batch.
            view = selectors.game_view(
                game=game, user=user, state=new_state, seats=seats, last_move=move
            )
            record = None
            if idempotency_key is not None:
                record = _idempotency_record(
                    user=user, key=idempotency_key, game=game, request_hash=request_hash, view=view
                )
        # The game lock does not cover the key: a request for another game may have claimed
        # it meanwhile; its unique row then refuses this one (and the move rolls back).
        if record is not None and record.pk is None:
            raise IdempotencyKeyReused(
                "This Idempotency-Key was already used for a different request."
            )
    return ActionResult(game=game, view=view, replayed=False)


def bot_turn_play(*, game_id: int, expected_version: int) -> bool:
    """Let the bot whose turn it is move. Returns False (and does nothing) when stale.

    A built-in bot plays its seat with the game's bot of its kind. A person's seat handed
    to a bot after repeated timeouts is played as the absent person's turns would be: the
    game's own timeout default where it has one (New Eleusis' E29, E30: a rated prophet's
    missed call), else the bot (logged as the autopilot)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version or game.status != GameStatus.IN_PROGRESS:
        return False
    kind = kinds.of(game)
    state = store.load_state(game)
    number = kind.engine.to_act(state)
    seat = game.seats.filter(number=number).first() if number is not None else None
    if seat is None or not seat.bot_kind:
        return False
    handed_over = not seat.player.is_bot
    default = kind.timeout_action(state) if handed_over else None
    # The bot thinks outside the transaction: it sees only its seat's view, and its
    # answer is applied below only if the game has not moved meanwhile.
    started = time.monotonic()
    if default is None:
        view = kind.engine.view(state, seat.number)
        rng = random.Random(store.derive_int(game.seed, f"bot:{game.move_count}"))
        action = bots.choose(seat.bot_kind, view, rng, game_type=game.game_type)
    else:
        action = default
    _think_at_least(seat.bot_kind, started)
    actor = ActorKind.BOT
    by = None
    if default is not None:
        actor, by = ActorKind.TIMEOUT, "timeout"
    elif handed_over:
        by = "autopilot"
    with transaction.atomic():
        game = store.lock_game(game_id)  # Locked: the version check and the append are one step.
        if game.version != expected_version:
            return False
        new_state = apply_action(kind, state, seat.number, action, by=by)
        # Read before the batch: a read inside it would send its writes in two statements.
        seats = selectors.seats_of_game(game, notifying=True)
        with compiled.batched():
            steps.step_record(
                game,
                new_state,
                seats=seats,
                previous=state,
                seat=seat.number,
                action=action,
                actor_kind=actor,
                bot_name=seat.bot_kind if default is None else "",
                bot_version=bots.version(seat.bot_kind, game_type=game.game_type)
                if default is None
                else "",
            )
    return True


def _think_at_least(kind: str, started: float) -> None:
    """Wait out the kind's least thinking time (settings.BOT_MIN_THINK_SECONDS), so a move
    the bot found at once (a single legal card) is not told apart by its timestamp."""
    floor = float(settings.BOT_MIN_THINK_SECONDS.get(kind, 0.0))
    left = floor - (time.monotonic() - started)
    if left > 0:
        time.sleep(left)


def human_seat(game: Game, user: User, *, seats: list[Seat] | None = None) -> Seat:
    """The seat ``user``'s own player plays (403 ``not_seated``, or ``forbidden`` when a
    bot now plays it after timeouts)."""
    if seats is None:
        seat = game.seats.filter(player__user=user).first()
    else:
        seat = next((s for s in seats if s.player.user_id == user.pk), None)
    if seat is None:
        raise NotSeated(_("You are not seated at this game."))
    if seat.bot_kind:
        # A built-in bot plays this seat: its own account's seat, or one handed to a bot
        # after repeated timeouts. Only the server moves for it (issue 26, item 1).
        if selectors.is_bot_account_seat(seat):
            raise NotSeated(_("You are not seated at this game."))
        raise Forbidden(
            _("Your seat is played by the %(bot)s bot for the rest of this game.")
            % {"bot": seat.bot_kind}
        )
    return seat


def _check_turn(kind: kinds.GameKind, state: Any, seat_number: int) -> bool:
    """The seat to act may act; another only where the game lets it act off turn (New
    Eleusis' standing prophecy and votes), else 409 ``not_your_turn``. Returns whether
    the action is off turn."""
    to_act = kind.engine.to_act(state)
    if to_act == seat_number:
        return False
    if kind.may_act_off_turn(state, seat_number):
        return True
    raise NotYourTurn(kind.not_your_turn(to_act, seat_number))


def apply_action(
    kind: kinds.GameKind, state: Any, seat_number: int, action: Any, *, by: str | None = None
) -> Any:
    """The engine's new state, or the refusal as the API's error: the engine's
    ``not_your_turn`` is 409 ``not_your_turn``, every other refusal 400
    ``illegal_action`` with the engine's own code as ``reason``."""
    try:
        return kind.engine.apply(state, seat_number, action, by)
    except IllegalAction as exc:
        if exc.code == "not_your_turn":
            raise NotYourTurn(kind.refusal(exc)) from exc
        raise IllegalActionError(kind.refusal(exc), reason=exc.code) from exc


def _idempotency_record(
    *, user: User, key: str, game: Game, request_hash: str, view: dict[str, Any]
) -> IdempotencyRecord:
    """Record an action's answer under its Idempotency-Key. The key may be taken already
    (the game's lock does not cover it): then nothing is written and the record's ``pk``
    is None once written (``INSERT ... ON CONFLICT DO NOTHING``, one statement, or part of
    the move's write batch)."""
    record = IdempotencyRecord(
        user=user, key=key, game=game, request_hash=request_hash, response=view
    )
    compiled.insert(record, on_conflict=("user", "key"))
    return record


def _request_hash(game_id: int, action: Any, expected_version: int | None) -> str:
    body = json.dumps([game_id, action, expected_version], sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()
