"""Seeds, the full record, the view's shape, replays and JSON snapshots."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path

from engine import indulgence as game
from tests.engine.support import random_game

CARDS = [f"{family}{rank}" for family in "BMOS" for rank in range(1, 10)]
CATALOG_ORDER = [
    "any-borgia",
    "any-medici",
    "any-orsini",
    "any-sforza",
    "last-borgia",
    "last-medici",
    "last-orsini",
    "last-sforza",
    "twos-threes",
    "sixes",
    "first-last",
    "first-to-three",
    "most-of-family",
    "any-trump",
    "no-tricks",
    "pairs-borgia-medici",
    "pairs-orsini-sforza",
    "pairs-medici-sforza",
    "even-medici-sforza",
    "even-borgia-orsini",
]


def derived(seed: str, label: str) -> random.Random:
    """docs/engine.md "Seeds", re-implemented from the text."""
    digest = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def test_anyone_with_the_seed_can_re_derive_every_deal() -> None:
    rng = random.Random(11)
    for i, (players, variant) in enumerate(
        [(4, "basic"), (3, "expert"), (4, "expert"), (3, "basic")]
    ):
        seed = f"réplica {i} ☂"
        end, _ = random_game(seed, players, variant, rng)
        record = game.full_record(end)
        assert record["seed"] == seed
        assert record["seed_commitment"] == hashlib.sha256(seed.encode("utf-8")).hexdigest()
        assert record["first_ruler"] == derived(seed, "first-ruler").randrange(players)
        deck = CATALOG_ORDER[:12] if variant == "basic" else list(CATALOG_ORDER)
        derived(seed, "edict-deck").shuffle(deck)
        assert record["edict_deck"] == deck
        per_seat = 36 // players
        for hand in record["hands"]:
            cards = list(CARDS)
            derived(seed, f"deal:{hand['number']}").shuffle(cards)
            expected = {
                str(seat): sorted(cards[seat * per_seat : (seat + 1) * per_seat], key=CARDS.index)
                for seat in range(players)
            }
            assert hand["deal"] == expected
            assert hand["ruler"] == (record["first_ruler"] + hand["number"] - 1) % players
            assert hand["round"] == (hand["number"] - 1) // players + 1


def test_different_seeds_deal_differently_and_the_same_seed_identically() -> None:
    deals = {
        json.dumps(game.full_record(game.new_game(4, "basic", f"seed-{i}"))["hands"][0]["deal"])
        for i in range(20)
    }
    assert len(deals) == 20
    assert game.full_record(game.new_game(3, "expert", "same")) == game.full_record(
        game.new_game(3, "expert", "same")
    )
    assert game.new_game(4, "basic") == game.new_game(4, "basic", game.DEFAULT_SEED)


def test_seed_commitment_is_sha256_of_the_seed() -> None:
    assert game.seed_commitment("demo") == hashlib.sha256(b"demo").hexdigest()
    assert game.view(game.new_game(4, "basic", "demo"), None)[
        "seed_commitment"
    ] == game.seed_commitment("demo")


def test_the_full_record_has_the_documented_shape_at_any_time() -> None:
    rng = random.Random(3)
    state = game.new_game(4, "expert", "shape")
    for _ in range(60):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        record = game.full_record(state)
        assert set(record) == {
            "variant",
            "player_count",
            "seed",
            "seed_commitment",
            "first_ruler",
            "edict_deck",
            "hands",
            "result",
            "moves",
        }
        current = record["hands"][-1]
        assert set(current) >= {
            "number",
            "round",
            "ruler",
            "deal",
            "edict_row",
            "edicts_in_force",
            "papal_bull",
            "trump",
            "sin_decisions",
            "sinner",
            "tricks",
            "ended_early",
            "tie_choices",
            "payments",
            "florins_after",
        }
        if state.phase is not game.Phase.SETTLING:
            assert current["payments"] == []
            assert current["florins_after"] is None
        assert [m["seq"] for m in record["moves"]] == list(range(1, len(record["moves"]) + 1))
        assert json.loads(json.dumps(record)) == record


def test_the_view_has_the_api_fields() -> None:
    state = game.new_game(4, "expert", "fields")
    view = game.view(state, 2)
    assert set(view) >= {
        "variant",
        "player_count",
        "my_seat",
        "seats",
        "round",
        "hand_number",
        "ruler_seat",
        "phase",
        "to_act",
        "edict_row",
        "edicts_in_play",
        "sinner_seat",
        "trump",
        "indulgence_used",
        "my_hand",
        "current_trick",
        "tricks",
        "legal_actions",
        "last_settlement",
        "seed_commitment",
        "result",
        "hand_counts",
        "sin_decisions",
        "pending_tie",
        "edict_deck_remaining",
        "first_ruler",
    }
    assert view["seats"][0] == {"seat": 0, "florins": 30, "papal_bull_available": True}
    assert view["current_trick"] == {"leader": state.ruler, "led_family": None, "plays": []}
    assert view["edict_deck_remaining"] == 17
    assert json.loads(json.dumps(view)) == view


def test_replay_and_snapshots_reproduce_the_game() -> None:
    rng = random.Random(5)
    for i in range(6):
        players, variant = rng.choice([3, 4]), rng.choice(["basic", "expert"])
        end, moves = random_game(f"replay-{i}", players, variant, rng)
        assert game.replay(players, variant, f"replay-{i}", moves) == end
        assert game.full_record(
            game.replay(players, variant, f"replay-{i}", moves)
        ) == game.full_record(end)
        snapshot = json.loads(json.dumps(game.state_to_json(end)))
        assert snapshot == game.state_to_json(end)
        assert game.state_from_json(snapshot) == end
        # Part way through, and without settling the last hand.
        part = game.replay(players, variant, f"replay-{i}", moves[:40], settle_last=False)
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(part)))) == part
        assert game.full_record(part)["moves"] == game.full_record(end)["moves"][:40]


def test_importing_the_engine_does_not_import_django() -> None:
    root = Path(__file__).resolve().parents[2]
    code = (
        "import engine, engine.indulgence, engine.play, engine.bench, sys;"
        " assert 'django' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


def test_the_module_implements_the_game_protocol() -> None:
    from engine.core import Game

    module: Game[game.State] = game  # checked by mypy: a module satisfies the protocol
    state = game.new_game(3, "basic", "protocol")
    assert module.to_act(state) == state.ruler
    assert module.legal_actions(state, state.ruler)
