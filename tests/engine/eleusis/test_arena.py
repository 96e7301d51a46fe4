"""python -m engine.arena eleusis: seeded one-round games between bots (issue 22, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import arena
from engine.eleusis import META, full_record
from engine.eleusis.arena import (
    ArenaConfig,
    ArenaError,
    RoundOutcome,
    SeatOutcome,
    config_problems,
    format_report,
    game_seed,
    play_game,
    play_round,
    rotated,
    summarise,
    verdict,
)
from engine.eleusis.setup import tier
from engine.eleusis.state import DIFFICULTIES
from engine.stats import Interval

SMALL = ArenaConfig(
    seats=("novice", "random", "random"),
    tiers=("easy", "medium"),
    rounds=3,
    seed="arena-test",
    sanity_walks=3,
    compare=("novice", "random"),
)


def _without_wall(report: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in report.items() if k != "wall_seconds"}


def test_each_round_rotates_the_line_up_from_the_dealers_left() -> None:
    assert rotated(("a", "b", "c"), 0) == ("a", "b", "c")
    assert rotated(("a", "b", "c"), 1) == ("b", "c", "a")
    assert rotated(("a", "b", "c"), 5) == ("c", "a", "b")
    for index in range(3):
        state, lineup = play_game(SMALL, "easy", index)
        r = state.rounds[0]
        assert state.seed == game_seed("arena-test", "easy", index) == f"arena-test/easy/{index}"
        assert lineup == rotated(SMALL.seats, index)
        assert r.dealer is not None
        outcome = play_round(SMALL, "easy", index)
        assert [s.seat for s in outcome.seats] == [(r.dealer + 1 + p) % 4 for p in range(3)]
        assert [s.kind for s in outcome.seats] == list(lineup)


@pytest.mark.parametrize("tier_name", DIFFICULTIES)
def test_or20_the_dealer_bot_deals_a_library_rule_of_the_rounds_tier(tier_name: str) -> None:
    config = ArenaConfig(seats=("random",) * 3, tiers=(tier_name,), rounds=1, sanity_walks=3)
    state, _ = play_game(config, tier_name, 0)
    r = state.rounds[0]
    assert r.rule is not None
    assert r.rule.difficulty == tier_name
    assert r.rule.library_id in [e.id for e in tier(tier_name)]
    assert state.settings.round_limit == 1
    assert state.end is not None  # the game is that one round


def test_points_are_the_rounds_scores_of_the_seats() -> None:
    state, _ = play_game(SMALL, "medium", 1)
    outcome = play_round(SMALL, "medium", 1)
    score = state.rounds[0].score
    assert score is not None
    assert [s.points for s in outcome.seats] == [score.scores[s.seat] for s in outcome.seats]
    assert outcome.dealer_points == score.scores[state.rounds[0].dealer or 0]
    assert outcome.turns == len(state.rounds[0].turns)


def test_or39_plays_to_office_counts_the_judged_turns_before_the_true_prophets_line() -> None:
    # A round (found by search) in which a random bot declares and is never overthrown:
    # if the random bot changes, pick another seed with a true prophet.
    config = ArenaConfig(("random",) * 3, ("easy",), rounds=1, seed="tp", sanity_walks=3)
    state, _ = play_game(config, "easy", 36)
    outcome = play_round(config, "easy", 36)
    prophets = [s for s in outcome.seats if s.true_prophet]
    assert len(prophets) == 1, "no true prophet in this round: pick another seed"
    prophet = prophets[0]
    # Recount from the exported record: verdict events before the prophet event of that
    # seat (its declaring turn's verdict included); every call after it was approved.
    log = full_record(state)["rounds"][0]["log"]
    events = [(e["seq"], ev) for e in log for ev in e["events"]]
    line_at = next(
        i
        for i, (_, ev) in enumerate(events)
        if ev["type"] == "prophet" and ev["seat"] == prophet.seat
    )
    judged_before = sum(1 for _, ev in events[:line_at] if ev["type"] == "verdict")
    assert prophet.plays_to_office == judged_before
    approvals = [ev["approved"] for _, ev in events[line_at:] if ev["type"] == "approval"]
    assert approvals
    assert all(approvals)
    assert full_record(state)["rounds"][0]["end"]["score"]["prophet"]["seat"] == prophet.seat
    assert not prophet.overthrown
    others = [s for s in outcome.seats if s is not prophet]
    assert all(s.plays_to_office is None for s in others)


def _seat(kind: str, position: int, points: int, prophet: bool = False, over: bool = False,
          plays: int | None = None) -> SeatOutcome:  # fmt: skip
    return SeatOutcome(kind, position + 1, position, points, prophet, over, plays)


def _round(index: int, *seats: SeatOutcome) -> RoundOutcome:
    return RoundOutcome("easy", index, f"s/easy/{index}", "R01", "out_of_cards", 30, 10, seats)


def test_the_summary_counts_seat_rounds_shares_means_and_paired_differences() -> None:
    config = ArenaConfig(seats=("a", "b", "b"), tiers=("easy",), rounds=4, compare=("a", "b"))
    outcomes = [
        _round(0, _seat("a", 0, 30, prophet=True, plays=12), _seat("b", 1, 4), _seat("b", 2, 0)),
        _round(1, _seat("b", 0, 8, over=True), _seat("b", 1, 2), _seat("a", 2, 10)),
        _round(2, _seat("b", 0, 6), _seat("a", 1, 14, over=True), _seat("b", 2, 10)),
        _round(3, _seat("a", 0, 22, prophet=True, plays=20), _seat("b", 1, 0), _seat("b", 2, 0)),
    ]
    report = summarise(config, outcomes)
    easy = report["tiers"]["easy"]
    a, b = easy["bots"]["a"], easy["bots"]["b"]
    assert (a["seat_rounds"], b["seat_rounds"]) == (4, 8)
    assert a["true_prophet"]["estimate"] == 0.5
    assert a["true_prophet"]["low"] == pytest.approx(0.1500, abs=1e-4)  # Wilson 2 of 4
    assert b["true_prophet"]["estimate"] == 0.0
    assert a["overthrown"]["estimate"] == 0.25
    assert b["overthrown"]["estimate"] == 1 / 8
    assert a["plays_to_office"]["estimate"] == 16.0
    assert a["plays_to_office"]["median"] == 16.0
    assert a["plays_to_office"]["n"] == 2
    assert b["plays_to_office"]["estimate"] is None
    assert a["points"]["estimate"] == pytest.approx((30 + 10 + 14 + 22) / 4)
    # b's points: the mean of its two seats in each round, then over the rounds.
    assert b["points"]["estimate"] == pytest.approx((2 + 5 + 8 + 0) / 4)
    compare = easy["compare"]
    assert compare["points"]["estimate"] == pytest.approx((28 + 5 + 6 + 22) / 4)
    assert compare["points"]["low"] < 0  # four rounds are too few to tell
    assert compare["points"]["above_zero"] is False
    assert compare["points"]["verdict"] == "includes zero"
    assert compare["true_prophet"]["estimate"] == pytest.approx(0.5)
    assert compare["true_prophet"]["n"] == 4
    assert easy["rules"] == {"R01": 4}
    assert "all" not in report  # one tier only
    text = format_report(report)
    assert "a - b: points/round +15.25 [-3." in text
    assert "(includes zero); true-prophet share +50.00 [" in text
    assert "50.0% [15.0%, 85.0%]" in text


def test_a_difference_is_above_below_or_around_zero() -> None:
    assert verdict(Interval(2.0, 0.5, 3.5, 40)) == "above zero"
    assert verdict(Interval(-2.0, -3.5, -0.5, 40)) == "below zero"
    assert verdict(Interval(0.1, -1.0, 1.2, 40)) == "includes zero"
    assert verdict(Interval(1.0, None, None, 1)) == "no interval"


def test_same_seed_same_report_whatever_the_number_of_workers() -> None:
    one = arena.run_eleusis(SMALL, workers=1)
    two = arena.run_eleusis(SMALL, workers=2)
    again = arena.run_eleusis(SMALL, workers=1)
    assert _without_wall(one) == _without_wall(two) == _without_wall(again)
    other = arena.run_eleusis(ArenaConfig(**{**SMALL.__dict__, "seed": "another-seed"}), workers=1)
    assert _without_wall(other) != _without_wall(one)


def test_a_tiny_run_from_the_command_line_reports_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    args = ["eleusis", "--seats", "novice,random,random", "--rounds", "3"]
    args += ["--tiers", "easy,medium", "--seed", "cli", "--sanity-walks", "3"]
    args += ["--compare", "novice", "random", "--workers", "2", "--json", str(out)]
    assert arena.main(args) == 0
    text = capsys.readouterr().out
    assert text.startswith("New Eleusis arena: 4 seats (dealer bot + novice, random, random")
    assert "tier easy (grade 1): 3 rounds" in text
    assert "tier medium (grade 2): 3 rounds" in text
    assert "all tiers: 6 rounds" in text
    assert "novice - random: points/round" in text
    report = json.loads(out.read_text())
    for name in ("easy", "medium"):
        tier_report = report["tiers"][name]
        assert tier_report["rounds"] == 3
        assert tier_report["bots"]["novice"]["seat_rounds"] == 3
        assert tier_report["bots"]["random"]["seat_rounds"] == 6
        assert sum(tier_report["rules"].values()) == 3
        assert set(tier_report["rules"]) <= set(tier_report["library"])
        novice = tier_report["bots"]["novice"]
        assert novice["true_prophet"]["estimate"] == 0.0  # NE-30.1: it never declares
        assert novice["overthrown"]["estimate"] == 0.0
        for key in ("true_prophet", "plays_to_office", "overthrown", "points"):
            assert {"estimate", "low", "high", "n"} <= set(novice[key])
    assert report["all"]["rounds"] == 6
    assert report["intervals"]["shares"].startswith("Wilson")
    # --json - prints the same report on stdout instead of the table.
    assert arena.main([*args[:-2], "--json", "-"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert _without_wall(printed) == _without_wall(report)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seats", "novice,nobody,random"], "unknown bot kind(s) nobody"),
        (["--seats", "novice,dealer,random"], "dealer only deals"),
        (["--seats", "novice"], "1 scientist seats"),
        (["--seats", ",".join(["random"] * 10)], "10 scientist seats"),
        (["--tiers", "easy,impossible"], "unknown tier(s) impossible"),
        (["--compare", "novice", "scientist-x"], "scientist-x not among the seats"),
        (["--compare", "random", "random"], "two different kinds"),
        (["--rounds", "0"], "at least 1 round"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--sanity-walks", "0"], "sanity walks are 1 to 300"),
    ],
)
def test_command_line_errors_are_usage_errors_that_say_what_is_wrong(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        arena.main(["eleusis", "--seats", "novice,random,random", *extra])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_the_scientist_kinds_are_the_games_bots_but_the_dealer() -> None:
    config = ArenaConfig(seats=("novice", "random"))
    assert config_problems(config) == []
    assert set(arena.scientist_kinds()) == set(META.bots) - {"dealer"}


def test_a_failing_bot_stops_the_run_naming_the_bot_and_the_round(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(META.bots, "broken", lambda view, rng: {"type": "play", "cards": []})
    config = ArenaConfig(("broken", "random", "random"), ("easy",), rounds=1, sanity_walks=3)
    with pytest.raises(ArenaError, match=r"broken bot at seat \d failed in round 'arena/easy/0'"):
        play_round(config, "easy", 0)
    args = ["eleusis", "--seats", "broken,random,random", "--rounds", "1", "--tiers", "easy"]
    args += ["--sanity-walks", "3"]
    assert arena.main(args) == 1
    assert "the broken bot" in capsys.readouterr().err


def test_indulgence_stays_the_default_game_and_may_be_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "3", "--bots", "random,random,random", "--seed", "same"]
    assert arena.main([*args, "--json", str(tmp_path / "default.json")]) == 0
    default = capsys.readouterr().out
    assert arena.main(["indulgence", *args, "--json", str(tmp_path / "named.json")]) == 0
    assert default.startswith("3 players, basic, line-up random,random,random")

    def untimed(name: str) -> dict[str, object]:
        summary = json.loads((tmp_path / name).read_text())
        del summary["wall_seconds"]
        for bot in summary["bots"].values():
            for key in [k for k in bot if k.startswith("seconds_per_decision")]:
                del bot[key]
        return summary

    assert untimed("default.json") == untimed("named.json")
