"""What a change to a game announces: stream events, notifications, turn reminders.

Called by the services inside the transaction that changed the game, under its row
lock, after the new state is stored. Everything written here commits with the change
(a committed move always has its event) and is sent out only after commit.

Hidden information: a game event's public ``payload`` is built from the spectator view
(the engine's ``view(state, None)``) and the game's ``move_payloads``: what others may
not see of a move (Indulgence's card played face down in a trick not yet complete, New
Eleusis' rule source or prophet intent) is ``null`` there and only the acting seat's
``seat_payloads`` entry carries it. What differs between games (the events' fields, the
wording) comes from the game's kind (``games.kinds``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext as _

from games import compiled, events, kinds, selectors
from games.models import Game, GameStatus, Move, NotificationKind, Player, Seat, TurnReminder
from games.notifications import NotificationSpec, notifications_send


def game_changed(
    *,
    game: Game,
    state: Any,
    move: Move | None = None,
    seats: list[Seat] | None = None,
    previous: Any = None,
) -> None:
    """Announce the state a writer just stored (``move``: the step that led to it; None
    when the game has just started; ``seats``: the seats with their accounts, if read;
    ``previous``: the state before the step, for the game's own notices)."""
    kind = kinds.of(game)
    spectator = kind.engine.view(state, None)
    if seats is None:
        seats = selectors.seats_of_game(game, notifying=True)
    common = {"to_act": game.to_act_seat, **kind.event_fields(spectator), "status": game.status}
    specs: list[NotificationSpec] = []
    if move is None:
        events.game_event_add(
            game=game,
            type="game_started",
            payload={**common, **kind.started_fields(spectator)},
        )
        title, body = kind.started_text(game)
        specs += [
            NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.GAME_STARTED,
                title=title,
                body=body,
                game=game,
                data={"seat": seat.number},
            )
            for seat in _humans(seats)
        ]
    elif move.action.get("type") == "advance":
        type_, fields = kind.step_event(move, spectator)
        events.game_event_add(game=game, type=type_, payload={**common, **fields})
    else:
        public, own = kind.move_payloads(move, spectator)
        events.game_event_add(
            game=game,
            type="move",
            payload={**common, **public},
            seat_payloads={move.seat: own} if own is not None and move.seat is not None else None,
        )
    people = {seat.number: seat for seat in _humans(seats)}
    for notice in kind.notices(game, move, previous, state):
        if notice.seat in people:
            specs.append(
                NotificationSpec(
                    user_id=people[notice.seat].player.user_id,
                    kind=notice.kind,
                    title=notice.title,
                    body=notice.body,
                    game=game,
                    data=notice.data,
                )
            )
    if game.status == GameStatus.FINISHED:
        events.game_event_add(
            game=game, type="game_finished", payload={**common, "result": game.result}
        )
        specs += [_finished_spec(game, kind, seat) for seat in _humans(seats)]
    elif game.to_act_seat is not None:
        to_act = next(seat for seat in seats if seat.number == game.to_act_seat)
        if not to_act.bot_kind:
            # Told once per turn: not the seat's own move, nor another seat's action off
            # turn (New Eleusis' standing prophecy) while this seat's turn goes on.
            same_turn = previous is not None and kind.engine.to_act(previous) == to_act.number
            if (
                move is None
                or (move.seat != to_act.number and not same_turn)
                or kind.tells_own_next_turn(previous, state)
            ):
                specs.append(_your_turn_spec(game, kind, to_act, spectator))
            _reminder_add(game, kind, state, to_act.number)
    notifications_send(specs, users={seat.player.user_id: seat.player.user for seat in seats})


def _reminder_add(game: Game, kind: kinds.GameKind, state: Any, seat: int) -> None:
    """The reminder before the turn's deadline, for this version of the game (a reminder
    for an earlier version is not sent: ``games.deadlines``)."""
    if game.turn_deadline is None or not game.turn_timeout_seconds:
        return
    seconds = kind.deadline_seconds(game, state) or game.turn_timeout_seconds
    left = seconds * (1 - settings.TURN_REMINDER_FRACTION)
    # Part of the change's write batch (games.compiled); one per turn.
    compiled.insert(
        TurnReminder(
            game=game,
            version=game.version,
            seat=seat,
            remind_at=game.turn_deadline - timedelta(seconds=left),
        ),
        on_conflict=("game", "version"),
    )


def move_undone(*, game: Game, state: Any, move: Move) -> None:
    """Announce that ``move``'s player took it back (15.5.2, P-79): a ``move_undone`` game
    event from the spectator view (every seat's table and stream refreshes; nothing of
    the move is repeated), and the turn's reminder again for the new version. The seat
    that undid is to act: it is not told its turn again."""
    kind = kinds.of(game)
    spectator = kind.engine.view(state, None)
    events.game_event_add(
        game=game,
        type="move_undone",
        payload={
            "to_act": game.to_act_seat,
            **kind.event_fields(spectator),
            "status": game.status,
            "seq": move.seq,
            "seat": move.seat,
        },
    )
    if game.to_act_seat is not None:
        _reminder_add(game, kind, state, game.to_act_seat)


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
    kind = kinds.of(game)
    data = {
        "from": sender,
        "game_type": game.game_type,
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
            body = kind.challenge_body(names)
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
    title, body = kinds.of(game).reminder_text(game, seat.number)
    notifications_send(
        [
            NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.REMINDER,
                title=title,
                body=body,
                game=game,
                data={"seat": seat.number, "deadline": deadline},
            )
        ]
    )


def _humans(seats: list[Seat]) -> list[Seat]:
    """Seats played from outside: people and REST bots, not the built-in bots (nor a
    person's seat handed to a built-in bot)."""
    return [seat for seat in seats if not seat.bot_kind]


def _your_turn_spec(
    game: Game, kind: kinds.GameKind, seat: Seat, spectator: dict[str, Any]
) -> NotificationSpec:
    deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
    title, body = kind.turn_text(game, seat.number, spectator)
    return NotificationSpec(
        user_id=seat.player.user_id,
        kind=NotificationKind.YOUR_TURN,
        title=title,
        body=body,
        game=game,
        data={
            "seat": seat.number,
            "deadline": deadline,
            **kind.turn_data(game, seat.number, spectator),
        },
    )


def _finished_spec(game: Game, kind: kinds.GameKind, seat: Seat) -> NotificationSpec:
    title, body = kind.finished_text(game, seat.number)
    return NotificationSpec(
        user_id=seat.player.user_id,
        kind=NotificationKind.GAME_FINISHED,
        title=title,
        body=body,
        game=game,
        data={"seat": seat.number, "result": game.result or {}},
    )
