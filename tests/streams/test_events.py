"""Stream events: one per committed change, and never a hidden card for the wrong eyes."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import engine.indulgence as rules
from engine.cards import CARD_IDS, ids_of
from engine.indulgence.view import face_down
from games import events, selectors, services
from games.models import Event, Game, GameStatus, Move
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

CARD = re.compile(r'"([BMOS][1-9])"')


def hidden_from(state: rules.State, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may not know: other hands, and other seats'
    cards in a face-down trick still on the table."""
    hidden = {card for s, hand in enumerate(state.hands) if s != seat for card in ids_of(hand)}
    if face_down(state):
        hidden |= {CARD_IDS[card] for s, card, _ in state.plays if s != seat}
    return hidden


def three_player_game(users: list[Any], seed: str, variant: str = "basic") -> Game:
    owner, opponent, third = users
    game = game_with_seed(creator=owner, player_count=3, variant=variant, rated=False, seed=seed)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


def step(game: Game, users: list[Any], rng: random.Random) -> None:
    """One step of a game of three people playing random legal moves."""
    if game.to_act_seat is None:
        hand = selectors.game_view(game=game, user=users[0])["hand_number"]
        services.hand_settle(game_id=game.pk, hand_number=hand)
        return
    user = users[game.to_act_seat]
    view = selectors.game_view(game=game, user=user)
    services.action_submit(
        game_id=game.pk,
        user=user,
        action=rng.choice(view["legal_actions"]),
        expected_version=game.version,
    )


def test_no_event_ever_shows_a_hidden_card_to_another_seat_or_a_spectator(
    users: list[Any],
) -> None:
    # Expert seed "a" with these random moves has face-down ("Don't take any tricks") hands.
    game = three_player_game(users, seed="a", variant="expert")
    rng = random.Random(5)
    seen = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    face_down_plays = own_card_shown = 0
    while game.status == GameStatus.IN_PROGRESS:
        step(game, users, rng)
        game.refresh_from_db()
        state = rules.state_from_json(game.snapshot)
        new = list(Event.objects.filter(id__gt=seen).order_by("id"))
        assert new, "every committed step has its event"
        seen = new[-1].pk
        for event in new:
            if event.game_id is not None:
                audiences: list[tuple[int | None, dict[str, Any]]] = [
                    (seat, events.event_data(event, seat=seat)) for seat in (None, 0, 1, 2)
                ]
            else:
                seat = selectors.seat_of(game=game, user=event.user)
                audiences = [(seat, events.event_data(event))]
            for seat, data in audiences:
                leaked = set(CARD.findall(json.dumps(data))) & hidden_from(state, seat)
                assert not leaked, f"{event.type} event {event.pk} shows {leaked} to {seat}"
            if event.type == "move" and event.seat_payloads:
                face_down_plays += 1
                [(owner_seat, extra)] = event.seat_payloads.items()
                assert event.payload["action"]["card"] is None
                own = events.event_data(event, seat=int(owner_seat))
                assert own["action"]["card"] == extra["action"]["card"] is not None
                own_card_shown += 1
    assert face_down_plays > 0, "the game should include a face-down hand"
    assert own_card_shown == face_down_plays


def test_every_committed_step_has_exactly_one_game_event(users: list[Any]) -> None:
    game = three_player_game(users, seed="one-event-per-move")
    rng = random.Random(1)
    for _ in range(60):
        step(game, users, rng)
        game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    stepped = Event.objects.filter(game=game, type__in=["move", "hand_settled"]).order_by("id")
    assert [e.payload["seq"] for e in stepped] == [m.seq for m in moves]
    assert [e.version for e in stepped] == [m.version_after for m in moves]
    types = list(Event.objects.filter(game=game).order_by("id").values_list("type", flat=True))
    assert types[:3] == ["player_joined", "player_joined", "game_started"]


def test_account_events_tell_the_player_whose_turn_it_is(users: list[Any]) -> None:
    game = three_player_game(users, seed="your-turn")
    to_act = users[game.to_act_seat]
    turn = to_act.stream_events.filter(type="your_turn").get()
    data = events.event_data(turn)
    assert data["game"] == game.pk
    assert data["version"] == game.version
    assert data["data"]["seat"] == game.to_act_seat
    others = [u for u in users if u != to_act]
    assert not any(u.stream_events.filter(type="your_turn").exists() for u in others)
    assert all(u.stream_events.filter(type="game_started").count() == 1 for u in users)
    assert users[0].stream_events.filter(type="player_joined").count() == 2
