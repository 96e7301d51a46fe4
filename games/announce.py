"""What a change to a game announces: stream events, notifications, turn reminders.

Called by the services inside the transaction that changed the game, under its row
lock, after the new state is stored. Everything written here commits with the change
(a committed move always has its event) and is sent out only after commit.

Hidden information: a game event's public ``payload`` is built from the spectator view
(``engine.indulgence.view(state, None)``); a card the spectator view does not show (a play
in a face-down trick) is ``null`` there and only the playing seat's ``seat_payloads``
entry carries it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone, translation
from django.utils.translation import gettext as _

import engine.indulgence as rules
from games import compiled, events, selectors
from games.models import Game, GameStatus, Move, NotificationKind, Player, Seat, TurnReminder
from games.notifications import NotificationSpec, notifications_send


def game_changed(
    *, game: Game, state: rules.State, move: Move | None = None, seats: list[Seat] | None = None
) -> None:
    """Announce the state a writer just stored (``move``: the step that led to it; None
    when the game has just started; ``seats``: the seats with their accounts, if read)."""
    spectator = rules.view(state, None)
    if seats is None:
        seats = selectors.seats_of_game(game, notifying=True)
    common = {
        "to_act": game.to_act_seat,
        "hand_number": spectator["hand_number"],
        "phase": spectator["phase"],
        "status": game.status,
    }
    specs: list[NotificationSpec] = []
    if move is None:
        events.game_event_add(
            game=game,
            type="game_started",
            payload={**common, "ruler_seat": spectator["ruler_seat"]},
        )
        specs += [
            NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.GAME_STARTED,
                title=f"Game {game.pk} has started",
                body=f"Every seat at game {game.pk} is taken: the cards are dealt.",
                game=game,
                data={"seat": seat.number},
            )
            for seat in _humans(seats)
        ]
    elif move.action.get("type") == "advance":
        events.game_event_add(
            game=game,
            type="hand_settled",
            payload={**common, "seq": move.seq, "settlement": spectator["last_settlement"]},
        )
    else:
        public, own = move_payloads(move, spectator)
        events.game_event_add(
            game=game,
            type="move",
            payload={**common, **public},
            seat_payloads={move.seat: own} if own is not None and move.seat is not None else None,
        )
    if game.status == GameStatus.FINISHED:
        events.game_event_add(
            game=game, type="game_finished", payload={**common, "result": game.result}
        )
        specs += [_finished_spec(game, seat) for seat in _humans(seats)]
    elif game.to_act_seat is not None:
        to_act = next(seat for seat in seats if seat.number == game.to_act_seat)
        if not to_act.bot_kind:
            if move is None or move.seat != to_act.number:
                specs.append(_your_turn_spec(game, to_act))
            if game.turn_deadline is not None and game.turn_timeout_seconds:
                allowed = game.turn_timeout_seconds * settings.TURN_REMINDER_FRACTION
                # Part of the change's write batch (games.compiled); one per turn.
                compiled.insert(
                    TurnReminder(
                        game=game,
                        version=game.version,
                        seat=to_act.number,
                        remind_at=timezone.now() + timedelta(seconds=allowed),
                    ),
                    on_conflict=("game", "version"),
                )
    notifications_send(specs, users={seat.player.user_id: seat.player.user for seat in seats})


def move_payloads(
    move: Move, spectator: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The public fields of a move event, and the acting seat's own extras (or None when
    everything is public). A played card is public only if the spectator view shows it."""
    action = dict(move.action)
    public: dict[str, Any] = {
        "seq": move.seq,
        "seat": move.seat,
        "actor": move.actor_kind,
        "bot": move.bot_name or None,
        "action": action,
    }
    if action.get("type") != "play" or _card_shown(spectator, move.seat, action.get("card")):
        return public, None
    public["action"] = {**action, "card": None}
    return public, {"action": action}


def _card_shown(spectator: dict[str, Any], seat: int | None, card: Any) -> bool:
    tricks = [spectator.get("current_trick") or {"plays": []}]
    if spectator.get("tricks"):
        tricks.append(spectator["tricks"][-1])
    return any(
        play.get("seat") == seat and play.get("card") == card
        for trick in tricks
        for play in trick["plays"]
    )


