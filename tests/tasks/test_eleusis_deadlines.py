"""New Eleusis by notification (NE-26, NE-27; issue 24 item 5): every phase is a turn with
its own deadline, a missed one does what NE-27 says (the engine's ``timeout_action`` or
the novice autopilot), and the people concerned are told: the prophet must call, the
scientist's play awaits the prophet and is judged, the round ended."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import deadlines, selectors, services
from games.kinds.eleusis import default_deadlines
from games.models import ActorKind, Game, Move, Notification, NotificationKind, Seat
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db(transaction=True)  # after-commit work runs

HOUR = 3600
FIRST_DEALER_0 = "deal-0"  # a seed whose first dealer is seat 0 (E04)
# Our ruling OR44's deadlines of this table, with the call's set shorter than the turn's.
DEADLINES = {"prophet_call": 1800}


@pytest.fixture
def four(users: list[Any], make_user: Any) -> list[Any]:
    return [*users, make_user("fourth")]


def table(four: list[Any], *, rated: bool = False, timeout: int | None = 2 * HOUR) -> Game:
    """Four people at a New Eleusis table, seat 0 dealing first (R02: red cards right)."""
    game = game_with_seed(
        creator=four[0],
        seed=FIRST_DEALER_0,
        game_type="eleusis",
        player_count=4,
        rated=rated,
        turn_timeout_seconds=timeout,
        options={"hand_size": 6, "sanity_walks": 20, "deadlines": DEADLINES},
    )
    for user in four[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def act(game: Game, user: Any, action: dict[str, Any]) -> dict[str, Any]:
    game.refresh_from_db()
    result = services.action_submit(
        game_id=game.pk, user=user, action=action, expected_version=game.version
    )
    game.refresh_from_db()
    return result.view


def view_of(game: Game, user: Any) -> dict[str, Any]:
    game.refresh_from_db()
    return selectors.game_view(game=game, user=user)


def seconds_left(game: Game) -> float:
    game.refresh_from_db()
    assert game.turn_deadline is not None
    return (game.turn_deadline - timezone.now()).total_seconds()


def red(hand: list[str]) -> str | None:
    return next((card for card in hand if card.split(".")[0][-1] in "HD"), None)


def with_a_prophet(game: Game, four: list[Any]) -> tuple[int, int]:
    """Seat 0 deals R02 (red only); scientists play until one plays a red card declaring
    prophet; the next scientist plays, and the prophet must call. Returns (prophet,
    scientist whose play is pending)."""
    act(game, four[0], {"type": "library_rule", "id": "R02", "confirm_warnings": True})
    for _ in range(20):
        view = view_of(game, four[game.to_act_seat])
        if view["phase"] == "prophet_call":
            return view["round"]["prophet"]["seat"], view["round"]["pending"]["seat"]
        seat = view["to_act"]
        card = red(view["my_hand"]) or view["my_hand"][0]
        intent = (
            "declare" if view["round"]["prophet"] is None and view["prophet_possible"] else "no"
        )
        act(game, four[seat], {"type": "play", "cards": [card], "prophet": intent})
    raise AssertionError("no prophet call came")


def test_each_phase_runs_on_its_own_deadline_from_the_tables_time(four: list[Any]) -> None:
    """OR44: a table of two hours per move gives the dealer 24 hours for the rule
    (correspondence), the scientists two hours, the prophet its own (here 30 minutes)."""
    assert default_deadlines(2 * HOUR) == {
        "turn": 2 * HOUR,
        "prophet_call": 2 * HOUR,
        "prophet_window": 2 * HOUR,
        "rule_submission": 24 * HOUR,
        "dealer_choice": 2 * HOUR,
    }
    assert default_deadlines(300)["rule_submission"] == 600  # a live table: 10 minutes
    game = table(four)
    assert view_of(game, four[0])["phase"] == "rule_setup"
    assert seconds_left(game) == pytest.approx(24 * HOUR, abs=60)
    prophet, _scientist = with_a_prophet(game, four)
    assert seconds_left(game) == pytest.approx(1800, abs=60)  # prophet_call
    assert game.to_act_seat == prophet


def test_a_table_without_time_per_move_has_no_deadline(four: list[Any]) -> None:
    game = table(four, timeout=None)
    game.refresh_from_db()
    assert game.turn_deadline is None


def test_the_prophet_is_told_to_call_and_the_player_that_their_play_waits(
    four: list[Any],
) -> None:
    game = table(four)
    prophet, scientist = with_a_prophet(game, four)
    call = Notification.objects.filter(user=four[prophet], kind=NotificationKind.YOUR_TURN)
    assert call.latest("id").title == f"The prophet must call in game {game.pk}"
    waiting = Notification.objects.get(user=four[scientist], kind=NotificationKind.PLAY_PENDING)
    assert "awaits the prophet" in waiting.title
    verdict = view_of(game, four[prophet])["legal_actions"][0]
    act(game, four[prophet], verdict)
    judged = Notification.objects.get(user=four[scientist], kind=NotificationKind.PLAY_JUDGED)
    assert judged.data["seq"] == waiting.data["seq"]
    assert "was judged" in judged.title


def test_a_missed_call_in_an_unrated_table_is_the_autopilots(four: list[Any]) -> None:
    """E29 (unrated): the seat's autopilot, the novice bot, calls from the public
    evidence; the record says "autopilot"; the scientist is told the play was judged."""
    game = table(four)
    prophet, scientist = with_a_prophet(game, four)
    later = timezone.now() + timedelta(seconds=1801)
    assert deadlines.sweep(now=later).timeouts == 1
    move = Move.objects.filter(game=game).latest("seq")
    assert (move.seat, move.actor_kind, move.bot_name) == (prophet, ActorKind.AUTOPILOT, "novice")
    assert move.action["type"] == "call"
    assert Notification.objects.filter(user=four[scientist], kind="play_judged").exists()
    log = view_of(game, four[prophet])["round"]["log"]
    assert log[-1]["by"] == "autopilot"


def test_a_missed_call_in_a_rated_table_overthrows_the_prophet(four: list[Any]) -> None:
    """E29 (rated, no standing prophecy): treated as a wrong call, the prophet is
    overthrown, the server resolves the turn itself; logged as the timeout's."""
    game = table(four, rated=True)
    prophet, _scientist = with_a_prophet(game, four)
    later = timezone.now() + timedelta(seconds=1801)
    assert deadlines.sweep(now=later).timeouts == 1
    move = Move.objects.filter(game=game).latest("seq")
    assert (move.seat, move.actor_kind, move.bot_name) == (prophet, ActorKind.TIMEOUT, "")
    view = view_of(game, four[prophet])
    assert view["round"]["prophet"] is None
    assert view["round"]["prophet_lines"][-1] == {
        **view["round"]["prophet_lines"][-1],
        "seat": prophet,
        "overthrown": True,
    }
    assert view["round"]["log"][-1]["by"] == "timeout"
    told = Notification.objects.filter(user=four[prophet], kind=NotificationKind.AUTOPILOT_MOVE)
    assert (
        told.latest("id").title
        == f"Time ran out in game {game.pk}: the game's default moved for you"
    )


