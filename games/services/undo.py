"""Undo: a player takes back their own last action (Pax Illuminaten's 15.5.2; docs/pax.md
P-79 and P-80). A game's kind says whether it offers undo and which actions may be taken
back (``GameKind.offers_undo``, ``undoable``); ``selectors.undo_refusal`` adds what only
the move log knows (the seat's own player made the move, not a bot, the autopilot or a
timeout).

Nothing is deleted: like a staff rewind (``remedies.game_rewind``), the undone move is
archived (``archived_at``, with an ``AuditEntry`` ``move_undo`` as ``archived_by``), the
snapshot is a replay of the seed and the live moves, and the version bumps so that a
command prepared for the undone position is refused as stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import announce, selectors
from games.errors import GameNotActive, InvalidRequest, UndoNotAvailable, VersionConflict
from games.models import AuditAction, Game, GameStatus, Move
from games.services import steps, store
from games.services.disputes import audit
from games.services.moves import human_seat


@dataclass(frozen=True)
class UndoResult:
    game: Game
    view: dict[str, Any]
    move: Move  # the move taken back, now archived


def move_undo(*, game_id: int, user: User, expected_version: int | None) -> UndoResult:
    """Take back ``user``'s last action in game ``game_id`` (one atomic action: repeat to
    go further back). ``expected_version`` is required: the version of the view the
    player decided on, so that a repeated or stale request never takes back a second
    action unseen. Refused, it changes nothing."""
    if expected_version is None:
        raise InvalidRequest(_("Send the version of the view you saw to undo (15.5.2)."))
    with transaction.atomic():
        # Locked: the live log, the archive mark and the new snapshot describe one position;
        # no move may be appended between reading and rewriting them.
        game = store.lock_game(game_id)
        seats = selectors.seats_of_game(game, notifying=True)
        seat = human_seat(game, user, seats=seats)
        if game.status != GameStatus.IN_PROGRESS:
            raise GameNotActive(
                _("This game is %(status)s; no moves now.")
                % {"status": game.get_status_display().lower()}
            )
        if expected_version != game.version:
            raise VersionConflict(
                _(
                    "The game is at version %(current)d, not %(sent)d: "
                    "fetch the game and decide again."
                )
                % {"current": game.version, "sent": expected_version}
            )
        state = store.load_state(game)
        refusal = selectors.undo_refusal(game=game, state=state, seat=seat.number)
        if refusal is not None:
            raise UndoNotAvailable(refusal)
        live = list(game.moves.filter(archived_at=None).order_by("seq"))
        undone, kept = live[-1], live[:-1]
        before = selectors.game_replay(game, selectors.replay_moves(game, kept))
        entry = audit(
            game=game,
            actor=user,
            action=AuditAction.MOVE_UNDO,
            reason="Taken back by its player (15.5.2).",
            details={
                "seq": undone.seq,
                "seat": seat.number,
                "action": undone.action,
                "version_before": game.version,
            },
        )
        Move.objects.filter(pk=undone.pk).update(archived_at=timezone.now(), archived_by=entry)
        game.move_count = len(kept)
        game.version += 1
        # The turn's clock goes on as it was (P-80): taking an action back buys no time.
        store.store_state(game, before, keep_deadline=True)
        game.save(update_fields=store.GAME_PLAY_FIELDS)
        announce.move_undone(game=game, state=before, move=undone)
        steps.queue_next_step(game, before, seats=seats)
        view = selectors.game_view(game=game, user=user, state=before, seats=seats)
    return UndoResult(game=game, view=view, move=undone)
