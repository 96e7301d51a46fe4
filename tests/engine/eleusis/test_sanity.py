"""NE-22: the sanity check before a round (starter, exact dead ends, random walks,
verdicts) and our rulings on it (OR09-OR11)."""

from __future__ import annotations

import pytest

from engine.eleusis.erl import compile_rule
from engine.eleusis.sanity import SanitySettings, abstraction, exact_check, sanity_check

QUICK = SanitySettings(walks=20, library_probes=0)


def codes(source: str, settings: SanitySettings = QUICK) -> tuple[str, list[str]]:
    report = sanity_check(compile_rule(source), settings)
    return report.verdict, [r.code for r in report.reasons]


@pytest.mark.parametrize(
    ("source", "code"),
    [
        ("accept true", "never_wrong"),
        ("accept card.rank > prev.rank", "dead_end"),
        ("accept not any(c.rank == card.rank)", "dead_end"),
        ("accept len < 6", "dead_end"),
        ("accept card.rank == 1 and card.red", "too_restrictive"),
        ("accept card.rank != 1 or prev.rank == 5", "too_permissive"),
        ("start false\naccept card.red", "no_starter"),
    ],
)
def test_ne_22_8_the_check_rejects(source: str, code: str) -> None:
    verdict, found = codes(source)
    assert verdict == "reject"
    assert code in found


def test_ne_22_3_exact_check_finds_the_dead_end_after_a_king() -> None:
    rule = compile_rule("accept card.rank > prev.rank")
    outcome, _states, dead = exact_check(rule, 250_000)
    assert outcome == "dead_end"
    assert dead is not None
    assert dead.faces[-1] // 4 + 1 == 13
    report = sanity_check(rule, QUICK)
    assert report.dead_end is not None
    assert report.dead_end[-1].startswith("K")


def test_ne_22_3_exact_check_of_len_compared_with_a_constant() -> None:
    """OR10: `len < 6` is finite (len capped at 7); the dead end is the 6-card line."""
    rule = compile_rule("accept len < 6")
    outcome, _, dead = exact_check(rule, 250_000)
    assert outcome == "dead_end"
    assert dead is not None
    assert len(dead.faces) == 6


def test_ne_22_3_exact_check_explores_each_abstract_state_once() -> None:
    assert exact_check(compile_rule("accept card.color != prev.color"), 250_000)[:2] == (
        "passed",
        52,
    )
    assert exact_check(compile_rule("accept card.black == ((len mod 12) in {0, 2, 3})"), 250_000)[
        :2
    ] == ("passed", 12)
    two = exact_check(
        compile_rule("accept (card.rank + prev.rank + prev2.rank) mod 2 == 1"), 250_000
    )
    assert two[:2] == ("passed", 2704)


def test_or10_len_in_arithmetic_is_not_finite_state() -> None:
    """OR10: `len + 1` (R40) has no finite abstraction; only the walks run."""
    assert abstraction(compile_rule("accept card.red == isprime(len + 1)")) is None
    assert abstraction(compile_rule("accept count(c.red) > 1")) is None  # an aggregate
    found = abstraction(compile_rule("accept if len mod 2 == 1 then card.red else len > 3"))
    assert found is not None
    assert (found.modulus, found.cap) == (2, 4)


def test_ne_22_3_exact_check_is_skipped_beyond_its_limit() -> None:
    rule = compile_rule("accept card.suit == prev4.suit")
    assert exact_check(rule, 250_000)[0] == "skipped"


def test_ne_22_2_few_starters_warn() -> None:
    verdict, found = codes("start card.rank == 13 and card.red\naccept card.suit != prev.suit")
    assert "few_starters" in found
    assert verdict == "warn"


def test_ne_22_5_warnings() -> None:
    assert codes("accept not (card.red and prev.red)") == ("warn", ["permissive"])
    verdict, found = codes(
        "accept card.rank == (prev.rank + (if len mod 2 == 1 then 1 else 2) - 1) mod 13 + 1"
    )
    assert verdict == "warn"
    assert "restrictive" in found


