"""Whole random games through the contract: the 16.3 invariants after every step,
determinism, the JSON round trip, refusals that change nothing and name the rule, and a
structural proof that no view carries what 15.4 hides."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import IllegalAction, JsonDict
from engine.pax import engine as E
from engine.pax import record as R
from engine.pax.bots import play_game, random_bot
from engine.pax.invariants import problems
from engine.pax.state import State
from engine.pax.view import SECRET_ACTIONS, view

ID = re.compile(r"^(PIL\d{3}|P\d{2}|E-[A-Z]{3}|S\d{2})$")
games = st.tuples(st.sampled_from((2, 3, 4)), st.text(min_size=1, max_size=8))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_16_3_every_invariant_holds_after_every_step_of_random_games(game: tuple[int, str]) -> None:
    """16.3 after every step, with P-24's two more (event and plot cards conserved)."""
    players, seed = game

    def check(state: State) -> None:
        assert problems(state) == []

    run = play_game(players, seed, round_cap=25, on_state=check)
    result = E.result(run.state)
    assert result is not None
    assert sorted(s for rank in result["ranking"] for s in rank) == list(range(players))
    assert result["winner_seats"] == result["ranking"][0]


def _random_run(players: int, seed: str, cap: int = 20) -> list[State]:
    states = [E.new_game(players, "standard", seed, {"round_cap": cap})]
    rng = random.Random(seed)
    while not E.is_over(states[-1]):
        s = states[-1]
        seat = E.to_act(s)
        if seat is None:
            states.append(E.advance(s))
        else:
            states.append(E.apply(s, seat, rng.choice(E.legal_actions(s, seat))))
    return states


def test_the_same_seed_and_choices_give_the_same_game() -> None:
    a = play_game(3, "determinism", round_cap=15)
    b = play_game(3, "determinism", round_cap=15)
    assert a.state == b.state
    assert R.full_record(a.state) == R.full_record(b.state)
    assert R.state_to_json(a.state) == R.state_to_json(b.state)


def test_state_to_json_round_trips_exactly_and_plays_on_the_same() -> None:
    """P-9: the open decision and the program behind it (origin, answers) survive the
    JSON round trip and are found again by replay: the same state, the same play."""
    states = _random_run(3, "round-trip", cap=10)
    for s in [*states[::7], states[-1]]:
        text = json.dumps(R.state_to_json(s))
        back = R.state_from_json(json.loads(text))
        assert back == s
        seat = E.to_act(s)
        if seat is not None:
            assert E.legal_actions(back, seat) == E.legal_actions(s, seat)
    middle = next(s for s in states[40:] if E.to_act(s) is not None and s.origin is not None)
    seat = E.to_act(middle)
    assert seat is not None
    back = R.state_from_json(json.loads(json.dumps(R.state_to_json(middle))))
    action = E.legal_actions(middle, seat)[0]
    assert E.apply(back, seat, action) == E.apply(middle, seat, action)


def test_the_record_has_the_keys_of_appendix_h() -> None:
    s = _random_run(2, "record", cap=3)[-1]
    rec = R.full_record(s)
    assert list(rec) == ["format", "settings", "data", "seed", "seats", "setup", "log", "state"]
    assert rec["format"] == "pax-record/1"
    assert rec["seed"]["value"] == "record"  # published once the game is over
    assert rec["settings"] == {
        "variant": "standard",
        "players": 2,
        "automa": None,
        "layout": "M14",
        "round_cap": 3,
    }
    keys = {
        "round", "start_seat", "active_seat", "phase", "edicts_discarded", "final_round",
        "deck_exhaustions", "map", "pool", "players", "court", "chamberlain", "deck",
        "discard", "schemes", "oust_played", "plan", "event_deck", "event_discard",
        "event_box", "public_plots", "plot_deck", "claims", "faction_cards", "faction_box",
        "cubes", "automa_token", "turn", "oust", "pending", "result",
    }  # fmt: skip
    assert set(rec["state"]) == keys
    assert [e["seq"] for e in rec["log"]] == list(range(1, len(rec["log"]) + 1))
    assert rec["state"]["phase"] == "over"
    json.dumps(rec)


