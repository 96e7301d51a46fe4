"""ISMCTS determinizations respect the view; the simulator agrees with the engine."""

from __future__ import annotations

import random

import pytest

from engine import indulgence as game
from engine.bots import _observe, _sim
from engine.bots._observe import Observation, sample_hidden
from engine.bots._sim import SimHand
from engine.bots.heuristic import heuristic_bot
from engine.cards import FAMILY_MASKS, FULL_DECK
from engine.indulgence.state import Phase
from tests.bots.util import act, hand_state, play, positions


def _check_sample(obs: Observation, hands: list[int], plays: list[tuple[int, int, bool]]) -> None:
    n = obs.n
    assert hands[obs.me] == obs.hand
    union = 0
    for seat in range(n):
        assert hands[seat] & union == 0, "a card dealt twice"
        union |= hands[seat]
        assert hands[seat].bit_count() == obs.hand_counts[seat]
        if seat != obs.me:
            assert hands[seat] & (obs.seen | obs.hand) == 0, "a seen card or one of mine dealt out"
            for family in range(4):
                if obs.voids[seat] >> family & 1:
                    assert not hands[seat] & FAMILY_MASKS[family], "a revealed void broken"
            assert hands[seat] & ~obs.allowed[seat] == 0
    hidden = 0
    for (seat, card, ring), (vseat, vcard, vring) in zip(plays, obs.plays, strict=True):
        assert (seat, ring) == (vseat, vring)
        if vcard >= 0:
            assert card == vcard
        else:
            assert card >= 0
            assert not (union | hidden | obs.seen | obs.hand) >> card & 1
            hidden |= 1 << card
            assert obs.led is not None
            if seat == obs.leader:
                assert card // 9 == obs.led
            elif card // 9 != obs.led:
                assert not hands[seat] & FAMILY_MASKS[obs.led], (
                    "did not follow but holds the led family"
                )
    assert (union | hidden) & ~obs.hand == obs.unseen, "every unseen card is dealt, no other"
    assert union | hidden | obs.seen | _taken(obs) == FULL_DECK or obs.phase != _observe.PLAYING


def _taken(obs: Observation) -> int:
    mask = 0
    for taken in obs.taken:
        mask |= taken
    return mask


@pytest.mark.parametrize(
    ("players", "variant"), [(3, "basic"), (4, "basic"), (3, "expert"), (4, "expert")]
)
def test_determinizations_are_consistent_with_the_view(players: int, variant: str) -> None:
    rng = random.Random(7)
    checked = face_down = voids = 0
    for g in range(3):
        for i, (state, _seat) in enumerate(
            positions(players, variant, f"sample-{variant}-{g}", rng, heuristic_bot)
        ):
            if i % 2:
                continue
            for observer in range(players):
                obs = Observation(game.view(state, observer))
                # The truth is one of the deals the observation allows.
                for other in range(players):
                    if other != observer:
                        assert state.hands[other] & ~obs.allowed[other] == 0
                face_down += len(obs.hidden_plays) > 0
                voids += any(obs.voids)
                for k in range(3):
                    hands, plays = sample_hidden(obs, random.Random(k))
                    _check_sample(obs, hands, plays)
                    checked += 1
    assert checked > 500
    assert voids > 0
    if variant == "expert":
        assert face_down > 0 or players == 3  # no-tricks hands do not come up in every run


def test_face_down_tricks_are_sampled_consistently() -> None:
    # Seat 0 rules with "Don't take any tricks": cards go face down.
    state = hand_state(
        3, [["B1", "B2"], ["M1", "M9"], ["O5", "O6"]], ["no-tricks", "sixes", "first-last"]
    )
    state = act(
        state, {"type": "choose_edict", "edict": "no-tricks"}, {"type": "pass"}, {"type": "pass"}
    )
    state = act(state, play("B1"))
    obs = Observation(game.view(state, 2))
    assert obs.hidden_plays == [0]
    assert obs.led == 0
    for k in range(200):
        hands, plays = sample_hidden(obs, random.Random(k))
        _check_sample(obs, hands, plays)
        assert plays[0][1] // 9 == 0
    state = act(state, game.view(state, 1)["legal_actions"][0])
    obs = Observation(game.view(state, 2))
    assert obs.hidden_plays == [0, 1]
    for k in range(200):
        hands, plays = sample_hidden(obs, random.Random(k))
        _check_sample(obs, hands, plays)


