"""Random whole games: invariants of every step, the reference scorer, no leaks."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import indulgence as game
from engine.cards import CARD_IDS, FAMILIES, FULL_DECK, ids_of
from engine.indulgence.edicts import CATALOG
from engine.indulgence.state import State
from tests.engine.support import random_game, reference_settlement

CARD_RE = re.compile(r"\b[BMOS][1-9]\b")
EDICT_IDS = [e.id for e in CATALOG]


def random_probe(rng: random.Random, player_count: int) -> Any:
    """An action of any shape, legal or not."""
    pick = rng.randrange(9)
    if pick == 0:
        return {"type": "choose_edict", "edict": rng.choice([*EDICT_IDS, "nope"])}
    if pick == 1:
        return {"type": rng.choice(["papal_bull", "sin", "pass"])}
    if pick == 2:
        return {"type": "name_trump", "family": rng.choice([*FAMILIES, "purple"])}
    if pick in (3, 4, 5):
        action: dict[str, Any] = {"type": "play", "card": rng.choice([*CARD_IDS, "Z0"])}
        if rng.random() < 0.8:
            action["indulgence"] = rng.random() < 0.3
        return action
    if pick == 6:
        return {
            "type": "resolve_tie",
            "family": rng.choice(FAMILIES),
            "seat": rng.randrange(-1, player_count + 1),
        }
    return rng.choice(
        [
            None,
            7,
            "pass",
            [],
            {},
            {"type": None},
            {"type": "play", "card": "B1", "indulgence": "no"},
            {"type": "sin", "extra": 1},
            {"type": "choose_edict", "edict": None},
        ]
    )


def canonical(action: Any) -> Any:
    if isinstance(action, dict) and action.get("type") == "play" and "indulgence" not in action:
        return {**action, "indulgence": False}
    return action


def check_cards(state: State) -> None:
    """Every card is in exactly one place: a hand, the trick on the table, a taken pile."""
    if state.phase is game.Phase.FINISHED:
        return
    table = 0
    for _seat, card, _ring in state.plays:
        table |= 1 << card
    seen = 0
    for part in (*state.hands, *state.taken, table):
        assert not seen & part
        seen |= part
    assert seen == FULL_DECK


def check_step(state: State, rng: random.Random, compare_views: bool = True) -> None:
    seat = game.to_act(state)
    n = state.player_count
    check_cards(state)
    assert all(f >= 0 for f in state.florins)
    if seat is None:
        assert state.phase in (game.Phase.SETTLING, game.Phase.FINISHED)
        assert all(game.legal_actions(state, s) == [] for s in range(n))
        return
    legal = game.legal_actions(state, seat)
    assert legal
    assert game.legal_actions(state, (seat + 1) % n) == []
    for action in legal:  # every listed action is accepted
        game.apply(state, seat, action)
    before = game.view(state, seat) if compare_views else None
    fingerprint = hash(state)
    for _ in range(4):
        probe = random_probe(rng, n)
        if canonical(probe) in legal:
            continue
        with pytest.raises(game.IllegalAction) as refused:
            game.apply(state, seat, probe)
        assert re.fullmatch("[a-z_]+", refused.value.code)
        assert refused.value.message
    with pytest.raises(game.IllegalAction) as out_of_turn:
        game.apply(state, (seat + 1) % n, legal[0])
    assert out_of_turn.value.code == "not_your_turn"
    assert hash(state) == fingerprint
    if compare_views:
        assert game.view(state, seat) == before


def check_settlements(end: State) -> None:
    """Every hand's payments match the reference scorer and the florins add up."""
    record = game.full_record(end)
    n = end.player_count
    florins = {str(s): 30 for s in range(n)}
    for hand in record["hands"]:
        expected, success, papal_win = reference_settlement(hand, florins, n)
        assert [
            (p["payer"], p["payee"], p["owed"], p["paid"]) for p in hand["payments"]
        ] == expected, hand
        assert hand["sin_succeeded"] == success
        after = dict(florins)
        for p in hand["payments"]:
            after[str(p["payer"])] -= p["paid"]
            after[str(p["payee"])] += p["owed"]
            assert p["paid"] <= p["owed"]
        assert hand["florins_after"] == after
        assert all(v >= 0 for v in after.values())
        florins = after
        if papal_win:
            assert record["result"]["reason"] == "papal_bull_sin"
    assert record["result"]["florins"] == florins


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    seed=st.text(max_size=10),
    players=st.sampled_from([3, 4]),
    variant=st.sampled_from(["basic", "expert"]),
    choice_seed=st.integers(0, 2**32),
)
def test_random_games_keep_every_invariant(
    seed: str, players: int, variant: str, choice_seed: int
) -> None:
    choices = random.Random(choice_seed)
    state = game.new_game(players, variant, seed)
    moves = []
    for step in range(2000):
        if game.is_over(state):
            break
        check_step(state, choices, compare_views=step % 3 == 0)
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        action = choices.choice(game.legal_actions(state, seat))
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    assert game.is_over(state)
    result = game.result(state)
    assert result is not None
    assert result["reason"] in (
        "rounds_complete",
        "bankruptcy",
        "papal_bull_sin",
    )
    if result["reason"] == "rounds_complete":
        assert len(state.history) == 3 * players
    check_settlements(state)
    assert game.full_record(game.replay(players, variant, seed, moves)) == game.full_record(state)
    snapshot = json.loads(json.dumps(game.state_to_json(state)))
    assert game.state_from_json(snapshot) == state


def test_many_random_games_settle_by_the_rules_and_replay() -> None:
    rng = random.Random(2026)
    reasons = set()
    for i in range(100):
        players, variant = 3 + i % 2, ("basic", "expert")[i // 2 % 2]
        end, moves = random_game(f"many-{i}", players, variant, rng)
        check_settlements(end)
        reasons.add(game.result(end)["reason"])  # type: ignore[index]
        if i % 5 == 0:
            assert game.replay(players, variant, f"many-{i}", moves) == end
    assert {"rounds_complete", "bankruptcy"} <= reasons


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def test_no_view_ever_shows_a_card_hidden_in_another_hand() -> None:
    rng = random.Random(99)
    for i in range(6):
        seed = f"secret-seed-{i}-xyzzy"
        players = 3 + i % 2
        state = game.new_game(players, "expert" if i % 3 else "basic", seed)
        while not game.is_over(state):
            face_down = any(CATALOG[e].kind == "no_tricks" for e in state.in_force)
            for viewer in [*range(players), None]:
                view = game.view(state, viewer)
                hidden = 0
                for seat, hand in enumerate(state.hands):
                    if seat != viewer:
                        hidden |= hand
                if face_down:
                    for seat, card, _ring in state.plays:
                        if seat != viewer:
                            hidden |= 1 << card
                found = {m for s in strings(view) for m in CARD_RE.findall(s)}
                assert not found & set(ids_of(hidden)), (viewer, found & set(ids_of(hidden)))
                assert seed not in json.dumps(view)
            actor = game.to_act(state)
            if actor is None:
                state = game.advance(state)
            else:
                state = game.apply(state, actor, rng.choice(game.legal_actions(state, actor)))


def test_same_seed_and_actions_give_the_same_game() -> None:
    one, moves = random_game("twice", 4, "expert", random.Random(1))
    two, _ = random_game("twice", 4, "expert", random.Random(1))
    assert one == two
    assert game.full_record(one) == game.full_record(two)
    assert moves
