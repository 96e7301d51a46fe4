"""The fast path plays by the same rules as the validated path."""

from __future__ import annotations

import random
from collections import Counter

from engine import indulgence as game
from engine.cards import FAMILY_MASKS, FULL_DECK
from engine.indulgence import fast
from engine.indulgence.settlement import (
    Progress,
    hand_context,
    hand_decided,
    may_decide,
    trick_winner,
)
from engine.indulgence.state import HandRecord, State
from tests.engine.support import random_game


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


def test_trick_keys_pick_the_same_winner_as_the_rules() -> None:
    # Random tricks of 3 or 4 distinct cards, any trump, any single ring.
    rng = random.Random(11)
    rings = trumped = 0
    for _ in range(20000):
        n = rng.choice([3, 4])
        cards = rng.sample(range(36), n)
        trump = rng.choice([None, 0, 1, 2, 3])
        ringed = rng.randrange(n + 2)  # often nobody
        plays = [(seat, card, seat == ringed) for seat, card in enumerate(cards)]
        led_mask = FAMILY_MASKS[cards[0] // 9]
        trump_mask = 0 if trump is None else FAMILY_MASKS[trump]
        keys = [fast.trick_key(card, ring, led_mask, trump_mask) for _s, card, ring in plays]
        assert keys[0] > 0  # the lead can always win
        assert keys.index(max(keys)) == trick_winner(plays, trump)
        assert len(set(k for k in keys if k)) == len([k for k in keys if k])  # no ties
        rings += ringed < n
        trumped += any(c // 9 == trump for c in cards[1:]) and cards[0] // 9 != trump
    assert rings > 5000
    assert trumped > 5000


def _progress_after(record: HandRecord, n: int, played: int) -> tuple[Progress, int]:
    """The progress of a settled hand after ``played`` tricks, and that trick's cards."""
    taken = [0] * n
    counts = [0] * n
    remaining = FULL_DECK
    first_to_three = None
    last_takers: list[int | None] = [None] * 4
    cards = 0
    for trick in record.tricks[:played]:
        cards = sum(1 << card for _s, card, _r in trick.plays)
        remaining &= ~cards
        taken[trick.winner] |= cards
        counts[trick.winner] += 1
        if first_to_three is None and counts[trick.winner] == 3:
            first_to_three = trick.winner
        for f in range(4):
            if cards & FAMILY_MASKS[f] and not remaining & FAMILY_MASKS[f]:
                last_takers[f] = trick.winner
    left = 36 // n - played
    winners = [t.winner for t in record.tricks[:played]]
    progress = Progress(
        taken, remaining, counts, left, winners[0], None if left else winners[-1],
        first_to_three, last_takers,
    )  # fmt: skip
    return progress, cards


def test_the_fast_paths_shortcut_never_skips_a_decided_hand() -> None:
    """may_decide (which the fast path inlines) is True whenever hand_decided is, at
    every trick of thousands of hands played by the validated rules."""
    rng = random.Random(3)
    hands = tricks = skipped = 0
    for i in range(300):
        players, variant = 3 + i % 2, ("basic", "expert")[i // 2 % 2]
        end, _moves = random_game(f"shortcut-{i}", players, variant, rng)
        for record in end.history:
            ctx = hand_context(
                players, record.ruler, record.sinner, record.in_force, record.papal_bull,
                record.trump,
            )  # fmt: skip
            hands += 1
            for played in range(1, len(record.tricks) + 1):
                progress, cards = _progress_after(record, players, played)
                decided = hand_decided(ctx, progress)
                assert decided == (played == len(record.tricks))
                allowed = may_decide(
                    ctx,
                    cards,
                    played - 1,
                    record.tricks[played - 1].winner,
                    progress.remaining,
                    progress.first_to_three,
                )
                if decided:
                    assert allowed, (record, played)
                tricks += 1
                skipped += not allowed
    print(f"shortcut: {hands} hands, {tricks} tricks, hand_decided skipped after {skipped}")
    assert hands > 2500
    assert skipped > tricks // 4  # the shortcut does skip work


def _trick_two_leads(state: State, stacked: bool, samples: int, seed: int) -> Counter[str]:
    """The card led to trick 2 over many random playouts of one dealt hand."""
    rng = random.Random(seed)
    leads: Counter[str] = Counter()
    for _ in range(samples):
        log: fast.Log = []
        if stacked:
            h = fast._from_state(state, None)
            h.stacks = fast._shuffled_hands(h.hands, rng.random)
            fast._play_hand(h, rng.random, log)
        else:
            fast.playout(state, rng, log=log)
        plays = [action["card"] for _seat, action in log if action["type"] == "play"]
        n = state.player_count
        if len(plays) > n:
            leads[plays[n]] += 1
    return leads


def _two_sample_chi2(a: Counter[str], b: Counter[str]) -> float:
    scale = sum(a.values()) / sum(b.values())
    return sum((a[k] - scale * b[k]) ** 2 / (a[k] + scale * b[k]) for k in set(a) | set(b))


def test_dealt_stacks_play_as_uniformly_as_random_picks() -> None:
    """random_game picks "any card" as the top held card of a per-seat stack in random
    order (exactly uniform: removals never look at the order). Its play has the same
    distribution as picking uniformly from the bit set: the card led to trick 2, over
    thousands of playouts of one deal, passes a two-sample chi-square test, while a
    biased picker (stacks left in card order) fails it by far."""
    state = game.new_game(4, "basic", "uniform-stacks")
    random_picks = _trick_two_leads(state, stacked=False, samples=6000, seed=1)
    stacked = _trick_two_leads(state, stacked=True, samples=6000, seed=2)
    categories = len(set(random_picks) | set(stacked))
    assert categories > 20
    # chi-square with ~30 degrees of freedom: p = 1e-6 is about 80.
    assert _two_sample_chi2(stacked, random_picks) < 2 * categories + 20

    rng = random.Random(3)
    biased: Counter[str] = Counter()
    for _ in range(6000):
        log: fast.Log = []
        h = fast._from_state(state, None)
        h.stacks = [[b for b in fast._BITS if b & hand] for hand in h.hands]  # card order
        fast._play_hand(h, rng.random, log)
        plays = [action["card"] for _seat, action in log if action["type"] == "play"]
        if len(plays) > 4:
            biased[plays[4]] += 1
    assert _two_sample_chi2(biased, random_picks) > 10 * categories
