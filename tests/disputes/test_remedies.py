"""games.disputes remedies: void, rewind and resume, florin adjustment. Each needs a
reason, writes an audit entry, and never edits history."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from openskill.models import PlackettLuce

import engine.indulgence as rules
from games import disputes, selectors, services
from games.errors import GameNotActive, InvalidRequest, VersionConflict
from games.models import (
    ActorKind,
    AuditAction,
    AuditEntry,
    Dispute,
    FlorinAdjustment,
    Game,
    GameStatus,
    HandSettlement,
    Move,
    Notification,
    NotificationKind,
    Rating,
    RatingChange,
)
from games.staff import selectors as staff_selectors
from tests.disputes.conftest import Users, finished_rated_game, log_append, playthrough
from tests.helpers import play_humans_until

pytestmark = pytest.mark.django_db


def live_replay(game: Game) -> dict[str, Any]:
    moves = [
        {"seat": m.seat, "action": m.action}
        for m in Move.objects.filter(game=game, archived_at=None).order_by("seq")
    ]
    state = selectors.record_replay(
        player_count=game.player_count, variant=game.variant, seed=game.seed, moves=moves
    )
    return rules.state_to_json(state)


def stored(game: Game) -> dict[str, Any]:
    """The game's whole stored state (snapshot and settled hands' records), as JSON."""
    return rules.state_to_json(selectors.game_state(game))


class TestVoid:
    def test_voiding_a_finished_game_rolls_its_ratings_back(
        self, finished_game: Game, players: Users, staff: Any, dispute_on: Callable[..., Dispute]
    ) -> None:
        changes = list(RatingChange.objects.filter(game=finished_game))
        assert len(changes) == 3
        dispute = dispute_on(finished_game)
        disputes.dispute_review_start(dispute_id=dispute.pk, staff=staff)
        entry = disputes.game_void(
            game_id=finished_game.pk,
            staff=staff,
            reason="Seat 2's client sent moves twice.",
            dispute_id=dispute.pk,
        )
        finished_game.refresh_from_db()
        assert finished_game.status == GameStatus.VOID
        model = PlackettLuce()
        for rating in Rating.objects.filter(player__user__in=players.values()):
            assert (rating.mu, rating.sigma, rating.games) == (model.mu, model.sigma, 0)
        assert all(c.rolled_back_at is not None for c in RatingChange.objects.all())
        assert entry.action == AuditAction.GAME_VOID
        assert entry.dispute == dispute
        told = Notification.objects.filter(kind=NotificationKind.DISPUTE_UPDATE)
        assert sorted(n.user_id for n in told if n.data["event"] == "game_voided") == sorted(
            u.pk for u in players.values()
        )
        assert {r["method"] for r in entry.details["ratings_rolled_back"]} == {"exact"}
        # Nobody has a rated game left in this pool: the leaderboard is empty again.
        assert selectors.leaderboard(variant=finished_game.variant, player_count=3) == []
        # The record of play is untouched, and a void game takes no more moves.
        assert Move.objects.filter(game=finished_game, archived_at=None).count() == (
            finished_game.move_count
        )
        with pytest.raises(GameNotActive):
            services.action_submit(game_id=finished_game.pk, user=players[0], action={})

    def test_voiding_keeps_the_effect_of_later_rated_games(
        self, finished_game: Game, players: Users, staff: Any
    ) -> None:
        later = finished_rated_game(players, seed=1)
        assert later.status == GameStatus.FINISHED
        rating = Rating.objects.get(player__user=players[0])
        first = RatingChange.objects.get(game=finished_game, rating=rating)
        before_void = (rating.mu, rating.sigma)

        entry = disputes.game_void(game_id=finished_game.pk, staff=staff, reason="Collusion.")

        rating.refresh_from_db()
        assert rating.mu == pytest.approx(before_void[0] - (first.mu_after - first.mu_before))
        assert rating.sigma == pytest.approx(
            before_void[1] - (first.sigma_after - first.sigma_before)
        )
        assert rating.games == 1
        assert {r["method"] for r in entry.details["ratings_rolled_back"]} == {"delta"}
        assert RatingChange.objects.get(game=later, rating=rating).rolled_back_at is None

    def test_voiding_needs_a_reason_and_a_current_version(
        self, running_game: Game, staff: Any
    ) -> None:
        with pytest.raises(InvalidRequest, match="Write the reason"):
            disputes.game_void(game_id=running_game.pk, staff=staff, reason=" ")
        with pytest.raises(VersionConflict):
            disputes.game_void(game_id=running_game.pk, staff=staff, reason="x", expected_version=1)
        assert Game.objects.get(pk=running_game.pk).status == GameStatus.IN_PROGRESS
        assert not AuditEntry.objects.exists()

    def test_a_game_voided_mid_hand_shows_nobody_to_act(
        self, running_game: Game, players: Users, staff: Any
    ) -> None:
        assert running_game.to_act_seat is not None
        disputes.game_void(game_id=running_game.pk, staff=staff, reason="Broken.")
        running_game.refresh_from_db()
        for user in [*players.values(), staff]:
            view = selectors.game_view(game=running_game, user=user)
            assert (view["status"], view["to_act"], view["legal_actions"]) == ("void", None, [])
        summary = selectors.game_summary(game=running_game, user=players[0])
        assert (summary["to_act"], summary["my_turn"]) == (None, False)

    def test_a_void_game_cannot_be_voided_again(self, running_game: Game, staff: Any) -> None:
        disputes.game_void(game_id=running_game.pk, staff=staff, reason="Broken.")
        with pytest.raises(disputes.RemedyNotAllowed, match="only a running or finished game"):
            disputes.game_void(game_id=running_game.pk, staff=staff, reason="Again.")


class TestRewind:
    def test_rewind_archives_later_moves_and_replays_the_kept_ones(
        self,
        running_game: Game,
        players: Users,
        staff: Any,
        django_capture_on_commit_callbacks: Any,
    ) -> None:
        steps = playthrough(running_game)
        first_settlement = steps.index({"seat": None, "action": {"type": "advance"}})
        game = log_append(running_game, players, steps[: first_settlement + 5])
        to_move = first_settlement - 2  # inside the first hand, before its settlement
        moves_before, version_before = game.move_count, game.version
        before = staff_selectors.replay_step(game=game)

        with django_capture_on_commit_callbacks(execute=True):
            entry = disputes.game_rewind(
                game_id=game.pk,
                staff=staff,
                to_move=to_move,
                reason="The last trick of hand 1 was played under a stale view.",
                expected_version=game.version,
            )

        game.refresh_from_db()
        assert game.move_count == to_move
        assert game.version == version_before + 1
        assert stored(game) == live_replay(game)
        archived = Move.objects.filter(game=game).exclude(archived_at=None)
        assert sorted(archived.values_list("seq", flat=True)) == list(
            range(to_move + 1, moves_before + 1)
        )
        assert set(archived.values_list("archived_by", flat=True)) == {entry.pk}
        assert HandSettlement.objects.get(game=game, hand_number=1).archived_at is not None
        assert entry.details["settlements_archived"] == [1]
        replaced = staff_selectors.replay_step(game=game, branch=entry.pk)
        assert replaced["steps"] == moves_before
        assert (replaced["seats"], replaced["florins"]) == (before["seats"], before["florins"])
        assert staff_selectors.replay_step(game=game)["steps"] == to_move
        told = Notification.objects.filter(kind=NotificationKind.DISPUTE_UPDATE)
        assert sorted(n.user_id for n in told) == sorted(u.pk for u in players.values())
        assert any("rewound" in m.subject for m in mail.outbox)

    def test_play_resumes_after_a_rewind_and_the_game_can_finish(
        self, running_game: Game, players: Users, staff: Any
    ) -> None:
        steps = playthrough(running_game)
        advances = [i for i, step in enumerate(steps) if step["action"]["type"] == "advance"]
        last_but_one = advances[-2]  # the settlement of the last hand but one
        game = log_append(running_game, players, steps[: last_but_one + 3])
        hand = len(advances) - 1
        disputes.game_rewind(game_id=game.pk, staff=staff, to_move=last_but_one, reason="r")
        game.refresh_from_db()
        assert game.to_act_seat is None  # the hand is waiting for its settlement again
        assert services.hand_settle(game_id=game.pk, hand_number=hand) is True
        assert HandSettlement.objects.filter(game=game, hand_number=hand).count() == 2

        game = play_humans_until(game, players, rng=random.Random(5))

        assert game.status == GameStatus.FINISHED
        assert stored(game) == live_replay(game)
        record = selectors.game_export(game=game)
        assert selectors.record_verify(record) == []
        assert [m["seq"] for m in record["moves"]] == list(range(1, game.move_count + 1))
        assert Move.objects.filter(game=game).exclude(archived_at=None).exists()

    def test_rewinding_a_finished_game_reopens_it_and_it_is_rated_again(
        self, finished_game: Game, players: Users, staff: Any
    ) -> None:
        disputes.game_rewind(
            game_id=finished_game.pk,
            staff=staff,
            to_move=finished_game.move_count - 5,
            reason="The last hand was dealt to a disconnected seat.",
        )
        finished_game.refresh_from_db()
        assert finished_game.status == GameStatus.IN_PROGRESS
        assert finished_game.result is None
        assert all(c.rolled_back_at for c in RatingChange.objects.filter(game=finished_game))

        game = play_humans_until(finished_game, players, rng=random.Random(9))

        assert game.status == GameStatus.FINISHED
        changes = RatingChange.objects.filter(game=game)
        assert changes.count() == 6
        assert changes.filter(rolled_back_at=None).count() == 3
        assert all(r.games == 1 for r in Rating.objects.filter(player__user__in=players.values()))

    def test_bots_play_on_after_a_rewind(
        self, owner: Any, staff: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            game = services.game_create(
                creator=owner,
                player_count=3,
                rated=False,
                seed="rewind-bots",
                bots=[(1, "random"), (2, "random")],
            )
        game = play_humans_until(game, {0: owner}, stop_seat=0)
        bot_move = Move.objects.filter(game=game, actor_kind=ActorKind.BOT).order_by("seq").last()
        assert bot_move is not None

        with django_capture_on_commit_callbacks(execute=True):
            disputes.game_rewind(
                game_id=game.pk, staff=staff, to_move=bot_move.seq - 1, reason="Replay the bots."
            )

        game.refresh_from_db()
        assert game.to_act_seat == 0, "the bots moved again after commit, up to the human"
        assert game.move_count >= bot_move.seq
        assert stored(game) == live_replay(game)

    def test_a_rewind_can_hand_an_autopilot_seat_back_to_its_player(
        self, running_game: Game, players: Users, staff: Any
    ) -> None:
        log_append(running_game, players, playthrough(running_game)[:4])
        running_game.seats.filter(number=2).update(bot_kind="random", autopilot_streak=3)
        disputes.game_rewind(
            game_id=running_game.pk,
            staff=staff,
            to_move=0,
            reason="The timeouts were our outage.",
            return_autopilot_seats=True,
        )
        seat = running_game.seats.get(number=2)
        assert (seat.bot_kind, seat.autopilot_streak) == ("", 0)

    def test_rewind_targets_must_be_earlier_moves(self, running_game: Game, staff: Any) -> None:
        with pytest.raises(InvalidRequest, match="the game has 0 moves"):
            disputes.game_rewind(game_id=running_game.pk, staff=staff, to_move=0, reason="r")


class TestAdjust:
    def test_an_adjustment_shows_in_the_totals_and_the_export(
        self, finished_game: Game, players: Users, staff: Any
    ) -> None:
        before = selectors.game_view(game=finished_game, user=players[0])
        adjustment = disputes.florins_adjust(
            game_id=finished_game.pk,
            staff=staff,
            seat=1,
            amount=7,
            reason="Refund of the payment the misapplied edict took.",
        )
        finished_game.refresh_from_db()
        view = selectors.game_view(game=finished_game, user=players[0])
        assert view["seats"][1]["florins"] == before["seats"][1]["florins"] + 7
        assert view["seats"][1]["florins_adjustment"] == 7
        assert view["seats"][0]["florins"] == before["seats"][0]["florins"]
        assert view["florin_adjustments"][0]["amount"] == 7
        assert view["version"] == before["version"] + 1

        record = selectors.game_export(game=finished_game)
        played = record["result"]["florins"]
        assert record["florins_adjusted"]["1"] == played["1"] + 7
        assert record["florins_adjusted"]["0"] == played["0"]
        assert record["florin_adjustments"][0]["reason"].startswith("Refund")
        assert selectors.record_verify(record) == [], "the record as played still verifies"
        assert adjustment.audit_entry.action == AuditAction.FLORINS_ADJUST
        assert finished_game.result == record["result"]

    def test_a_rewound_game_plays_on_with_the_rules_florins(
        self, finished_game: Game, players: Users, staff: Any
    ) -> None:
        disputes.florins_adjust(
            game_id=finished_game.pk, staff=staff, seat=1, amount=7, reason="Refund."
        )
        disputes.game_rewind(
            game_id=finished_game.pk,
            staff=staff,
            to_move=finished_game.move_count - 5,
            reason="Lag.",
        )
        finished_game.refresh_from_db()
        view = selectors.game_view(game=finished_game, user=players[0])
        engine_view = rules.view(rules.state_from_json(finished_game.snapshot), 0)
        assert [s["florins"] for s in view["seats"]] == [s["florins"] for s in engine_view["seats"]]
        assert view["seats"][1]["florins_adjustment"] == 7  # still on record, listed
        assert view["florin_adjustments"][0]["amount"] == 7

        game = play_humans_until(finished_game, players, rng=random.Random(3))
        assert game.status == GameStatus.FINISHED
        view = selectors.game_view(game=game, user=players[0])
        assert game.result is not None
        assert view["seats"][1]["florins"] == game.result["florins"]["1"] + 7

    def test_adjustments_are_for_finished_games_only(self, running_game: Game, staff: Any) -> None:
        with pytest.raises(disputes.RemedyNotAllowed, match="finished games only"):
            disputes.florins_adjust(
                game_id=running_game.pk, staff=staff, seat=0, amount=3, reason="r"
            )
        assert not FlorinAdjustment.objects.exists()

    @pytest.mark.parametrize(
        ("seat", "amount", "message"),
        [(0, 0, "not 0"), (3, 5, "no seat 3"), (0, 10_001, "at most 10000")],
    )
    def test_an_adjustment_must_make_sense(
        self, finished_game: Game, staff: Any, seat: int, amount: int, message: str
    ) -> None:
        with pytest.raises(InvalidRequest, match=message):
            disputes.florins_adjust(
                game_id=finished_game.pk, staff=staff, seat=seat, amount=amount, reason="r"
            )