def player_joined(*, game: Game, seat: Seat) -> None:
    """Announce a new player at an open table (under the game's lock)."""
    username = seat.player.user.get_username()
    open_seats = game.player_count - game.seats.count()
    events.game_event_add(
        game=game,
        type="player_joined",
        payload={"seat": seat.number, "username": username, "open_seats": open_seats},
    )
    others = [s for s in game.seats.select_related("player__user") if s.number != seat.number]
    notifications_send(
        [
            NotificationSpec(
                user_id=other.player.user_id,
                kind=NotificationKind.PLAYER_JOINED,
                title=f"{username} joined game {game.pk}",
                body=f"{username} took seat {seat.number}; {open_seats} seat(s) still open.",
                game=game,
                data={"seat": seat.number, "username": username, "open_seats": open_seats},
            )
            for other in _humans(others)
        ]
    )


def challenge(*, game: Game, creator: User, invitees: list[User]) -> None:
    """Tell each invited account that ``creator`` challenges them to ``game`` (a
    ``challenge`` notification: in-app, account stream, webhooks, email by preference).
    The title and body are in the invitee's language."""
    sender = creator.get_username()
    data = {
        "from": sender,
        "variant": game.variant,
        "player_count": game.player_count,
        "rated": game.rated,
    }
    languages = dict(Player.objects.filter(user__in=invitees).values_list("user_id", "language"))
    specs = []
    for invitee in invitees:
        with translation.override(languages.get(invitee.pk) or settings.LANGUAGE_CODE):
            names = {"user": sender, "game": game.pk, "players": game.player_count}
            title = _("%(user)s challenges you to game %(game)d") % names
            body = (
                _(
                    "%(user)s invites you to a %(players)d-player game of Indulgence; "
                    "join game %(game)d to accept."
                )
                % names
            )
        specs.append(
            NotificationSpec(
                user_id=invitee.pk,
                kind=NotificationKind.CHALLENGE,
                title=title,
                body=body,
                game=game,
                data=data,
            )
        )
    notifications_send(specs)


def seat_handed_to_bot(*, game: Game, seat: Seat) -> None:
    """Announce that a seat's player timed out too often and a bot now plays for them."""
    events.game_event_add(
        game=game,
        type="seat_handed_to_bot",
        payload={"seat": seat.number, "bot": seat.bot_kind, "to_act": game.to_act_seat},
    )
    notifications_send(
        [
            NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.SEAT_HANDED_TO_BOT,
                title=f"A bot now plays your seat in game {game.pk}",
                body=(
                    f"You missed {settings.AUTOPILOT_HANDOVER_AFTER} turns in a row, so the "
                    f"{seat.bot_kind} bot plays seat {seat.number} for the rest of the game."
                ),
                game=game,
                data={"seat": seat.number, "bot": seat.bot_kind},
            )
        ]
    )


def turn_reminder_send(*, game: Game, seat: Seat) -> None:
    deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
    notifications_send(
        [
            NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.REMINDER,
                title=f"Reminder: your turn in game {game.pk}",
                body=(
                    f"Your time to move in game {game.pk} runs out at {deadline}; then the "
                    f"{settings.AUTOPILOT_BOT} bot moves for you."
                ),
                game=game,
                data={"seat": seat.number, "deadline": deadline},
            )
        ]
    )


def _humans(seats: list[Seat]) -> list[Seat]:
    """Seats played from outside: people and REST bots, not the built-in bots (nor a
    person's seat handed to a built-in bot)."""
    return [seat for seat in seats if not seat.bot_kind]


def _your_turn_spec(game: Game, seat: Seat) -> NotificationSpec:
    deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
    body = f"It is your turn (seat {seat.number}) in game {game.pk}."
    if deadline:
        body += f" Move before {deadline}."
    return NotificationSpec(
        user_id=seat.player.user_id,
        kind=NotificationKind.YOUR_TURN,
        title=f"Your turn in game {game.pk}",
        body=body,
        game=game,
        data={"seat": seat.number, "deadline": deadline},
    )


def _finished_spec(game: Game, seat: Seat) -> NotificationSpec:
    result = game.result or {}
    won = result.get("winner_seat") == seat.number
    florins = (result.get("florins") or {}).get(str(seat.number))
    return NotificationSpec(
        user_id=seat.player.user_id,
        kind=NotificationKind.GAME_FINISHED,
        title=f"Game {game.pk} is over: {'you won' if won else 'it is finished'}",
        body=f"Game {game.pk} has ended; you finished with {florins} florins.",
        game=game,
        data={"seat": seat.number, "result": result},
    )