def test_the_registry_serves_pax_through_the_common_contract() -> None:
    game = registry.get("pax")
    assert game.META.player_counts == (2, 3, 4)
    assert game.META.variants == ("standard", "automa-SG", "automa-J2", "automa-AC", "automa-AW")
    assert "random" in game.META.bots
    s = game.new_game(2, "standard", "registry")
    assert game.full_record(s)["seed"]["commitment"] == game.seed_commitment("registry")
    assert game.full_record(s)["seed"]["value"] is None
    rng = random.Random(1)
    while not game.is_over(s) and len(s.log) < 60:
        seat = game.to_act(s)
        s = (
            game.advance(s)
            if seat is None
            else game.apply(s, seat, game.META.bots["random"](game.view(s, seat), rng))
        )
    result = game.result(s)
    assert result is None or result["ranking"]
    with pytest.raises(ValueError, match="round_cap"):
        game.new_game(2, "standard", "x", {"fast": True})


# --- refusals --------------------------------------------------------------------------


def _mutations(action: JsonDict, rng: random.Random) -> list[Any]:
    out: list[Any] = [None, [], {"type": "fly"}, {k: v for k, v in action.items() if k != "type"}]
    for key, value in action.items():
        if key == "type":
            continue
        for other in (None, "placard", [9, 9], [0, 0], -1, 7, "XYZ", "PIL001", True, [2, 4]):
            if other != value:
                out.append({**action, key: other})
    out.append({**action, "extra": 1})
    rng.shuffle(out)
    return out[:12]


def test_refused_actions_change_nothing_and_name_the_rule() -> None:
    rng = random.Random(5)
    refused = 0
    for s in _random_run(3, "refusals", cap=6)[:-1:3]:
        seat = E.to_act(s)
        if seat is None:
            with pytest.raises(IllegalAction) as err:
                E.apply(s, 0, {"type": "end"})
            assert err.value.code == "no_decision"
            continue
        before = json.dumps(R.state_to_json(s), sort_keys=True)
        legal = E.legal_actions(s, seat)
        other = (seat + 1) % 3
        with pytest.raises(IllegalAction) as err:
            E.apply(s, other, legal[0])
        assert err.value.code == "not_your_turn"
        for bad in _mutations(legal[0], rng):
            if bad in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                E.apply(s, seat, bad)
            assert err.value.code
            assert err.value.message.endswith(")") or err.value.message.endswith(".")
            refused += 1
        assert json.dumps(R.state_to_json(s), sort_keys=True) == before
    assert refused > 50


def test_refusals_in_the_action_phase_cite_the_rule() -> None:
    from tests.engine.pax.support import favor, hand, put, ready, table

    t = table(3, "seat-2")
    put(t, (2, 4), "PIL016", [])
    favor(t, 0, NOB=3, PRO=3)
    t.turn.main_used = 1
    s = ready(t)
    influence = {"type": "influence", "by": "main", "n": 1}
    cases: list[tuple[JsonDict, str, str]] = [
        ({**influence, "target": [2, 4]}, "not_adjacent", "7.2.1"),
        ({**influence, "target": [4, 4]}, "influence_target", "7.2.1"),
        (
            {"type": "scout", "by": "faction", "acting": None, "target": [4, 4]},
            "no_faction_card",
            "9.4",
        ),
        ({"type": "extort", "by": "main", "target": [2, 4]}, "extort_target", "7.3.1"),
        ({"type": "scheme", "card": "PIL001", "use": "quick"}, "not_in_hand", "8.1"),
        ({"type": "claim_faction", "card": "FC-NOB"}, "no_lodge", "9.1"),
        ({"type": "scout", "by": "main", "acting": "placard"}, "malformed", "H.7"),
    ]
    for action, code, rule in cases:
        with pytest.raises(IllegalAction) as err:
            E.apply(s, 0, action)
        assert err.value.code == code, action
        assert rule in err.value.message
    t.turn.main_used = 2
    hand(t, 0, ["PIL046"])
    with pytest.raises(IllegalAction) as err:
        E.apply(ready(t), 0, {"type": "extort", "by": "main", "target": "placard"})
    assert err.value.code == "no_main_action"
    assert "6.3" in err.value.message


# --- what a view hides (15.4, H.8) -----------------------------------------------------


def _ids(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if ID.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_ids(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_ids(v) for v in value)) if value else set()
    return set()


