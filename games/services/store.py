"""The game row and its stored state: every writer of ``games.services`` locks the row,
loads the state, appends its step to the move log and stores the new state through here.

The move log (``Move``) plus the game's secret seed is the truth; ``Game.snapshot`` is a
cache of the engine state after the last move, always equal to a replay of the log.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from games import compiled, kinds, selectors
from games.compiled import CompiledQuery
from games.errors import GameNotActive, NotFound
from games.models import Game, GameHistory, GameStatus, IdempotencyRecord, Move
from games.services import ratings


def games_locked(game_id: int) -> QuerySet[Game]:
    return selectors.games_with_adjustment_flag(
        Game.objects.select_for_update().filter(pk=game_id)
    ).order_by("pk")[:1]


def games_locked_with_key(game_id: int, user_id: int, key: str) -> QuerySet[Game]:
    record = IdempotencyRecord.objects.filter(user_id=user_id, key=key)
    return games_locked(game_id).annotate(
        idempotent_hash=Subquery(record.values("request_hash")[:1]),
        idempotent_response=Subquery(record.values("response")[:1]),
    )


# Every move and bot turn runs these: compiled once per process (games.compiled).
GAME_LOCKED = CompiledQuery(games_locked, int)
GAME_LOCKED_WITH_KEY = CompiledQuery(games_locked_with_key, int, int, str)


def lock_game(game_id: int, *, idempotency: tuple[User, str | None] | None = None) -> Game:
    """The game row, locked. With ``idempotency`` = (user, key), the same query also reads
    that key's record: ``game.idempotent_hash`` and ``game.idempotent_response`` (None when
    the key is new or absent)."""
    if idempotency is not None and idempotency[1] is not None:
        user, key = idempotency
        game = GAME_LOCKED_WITH_KEY.first(game_id, user.pk, key)
    else:
        game = GAME_LOCKED.first(game_id)
    if game is None:
        raise NotFound(_("There is no game %(id)d.") % {"id": game_id})
    return game


def append_move(
    game: Game,
    *,
    seat: int | None,
    action: Any,
    actor_kind: str,
    user: User | None = None,
    bot_name: str = "",
    bot_version: str = "",
    idempotency_key: str = "",
) -> Move:
    game.move_count += 1
    game.version += 1
    move = Move(
        game=game,
        seq=game.move_count,
        seat=seat,
        action=action,
        actor_kind=actor_kind,
        actor_user=user,
        bot_name=bot_name,
        bot_version=bot_version,
        idempotency_key=idempotency_key,
        version_after=game.version,
    )
    compiled.insert(move)
    return move


# What a move (and the settlement or finish it may bring) changes on the game row:
# append_move, store_state and game_finish write these fields and no others.
GAME_PLAY_FIELDS = [
    "move_count",
    "version",
    "snapshot",
    "to_act_seat",
    "turn_deadline",
    "status",
    "finished_at",
    "result",
    "updated_at",
]


def load_state(game: Game) -> Any:
    """The stored state, as the snapshot holds it: enough for play and views (for
    Indulgence, only the last settled hand's record; ``selectors.game_state`` restores
    them all)."""
    if game.snapshot is None:
        raise GameNotActive(_("This game has not started yet."))
    return kinds.of(game).load(game.snapshot)


def store_state(game: Game, state: Any, *, keep_deadline: bool = False) -> None:
    """Cache the state on the row, with what lobbies and deadline sweeps read from it
    (whose turn, until when); the records the snapshot leaves out (Indulgence's settled
    hands) go to ``GameHistory`` when there are more of them. ``keep_deadline``: an
    action off turn (New Eleusis' standing prophecy) leaves the turn's deadline as it
    was while the same seat is still to act."""
    kind = kinds.of(game)
    _history_store(game, kind, state)
    game.snapshot = kind.snapshot(state)
    to_act = kind.engine.to_act(state)
    same_turn = keep_deadline and to_act is not None and to_act == game.to_act_seat
    game.to_act_seat = to_act
    seconds = kind.deadline_seconds(game, state) if to_act is not None else None
    if not (same_turn and game.turn_deadline is not None):
        game.turn_deadline = timezone.now() + timedelta(seconds=seconds) if seconds else None
    if kind.engine.is_over(state) and game.status == GameStatus.IN_PROGRESS:
        game_finish(game, state)


def game_finish(game: Game, state: Any) -> None:
    kind = kinds.of(game)
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    game.result = kind.stored_result(state)
    game.turn_deadline = None
    if game.rated:
        ratings.ratings_update(game, kind.ranking(state))


def _history_store(game: Game, kind: kinds.GameKind, state: Any) -> None:
    """Write what the kind says the snapshot leaves out (``GameKind.history_write``),
    before the snapshot is replaced: the snapshot it replaces says what was kept with it.
    Ordinary moves write nothing; Indulgence's settlement adds one hand's record (one
    read, one write, once per hand)."""
    write = kind.history_write(game.snapshot, state)
    if write is None:
        return
    if write.start is None:
        GameHistory.objects.update_or_create(game=game, defaults={"hands": write.parts})
    else:
        history = GameHistory.objects.get(game=game)
        history.hands = history.hands[: write.start] + write.parts
        history.save(update_fields=["hands"])


def derive_int(seed: str, label: str) -> int:
    """A number drawn from the game's seed for one purpose (a bot's or the autopilot's
    random source at one move), the same on every machine."""
    return int.from_bytes(hmac.new(seed.encode(), label.encode(), hashlib.sha256).digest(), "big")