def test_a_dealer_who_sets_no_rule_gets_a_library_rule_at_the_tables_difficulty(
    four: list[Any],
) -> None:
    """E32: the rule submission's timeout picks a library rule at the table's difficulty;
    the seat is still the dealer."""
    game = table(four)
    later = timezone.now() + timedelta(seconds=24 * HOUR + 1)
    assert deadlines.sweep(now=later).timeouts == 1
    move = Move.objects.filter(game=game).latest("seq")
    assert move.actor_kind == ActorKind.TIMEOUT
    assert move.action == {"type": "library_rule", "difficulty": "medium"}
    view = view_of(game, four[0])
    assert view["phase"] == "turn"
    assert view["seats"][0]["role"] == "dealer"
    assert view["dealer_secret"]["library_id"] is not None


def test_decide_after_opens_the_prophecy_window_and_a_missed_one_passes(four: list[Any]) -> None:
    """NE-26.2, E39: "decide_after" opens post_play for the player if they may still
    declare; its deadline is the prophecy window; missing it means "no"."""
    game = table(four)
    act(game, four[0], {"type": "library_rule", "id": "R02", "confirm_warnings": True})
    for _ in range(10):
        view = view_of(game, four[game.to_act_seat])
        card = red(view["my_hand"])
        if card is not None:
            break
        act(game, four[view["to_act"]], {"type": "play", "cards": [view["my_hand"][0]]})
    else:
        pytest.skip("nobody held a red card")
    seat = view["to_act"]
    after = act(game, four[seat], {"type": "play", "cards": [card], "prophet": "decide_after"})
    assert after["phase"] == "post_play"
    assert seconds_left(game) == pytest.approx(2 * HOUR, abs=60)  # prophet_window
    told = Notification.objects.filter(user=four[seat], kind=NotificationKind.YOUR_TURN)
    assert told.latest("id").title == f"Decide on prophecy in game {game.pk}"
    later = timezone.now() + timedelta(seconds=2 * HOUR + 1)
    assert deadlines.sweep(now=later).timeouts == 1
    move = Move.objects.filter(game=game).latest("seq")
    assert (move.actor_kind, move.action) == (ActorKind.TIMEOUT, {"type": "pass"})
    assert view_of(game, four[seat])["phase"] == "turn"


