"""Random whole games: invariants of every step, the reference scorer, no leaks."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import indulgence as game
from engine.cards import CARD_IDS, FAMILIES, FULL_DECK, ids_of
from engine.indulgence import fast
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


# A game: its seed, table and variant, and the seed of the random choices that play it.
any_game = given(
    seed=st.text(max_size=10),
    players=st.sampled_from([3, 4]),
    variant=st.sampled_from(["basic", "expert"]),
    choice_seed=st.integers(0, 2**32),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@any_game
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


def check_hand_cards(end: State) -> None:
    """Every settled hand: the deal splits the deck; every card was played at most once,
    by the seat dealt it; each trick has one card per seat."""
    n = end.player_count
    for record in end.history:
        seen = 0
        for dealt in record.deal:
            assert dealt.bit_count() == 36 // n
            assert not seen & dealt
            seen |= dealt
        assert seen == FULL_DECK
        played = 0
        for trick in record.tricks:
            assert sorted(seat for seat, _card, _ring in trick.plays) == list(range(n))
            for seat, card, _ring in trick.plays:
                assert record.deal[seat] >> card & 1
                assert not played >> card & 1
                played |= 1 << card
        assert record.ended_early == (len(record.tricks) < 36 // n)


def test_two_thousand_random_games_end_account_for_everything_and_replay() -> None:
    """Played on the fast path (random, seeded deals), then replayed through the
    validated rules: same result; every game ends; cards and florins add up by the
    reference scorer; a replay of seed + moves gives the same record."""
    rng = random.Random(4242)
    games = hands = records_compared = 0
    reasons: dict[str, int] = {}
    for i in range(2000):
        players, variant = 3 + i % 2, ("basic", "expert")[i // 2 % 2]
        seed = f"thousands-{i}"
        log: fast.Log = []
        out = fast.random_game(players, variant, rng, seed=seed, log=log)
        end = game.replay(players, variant, seed, log)
        assert game.is_over(end)
        assert game.result(end) == {
            "winner_seat": out.winner,
            "florins": {str(s): f for s, f in enumerate(out.florins)},
            "reason": out.reason,
        }
        assert len(end.history) == out.hands_played
        assert sum(len(r.tricks) for r in end.history) == out.tricks_played
        check_hand_cards(end)
        check_settlements(end)
        if i % 10 == 0:
            record = game.full_record(end)
            moves = [(m["seat"], m["action"]) for m in record["moves"]]
            assert game.full_record(game.replay(players, variant, seed, moves)) == record
            records_compared += 1
        games += 1
        hands += out.hands_played
        reasons[out.reason] = reasons.get(out.reason, 0) + 1
    print(
        f"invariants: {games} games, {hands} hands, {records_compared} records replayed, {reasons}"
    )
    assert games == 2000
    assert set(reasons) == {"rounds_complete", "bankruptcy", "papal_bull_sin"}


def test_two_hundred_games_accept_every_legal_action_and_refuse_the_rest() -> None:
    """At every step of 200 random games: every listed action is accepted, sampled other
    actions (any shape, out of turn) raise IllegalAction and change nothing."""
    rng = random.Random(77)
    games = steps = 0
    for i in range(200):
        players, variant = 3 + i % 2, ("basic", "expert")[i // 2 % 2]
        state = game.new_game(players, variant, f"steps-{i}")
        while not game.is_over(state):
            check_step(state, rng, compare_views=steps % 5 == 0)
            steps += 1
            seat = game.to_act(state)
            if seat is None:
                state = game.advance(state)
            else:
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        games += 1
    print(f"per step: {games} games, {steps} steps checked")
    assert games == 200
    assert steps > 200 * 60


def hidden_cards(state: State, viewer: int | None) -> set[str]:
    """Cards ``viewer`` must not see: other hands, and others' face-down plays of the
    trick in progress."""
    hidden = 0
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden |= hand
    if any(CATALOG[e].kind == "no_tricks" for e in state.in_force):
        for seat, card, _ring in state.plays:
            if seat != viewer:
                hidden |= 1 << card
    return set(ids_of(hidden))


def test_no_view_of_two_hundred_games_shows_a_hidden_card() -> None:
    """Every seat and a spectator look at every step of 12 games, and at every eighth step
    and every step inside a face-down trick of 188 more: no card of another hand, no
    face-down card of another seat, never the seed."""
    rng = random.Random(99)
    games = views = 0
    face_down_views = 0
    for i in range(200):
        seed = f"secret-seed-{i}-xyzzy"
        players = 3 + i % 2
        state = game.new_game(players, "expert" if i % 3 else "basic", seed)
        step = 0
        while not game.is_over(state):
            face_down = bool(state.plays) and any(
                CATALOG[e].kind == "no_tricks" for e in state.in_force
            )
            if i < 12 or step % 8 == 0 or face_down:
                for viewer in [*range(players), None]:
                    text = json.dumps(game.view(state, viewer))
                    leaked = set(CARD_RE.findall(text)) & hidden_cards(state, viewer)
                    assert not leaked, (i, step, viewer, leaked)
                    assert seed not in text
                    views += 1
                    face_down_views += face_down
            actor = game.to_act(state)
            if actor is None:
                state = game.advance(state)
            else:
                state = game.apply(state, actor, rng.choice(game.legal_actions(state, actor)))
            step += 1
        games += 1
    print(f"views: {games} games, {views} views checked, {face_down_views} in face-down tricks")
    assert games == 200
    assert face_down_views > 500


def test_same_seed_and_actions_give_the_same_game() -> None:
    one, moves = random_game("twice", 4, "expert", random.Random(1))
    two, _ = random_game("twice", 4, "expert", random.Random(1))
    assert one == two
    assert game.full_record(one) == game.full_record(two)
    assert moves


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@any_game
def test_play_snapshots_play_the_game_a_whole_state_plays(
    seed: str, players: int, variant: str, choice_seed: int
) -> None:
    """The server's way (games.services): every step starts from the small play snapshot
    (only the last settled hand's record), the other records are kept aside and added to
    when a hand settles. Each step gives what the whole state gives: the same legal
    actions and views for every seat, and the whole state back from snapshot + records."""
    choices = random.Random(choice_seed)
    whole = game.new_game(players, variant, seed)
    snapshot = json.loads(json.dumps(game.play_snapshot(whole)))
    records: list[dict[str, object]] = []
    while not game.is_over(whole):
        part = game.state_from_json(snapshot)
        assert part.history == whole.history[-1:]
        assert game.settled_count(part) == len(whole.history)
        for seat in [None, *range(players)]:
            assert game.view(part, seat) == game.view(whole, seat)
        seat = game.to_act(whole)
        assert game.to_act(part) == seat
        if seat is None:
            whole, part = game.advance(whole), game.advance(part)
            # What the server stores: the kept records before the part's, then the part's.
            records = records[: part.history_start] + game.hand_records_json(part)
            assert (
                game.settled_hand(part, len(whole.history))
                == (game.full_record(whole)["hands"][len(whole.history) - 1])
            )
        else:
            assert game.legal_actions(part, seat) == game.legal_actions(whole, seat)
            action = choices.choice(game.legal_actions(whole, seat))
            whole, part = game.apply(whole, seat, action), game.apply(part, seat, action)
        snapshot = json.loads(json.dumps(game.play_snapshot(part)))
        restored = game.state_from_json(snapshot, earlier=records)
        assert restored == whole
        if part.history_start:
            with pytest.raises(ValueError, match="play snapshot"):
                game.full_record(part)
    assert len(json.dumps(snapshot)) < len(json.dumps(game.state_to_json(whole)))