def test_ne_22_5_supply_exhaustion_warns() -> None:
    """R15 up-or-ace: the right copies of two decks run out early (NE-25.2: warn)."""
    report = sanity_check(
        compile_rule("accept card.rank == 1 or card.rank > prev.rank"),
        SanitySettings(walks=60, library_probes=0),
    )
    assert report.exhausted_at is not None
    assert report.exhausted_at <= 40
    assert report.verdict == "warn"


def test_ne_22_5_thresholds_are_settings() -> None:
    strict = SanitySettings(walks=10, warn_above=0.45, library_probes=0)
    assert codes("accept card.red", strict) == ("warn", ["permissive"])
    assert codes("accept card.red", SanitySettings(walks=10, library_probes=0)) == ("ok", [])


def test_or09_the_report_is_deterministic() -> None:
    """OR09: the walks are seeded from the rule's source: same rule, same report."""
    rule = compile_rule("accept card.suit == prev.suit or card.rank == prev.rank")
    a = sanity_check(rule, QUICK).to_json()
    b = sanity_check(compile_rule(rule.source + " "), QUICK, seed=rule.source).to_json()
    assert a == b
    c = sanity_check(rule, QUICK, seed="another").to_json()
    assert c["verdict"] == a["verdict"]


def test_ne_22_6_report_contents() -> None:
    report = sanity_check(compile_rule("accept card.color != prev.color"), QUICK)
    data = report.to_json()
    assert data["verdict"] == "ok"
    assert data["lookback"] == 1
    assert len(data["starter_faces"]) == 52
    assert data["first_turn"] is not None
    assert len(data["first_turn"]["9D"]) == 26
    assert sum(data["histogram"]) == 20 * 100
    assert data["judgements"] == 20 * 100 * 52
    assert abs(data["mean_share"] - 0.5) < 1e-9
    assert len(data["samples"]) == 3
    for sample in data["samples"]:
        assert len(sample["main_line"]) == 12
        assert sample["wrong_next"][-1] in "CDHS"
    assert data["features"] == ["color"]


def test_or11_mean_share_is_over_all_judgement_points() -> None:
    """OR11: the mean share of right faces is taken over every point of every walk."""
    report = sanity_check(compile_rule("accept card.rank <= 7"), QUICK)
    assert report.mean_share == pytest.approx(28 / 52)


def test_or12_a_starter_position_no_face_can_fill_is_a_dead_end() -> None:
    """OR12: five starters of five different suits cannot be drawn: rejected as a dead end
    at the start, with the starters drawn so far as the counterexample."""
    report = sanity_check(
        compile_rule("start not any(c.suit == card.suit)\naccept card.suit == prev5.suit"), QUICK
    )
    assert report.verdict == "reject"
    assert [r.code for r in report.reasons] == ["dead_end"]
    assert report.dead_end is not None
    assert len(report.dead_end) == 4


def test_or14_a_rule_that_behaves_like_a_library_rule_is_named() -> None:
    """NE-22.6, OR14: the same judgements on 2,000 random probes as a library rule (which
    players may know) is reported, without changing the verdict."""
    settings = SanitySettings(walks=5)
    report = sanity_check(compile_rule("accept prev.black == card.red"), settings)
    assert report.like_library == "R01"
    assert report.verdict == "ok"
    assert sanity_check(compile_rule("accept card.rank < 4"), settings).like_library is None


def test_or15_costly_rules_run_fewer_walks_within_the_step_budget() -> None:
    """NE-22.7, OR15: the CPU cap is a deterministic step budget; a costly rule runs fewer
    walks and the report says so."""
    rule = compile_rule("accept count(c.rank > card.rank and c.suit != prev.suit) <= len mod 5")
    assert rule.cost > 300 * 10  # the aggregate is recounted for every judgement
    settings = SanitySettings(walks=300, max_steps=100 * 52 * (rule.cost + 12) * 2 + 1)
    report = sanity_check(rule, settings)
    assert report.walks == 2
    assert report.walks_reduced_from == 300
    assert report.to_json()["walks_reduced_from"] == 300
    assert sanity_check(compile_rule("accept card.red"), QUICK).walks_reduced_from is None
