"""The fast path plays by the same rules as the validated path."""

from __future__ import annotations

import random

from engine import indulgence as game
from engine.cards import FAMILY_MASKS
from engine.indulgence import fast
from engine.indulgence.state import State


def _compare_playout(
    state: State, rng: random.Random, hands: tuple[int, ...] | None = None
) -> State:
    """Play the hand out on the fast path, replay its choices through ``apply``, and
    compare trick winners, the early-end point and the settlement. Returns the state
    after the validated settlement."""
    log: fast.Log = []
    out = fast.playout(state, rng, hands=hands, log=log)
    assert out is not None
    validated = state if hands is None else state._replace(hands=hands)
    for seat, action in log:
        assert game.to_act(validated) == seat
        validated = game.apply(validated, seat, action)
    assert game.to_act(validated) is None
    assert validated.phase is game.Phase.SETTLING
    assert tuple(t.winner for t in validated.tricks) == out.trick_winners
    assert validated.ended_early == out.ended_early
    assert validated.in_force == out.in_force
    assert validated.sinner == out.sinner
    after = game.advance(validated)
    assert after.history[-1].settlement == out.settlement
    assert tuple(a - b for a, b in zip(after.florins, state.florins, strict=True)) == out.deltas
    return after


def test_two_thousand_random_hands_agree_with_the_validated_path() -> None:
    rng = random.Random(1234)
    hands = early = 0
    game_number = 0
    while hands < 2000:
        game_number += 1
        players = rng.choice([3, 4])
        state = game.new_game(players, rng.choice(["basic", "expert"]), f"agree-{game_number}")
        while not game.is_over(state) and hands < 2000:
            # Start some playouts part way through the hand, after random validated moves.
            for _ in range(rng.choice([0, 0, 2, 5, 11, 23])):
                seat = game.to_act(state)
                if seat is None:
                    break
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            before_hand = state.hand_number
            state = _compare_playout(state, rng)
            early += state.history[-1].ended_early
            hands += 1
            assert state.hand_number != before_hand or game.is_over(state)
    assert early > 500  # early ends are well exercised


def test_playouts_accept_a_determinization_of_the_hidden_cards() -> None:
    rng = random.Random(77)
    for i in range(100):
        state = game.new_game(4, "expert", f"determinize-{i}")
        for _ in range(rng.randrange(0, 20)):
            seat = game.to_act(state)
            if seat is None:
                break
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if game.to_act(state) is None:
            continue
        # Seat 0 keeps its hand; the others' cards are shuffled among them, counts kept.
        unseen = [c for s in range(1, 4) for c in range(36) if state.hands[s] >> c & 1]
        rng.shuffle(unseen)
        hands = [state.hands[0]]
        for s in range(1, 4):
            count = state.hands[s].bit_count()
            hands.append(sum(1 << c for c in unseen[:count]))
            unseen = unseen[count:]
        _compare_playout(state, rng, tuple(hands))


def test_a_settling_hand_is_just_settled_and_a_finished_game_has_no_playout() -> None:
    rng = random.Random(5)
    state = game.new_game(3, "basic", "settle")
    while game.to_act(state) is not None:
        seat = game.to_act(state)
        assert seat is not None
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    log: fast.Log = []
    out = fast.playout(state, rng, log=log)
    assert out is not None
    assert log == []
    assert out.settlement == game.advance(state).history[-1].settlement
    end = game.replay(3, "basic", "settle", [])
    while not game.is_over(end):
        seat = game.to_act(end)
        end = (
            game.advance(end)
            if seat is None
            else game.apply(end, seat, rng.choice(game.legal_actions(end, seat)))
        )
    assert fast.playout(end, rng) is None


def test_fast_games_with_a_seed_replay_exactly_on_the_validated_path() -> None:
    rng = random.Random(8)
    for i in range(40):
        players, variant = rng.choice([3, 4]), rng.choice(["basic", "expert"])
        log: fast.Log = []
        out = fast.random_game(players, variant, rng, seed=f"fast-{i}", log=log)
        end = game.replay(players, variant, f"fast-{i}", log)
        assert game.is_over(end)
        assert game.result(end) == {
            "winner_seat": out.winner,
            "florins": {str(s): f for s, f in enumerate(out.florins)},
            "reason": out.reason,
        }
        assert len(end.history) == out.hands_played


def test_a_thousand_fast_games_end_properly() -> None:
    rng = random.Random(31)
    reasons: dict[str, int] = {}
    for i in range(1000):
        players, variant = 3 + i % 2, ("basic", "expert")[i // 2 % 2]
        out = fast.random_game(players, variant, rng)
        assert all(f >= 0 for f in out.florins)
        assert 0 <= out.winner < players
        assert 1 <= out.hands_played <= 3 * players
        if out.reason == "rounds_complete":
            assert out.hands_played == 3 * players
            assert out.florins[out.winner] == max(out.florins)
        reasons[out.reason] = reasons.get(out.reason, 0) + 1
    assert set(reasons) == {"rounds_complete", "bankruptcy", "papal_bull_sin"}


def test_family_masks_partition_the_deck() -> None:
    assert sum(FAMILY_MASKS) == (1 << 36) - 1