def _known(s: State, seat: int | None) -> set[str]:
    """What ``seat`` may know: public cards now, its own, and every id the log showed
    it (public steps and actions, private steps naming it)."""
    known: set[str] = set()
    for i, card in enumerate(s.cards):
        if s.up[i]:
            known.add(card)
    known |= {c for c in s.court if c}
    known |= set(s.discard) | {c for c, _ in s.schemes} | {c for _, c in s.oust_played}
    known |= set(s.event_discard) | {e for e in s.active_event if e}
    known |= {c for es in s.edicts for c, _ in es} | set(s.public_plots)
    known |= {p for p, r in zip(s.plot, s.plot_revealed, strict=True) if p and r}
    known |= {p for p, _ in (*s.claims_on, *s.claims_under)}
    if seat is not None:
        known |= set(s.hands[seat]) | set(s.events[seat]) | {s.plot[seat] or ""}
        for who, _, cards in s.pending:
            if who == seat:
                known |= set(cards)
    for entry in s.log:
        action = entry["action"]
        if action and (entry["seat"] == seat or action["type"] not in SECRET_ACTIONS):
            known |= _ids(action)
        for step in entry["steps"]:
            if "private" not in step or seat in step["private"]:
                known |= _ids(step)
    return known


def test_15_4_no_view_carries_a_hidden_card_over_many_games() -> None:
    checked = 0
    hidden_seen = 0
    for n in range(6):
        players = 2 + n % 3
        for s in _random_run(players, f"hide-{n}", cap=12)[::9]:
            for seat in [None, *range(players)]:
                v = view(s, seat)
                text = json.dumps(v)
                assert "internal" not in v["state"]
                assert "setup" not in v
                if not E.is_over(s):
                    assert v["seed"]["value"] is None
                assert isinstance(v["state"]["deck"], int)
                assert isinstance(v["state"]["event_deck"], int)
                for p in v["state"]["players"]:
                    if p["seat"] != seat:
                        assert isinstance(p["hand"], int)
                        assert isinstance(p["events"], int)
                for m in v["state"]["map"]:
                    if not m["face_up"]:
                        assert m["card"] is None
                leaked = _ids(json.loads(text)) - _known(s, seat)
                assert not leaked, (seat, sorted(leaked))
                secret = set(s.deck) | set(s.event_deck) | set(s.plot_deck) | set(s.event_box)
                hidden_seen += len(secret - _known(s, seat))
                checked += 1
    assert checked > 100
    assert hidden_seen > 1000  # the check had hidden cards to leak


def test_a_bot_plays_from_its_view_alone() -> None:
    s = E.advance(E.new_game(3, "standard", "bot"))
    seat = E.to_act(s)
    assert seat is not None
    v = view(s, seat)
    assert random_bot(v, random.Random(0)) in E.legal_actions(s, seat)
    with pytest.raises(ValueError, match="not this seat"):
        random_bot(view(s, (seat + 1) % 3), random.Random(0))


def test_apply_checks_an_action_phase_action_exactly_as_legal_actions_lists_it() -> None:
    """apply validates an Action phase action alone (menu_problem) instead of listing
    every option: over random states, both agree on every candidate of every kind."""
    from engine.pax.actions import BYS
    from engine.pax.menu import menu_problem
    from engine.pax.options import candidates
    from engine.pax.state import thaw

    rng = random.Random(7)
    checked = 0
    for n in range(3):
        for s in _random_run(2 + n, f"agree-{n}", cap=8):
            if not s.pending or s.pending[-1][1] != "action":
                continue
            t = thaw(s)
            legal = E.legal_actions(s, s.active)
            keys = {json.dumps(a, sort_keys=True) for a in legal}
            assert all(menu_problem(t, a) is None for a in legal)
            pool: list[JsonDict] = []
            for kind, bys in BYS.items():
                for by in (*bys, "main"):
                    pool.extend(candidates(t, kind, by))
            pool += [
                {"type": "scheme", "card": c, "use": u}
                for c in [*t.hands[s.active], "PIL001"]
                for u in ("ability", "quick", "both", "x")
            ]
            pool += [{"type": "claim_faction", "card": fc} for fc in t.g.cat.data.faction_cards]
            pool += [{"type": "claim_plot", "plot": p} for p in t.g.cat.data.plots]
            pool += [{"type": "congress"}, {"type": "end"}, {"type": "press", "faction": "NOB"}]
            pool += [
                {"type": "investigate", "seat": q, "what": w}
                for q in range(4)
                for w in ("hand", "plot")
            ]
            pool += [dict(a, extra=1) for a in legal[:3]]
            for a in rng.sample(pool, min(60, len(pool))):
                listed = json.dumps(a, sort_keys=True) in keys
                assert (menu_problem(t, a) is None) == listed, a
                checked += 1
    assert checked > 500
