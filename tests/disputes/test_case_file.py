"""The case file's timeline and deadlines: every move with its time and who made it (a
person, a bot with its version, or the autopilot after a timeout)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import bots, deadlines, selectors, services
from games.models import ActorKind, Dispute, Game, Move
from games.staff import selectors as staff_selectors
from tests.disputes.conftest import Users
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

TIMEOUT = 60


def table_with_a_bot(players: Users) -> Game:
    """Owner (seat 0) and opponent (seat 1) with a 60 s turn limit; seat 2 is a bot."""
    game = game_with_seed(
        creator=players[0],
        player_count=3,
        rated=False,
        seed="timeline",
        turn_timeout_seconds=TIMEOUT,
        bots=[(2, "random")],
    )
    services.game_join(game_id=game.pk, user=players[1])
    game.refresh_from_db()
    return game


def play_each_kind(game: Game, players: Users) -> Game:
    """Moves until the log holds a human move (seat 0), an autopilot move (seat 1 lets
    its time run out) and a bot move (seat 2)."""
    kinds: set[str] = set()
    for _ in range(60):
        game.refresh_from_db()
        seat = game.to_act_seat
        if seat is None:
            hand = selectors.game_view(game=game, user=players[0])["hand_number"]
            assert services.hand_settle(game_id=game.pk, hand_number=hand)
        elif seat == 0:
            view = selectors.game_view(game=game, user=players[0])
            services.action_submit(
                game_id=game.pk,
                user=players[0],
                action=view["legal_actions"][0],
                expected_version=game.version,
                idempotency_key=f"timeline-{game.version}",
            )
        elif seat == 1:
            later = timezone.now() + timedelta(seconds=TIMEOUT + 1)
            assert deadlines.turn_timeout_handle(
                game_id=game.pk, expected_version=game.version, now=later
            )
        else:
            assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
        kinds = set(Move.objects.filter(game=game).values_list("actor_kind", flat=True))
        if {ActorKind.HUMAN, ActorKind.AUTOPILOT, ActorKind.BOT} <= kinds:
            break
    assert {ActorKind.HUMAN, ActorKind.AUTOPILOT, ActorKind.BOT} <= kinds
    game.refresh_from_db()
    return game


@pytest.fixture
def case(players: Users) -> tuple[Game, Dispute]:
    game = play_each_kind(table_with_a_bot(players), players)
    dispute = services.dispute_create(
        game_id=game.pk, user=players[1], reason="The autopilot played for me too soon."
    )
    return game, dispute


def test_the_timeline_says_when_and_by_whom_each_move_was_made(
    case: tuple[Game, Dispute], players: Users
) -> None:
    game, dispute = case
    timeline = staff_selectors.case_file(dispute=dispute).timeline
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert [m["seq"] for m in timeline] == [m.seq for m in moves]
    assert [m["at"] for m in timeline] == [m.created_at for m in moves]
    version = bots.version("random")
    for entry, move in zip(timeline, moves, strict=True):
        assert entry["actor_kind"] == move.actor_kind
        if move.actor_kind == ActorKind.HUMAN:
            assert (entry["seat"], entry["actor"]) == (0, "owner")
            assert entry["idempotency_key"] == f"timeline-{move.version_after - 1}"
            assert not entry["timed_out"]
        elif move.actor_kind == ActorKind.AUTOPILOT:
            assert (entry["seat"], entry["player"]) == (1, "opponent")
            assert move.bot_name
            assert entry["actor"] == f"autopilot: {move.bot_name} {bots.version(move.bot_name)}"
            assert entry["timed_out"]
        elif move.actor_kind == ActorKind.BOT:
            assert entry["seat"] == 2
            assert entry["actor"] == f"bot: random {version}"
            assert not entry["timed_out"]
    deadlines_ = staff_selectors.case_file(dispute=dispute).deadlines
    assert deadlines_["turn_timeout_seconds"] == TIMEOUT
    per_seat = {s["seat"]: s for s in deadlines_["seats"]}
    autopilot_moves = Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).count()
    assert per_seat[1]["timeouts"] == autopilot_moves >= 1
    assert per_seat[1]["autopilot_streak"] >= 1
    assert per_seat[0]["timeouts"] == per_seat[2]["timeouts"] == 0
    assert per_seat[2]["is_bot"]


def test_the_case_file_page_shows_the_timeline_and_the_deadlines(
    case: tuple[Game, Dispute], client: Client, staff: Any
) -> None:
    game, dispute = case
    client.force_login(staff)
    page = client.get(f"/staff/disputes/{dispute.pk}/").content.decode()
    version = bots.version("random")
    autopilot = Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).first()
    assert autopilot is not None
    assert f"autopilot · {autopilot.bot_name} {bots.version(autopilot.bot_name)}" in page
    assert f"bot · random {version}" in page
    assert "human · owner" in page
    assert '<span class="flag">timeout</span>' in page
    assert f"Turn timeout: {TIMEOUT} s" in page
    for move in Move.objects.filter(game=game):
        local = timezone.localtime(move.created_at).strftime("%Y-%m-%d %H:%M:%S")
        assert f"<td>{move.seq}</td><td>{local}</td>" in page


def test_the_replay_steps_through_every_move_with_every_hand(
    case: tuple[Game, Dispute], client: Client, staff: Any
) -> None:
    game, dispute = case
    live = list(Move.objects.filter(game=game, archived_at=None).order_by("seq"))
    for step in range(len(live) + 1):
        replay = staff_selectors.replay_step(game=game, step=step)
        assert (replay["step"], replay["steps"]) == (step, len(live))
        assert replay["move"] is None if step == 0 else replay["move"]["seq"] == live[step - 1].seq
        # The god view: what each seat holds plus what it played this hand is its deal.
        played: dict[int, list[str]] = {n: [] for n in range(3)}
        trick = replay["current_trick"] or {"plays": []}
        for done in [*replay["tricks"], trick]:
            for play in done["plays"]:
                played[play["seat"]].append(play["card"])
        for seat in replay["seats"]:
            assert sorted(seat["held"] + played[seat["seat"]]) == sorted(seat["dealt"])
        # Each seat's own view at that moment holds exactly its cards, and no one else's.
        for number in range(3):
            view = staff_selectors.replay_step(game=game, step=step, seat=number)["seat_view"]
            assert view["my_hand"] == replay["seats"][number]["held"]
    client.force_login(staff)
    page = client.get(f"/staff/disputes/{dispute.pk}/").content.decode()
    for move in live:
        assert f'href="?step={move.seq}#replay"' in page