def _agree(state: game.State, seat: int, rng: random.Random, policy: bool) -> None:
    view = game.view(state, seat)
    sim = _sim.from_view(view, state.hands, state.plays)
    truth = state
    while not sim.done:
        actor = game.to_act(truth)
        assert actor == sim.actor
        legal = sorted(_observe.encode(a) for a in game.legal_actions(truth, actor))
        assert sorted(sim.legal()) == legal
        move = sim.policy_move(rng.random, 0.2) if policy else rng.choice(legal)
        assert move in legal
        family = truth.pending_tie[0] if truth.pending_tie else None
        truth = game.apply(truth, actor, _observe.decode(move, family))
        sim.step(move)
    assert game.to_act(truth) is None
    assert truth.phase is Phase.SETTLING
    settled = game.advance(truth).history[-1].settlement
    deltas = sim.deltas()
    if settled.papal_bull_win:
        assert truth.sinner is not None
        deltas[truth.sinner] -= _sim.PAPAL_WIN_BONUS
    assert [a - b for a, b in zip(settled.florins_after, truth.florins, strict=True)] == deltas


def test_the_simulator_agrees_with_the_validated_engine() -> None:
    rng = random.Random(99)
    checked = 0
    for g in range(60):
        n = 3 + g % 2
        variant = ("basic", "expert")[(g // 2) % 2]
        for state, seat in positions(n, variant, f"agree-{g}", rng):
            if rng.random() < 0.08:
                _agree(state, seat, rng, policy=g % 3 != 0)
                checked += 1
    assert checked > 700


def test_move_codes_round_trip() -> None:
    rng = random.Random(1)
    for state, seat in positions(4, "expert", "codes", rng):
        for action in game.legal_actions(state, seat):
            family = state.pending_tie[0] if state.pending_tie else None
            assert _observe.decode(_observe.encode(action), family) == action


def test_a_simulated_hand_from_a_sampled_deal_plays_to_a_settlement() -> None:
    state = game.new_game(4, "expert", "sim-start")
    seat = game.to_act(state)
    assert seat is not None
    obs = Observation(game.view(state, seat))
    rng = random.Random(4)
    for _ in range(50):
        hands, plays = sample_hidden(obs, rng)
        sim = SimHand(obs, hands, plays)
        sim.playout(rng.random)
        deltas = sim.deltas()
        assert len(deltas) == 4
        assert (
            sum(deltas) == 0
            or any(d >= _sim.PAPAL_WIN_BONUS for d in deltas)
            or min(obs.florins) < 20
        )


def test_constrained_deals_always_fill_every_seat() -> None:
    # Cards 0 and 1 may go to seats 0 or 1, card 2 to seats 1 or 2, card 3 only to seat 2:
    # a greedy deal can paint itself into a corner; the augmenting path gets it out.
    allowed = [0b0011, 0b0111, 0b1100]
    for k in range(300):
        holder = _observe._assign(0b1111, [1, 1, 2], allowed, random.Random(k))
        assert sorted(holder) == [0, 1, 2, 3]
        for card, seat in holder.items():
            assert allowed[seat] >> card & 1
        assert [list(holder.values()).count(s) for s in range(3)] == [1, 1, 2]
    with pytest.raises(ValueError, match="consistent"):
        _observe._assign(0b1111, [1, 1, 2], [0b0001, 0b0001, 0b1100], random.Random(0))