def test_a_scientist_who_misses_turns_is_played_by_the_novice_and_then_handed_over(
    four: list[Any], settings: Any
) -> None:
    """NE-27.2, E31: the autopilot (novice) plays a missed turn; after
    AUTOPILOT_HANDOVER_AFTER in a row the seat is the novice bot's for the rest of the
    game, which keeps it moving at once."""
    game = table(four)
    act(game, four[0], {"type": "library_rule", "id": "R02", "confirm_warnings": True})
    missed = 0
    now = timezone.now()
    while missed < settings.AUTOPILOT_HANDOVER_AFTER:
        game.refresh_from_db()
        seat = game.to_act_seat
        if seat == 1:
            now += timedelta(seconds=2 * HOUR + 1)
            assert deadlines.sweep(now=now).timeouts == 1
            missed += 1
            continue
        view = view_of(game, four[seat])
        act(game, four[seat], next(a for a in view["legal_actions"] if "template" not in a))
    moves = Move.objects.filter(game=game, seat=1)
    assert {m.bot_name for m in moves} == {"novice"}
    game.seats.get(number=1).refresh_from_db()
    assert game.seats.get(number=1).bot_kind == "novice"


def test_a_rated_prophets_seat_handed_to_a_bot_is_overthrown_at_the_next_call(
    four: list[Any],
) -> None:
    """Our ruling OR45 (E30): a seat handed to a bot after repeated timeouts plays the
    game's own timeout default first; a rated prophet's seat without a standing prophecy
    is therefore overthrown at its next call, not handed to a bot that calls well."""
    game = table(four, rated=True)
    prophet, _scientist = with_a_prophet(game, four)
    Seat.objects.filter(game=game, number=prophet).update(bot_kind="novice")  # handed over
    game.refresh_from_db()
    assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
    move = Move.objects.filter(game=game).latest("seq")
    assert (move.seat, move.actor_kind) == (prophet, ActorKind.TIMEOUT)
    assert view_of(game, four[prophet])["round"]["prophet_lines"][-1]["overthrown"]


def test_an_unrated_prophets_seat_handed_to_a_bot_calls_by_the_bot(four: list[Any]) -> None:
    """OR45 (E30, unrated): the bot calls, logged as the autopilot's."""
    game = table(four)
    prophet, _scientist = with_a_prophet(game, four)
    Seat.objects.filter(game=game, number=prophet).update(bot_kind="novice")
    game.refresh_from_db()
    assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
    move = Move.objects.filter(game=game, seat=prophet).latest("seq")
    assert (move.actor_kind, move.bot_name, move.action["type"]) == (
        ActorKind.BOT,
        "novice",
        "call",
    )
    assert view_of(game, four[prophet])["round"]["log"][-1]["by"] == "autopilot"
