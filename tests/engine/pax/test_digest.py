"""The JSON the engine gives out is pinned byte for byte: seeded random games over every
seat count and variant (and one with the heuristic bot, which thaws and freezes tables
of its own), digesting every step's ``legal_actions``, ``decision`` and one view, and
regularly ``full_record`` (Appendix H), ``state_to_json`` and every seat's view.

The digests were computed on main at 7e080c3, before the state became copy-on-read
(docs/pax.md, figures of 2026-11-28): a change of how the state is held must not change
a byte of what leaves the engine, nor a game's course (16.1: same seed and actions, same
game). A rule change that moves these games changes the digests, knowingly.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.pax import engine as E
from engine.pax.bench import kinds
from engine.pax.bots import heuristic_bot
from engine.pax.record import full_record, state_from_json, state_to_json
from engine.pax.state import State
from engine.pax.view import view


def _dump(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def _game_digest(players: int, variant: str, seed: str, heuristic_seat: int | None) -> str:
    """Play a seeded game (random choices among ``legal_actions``; the heuristic bot on
    ``heuristic_seat``), hashing what leaves the engine along the way."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    state: State = E.new_game(players, variant, seed, {"round_cap": 12})
    step = 0
    while True:
        seat = E.to_act(state)
        h.update(_dump([step, seat, E.decision(state)]))
        h.update(_dump(view(state, seat if step % 2 else None)))
        if step % 25 == 0 or E.is_over(state):
            snapshot = state_to_json(state)
            h.update(_dump(full_record(state)))
            h.update(_dump(snapshot))
            assert state_from_json(json.loads(json.dumps(snapshot))) == state
            for s in range(players):
                h.update(_dump(view(state, s)))
        if E.is_over(state):
            h.update(_dump(E.result(state)))
            return h.hexdigest()
        if seat is None:
            state = E.advance(state)
        else:
            actions = E.legal_actions(state, seat)
            h.update(_dump(actions))
            if seat == heuristic_seat:
                action = heuristic_bot(view(state, seat), rng)
            else:
                action = rng.choice(actions)
            state = E.apply(state, seat, action)
        step += 1


DIGESTS: dict[tuple[int, str, int], str] = {
    (2, "standard", 0): "0e4998db453e37c24dd4e5a699ac74a792685087605c35f25aa5f58266291873",
    (2, "standard", 1): "a68d2f3443ddd1754c90b0e2367f30f37fa47ecf1b185429a204ccb55ebd0d69",
    (2, "standard", 2): "f4db771f8680b90cfc29d527ef7f5ac6e4fd629f14cd5f0d768f11dbfc226063",
    (3, "standard", 0): "5fc2c5ef878b0fbf2d89f9cfd7c524fb06431104bf21154bc402a3ea6169c99a",
    (3, "standard", 1): "99ca1bd74c91f669c4324891b4c11aac5e7f7a049be4668e3c45ff8b2105e413",
    (3, "standard", 2): "3c3284c62b67e5b60b205c94ffc00d63e4c6a77c8dd2d02e5912cce470673b05",
    (4, "standard", 0): "65c3c6d366e2b8bafba3739c6519d715cd921858c485b0c4047e300394564231",
    (4, "standard", 1): "2158e3f35e20674d8f69259bd76b20e22774d3122369581928ff023492d9a1ae",
    (4, "standard", 2): "2327a261122ee5d3ca4427ef76b72c4e55fcfb47f3e0754aa364f8cce15fd704",
    (2, "automa-SG", 0): "862244d0b7f7593c79246f4c703c83672f5f55534ed6c8589149fdee9fe2a423",
    (2, "automa-SG", 1): "d38e0e910664d9a0ba42f26a8544e038966dd63a280443485e8f87d504435fc9",
    (2, "automa-SG", 2): "0aaebcc6fc8ded82b7b9c96364820369b779ef1a3c2e4c749b08ac6bea073586",
    (3, "automa-SG", 0): "419cb0669e7f51007093e747de64279c99f4656b7cfa1b2875e4513c554a820f",
    (3, "automa-SG", 1): "a040ec8ae49701f787a587b763fe768e9d83745c8cd47019849edab2882f2302",
    (3, "automa-SG", 2): "3107ca2a79c6baca70d5a6246d6e0e0a13e0a0156658e1476e1a3412dfe81449",
    (4, "automa-SG", 0): "0fd6ff64f4fa9788cba53ac9e930cf1c04a01f8fd15c4977869b1e7f89fdac68",
    (4, "automa-SG", 1): "38bc912e8d3cc2ecf73891c87d8b7d28388bec5e939b7f166c1b3fa6ff073821",
    (4, "automa-SG", 2): "3f26942cb3993c2483b9ef5cbdf18a31ea3790419ff3fc5114975617aa6b3fc4",
    (2, "automa-J2", 0): "f236907a1a9eabede615ceb285704735558c490988545c33da8430bdfa17f14b",
    (2, "automa-J2", 1): "83a91e83692690af36f03e4ddab68165de561980d94bc328afe50977d0e197ad",
    (2, "automa-J2", 2): "d318c29b47b0b0f02957d750ab41f9688a569a8f5f3ba45e4461fa4645df6d28",
    (3, "automa-J2", 0): "7c3a8d4e1e6a0ad7475d03100801557939b9c1fd722f1cd1f3840484ec49f1bf",
    (3, "automa-J2", 1): "f4eb66eda50a7dbfd950f3e09a7d4257cbda8335660b0225b328687098fde194",
    (3, "automa-J2", 2): "d3d4401557be30630e0fb97819f9802a9885c3f367eb15d353dd858f2ce40345",
    (4, "automa-J2", 0): "facca792ed6187cb9d33a3def1a9d85c35c47409f0944b50efa1496445ac4fe3",
    (4, "automa-J2", 1): "de7c05e1af4a986495a399804ba8ba507c532a5c812871fb13721982cd68c71e",
    (4, "automa-J2", 2): "ca3161446c2dbb73e1298a0bb97e4856b027be1befd00dfcf7e7acb6b87738c5",
    (2, "automa-AC", 0): "786db5008fe4d9055cf6ffc706125ee78aa7155d7b5928c447493b8903efcca1",
    (2, "automa-AC", 1): "15a04eafd979e76cc44952af4784e97876032545410e912d8131b089eb3fb73a",
    (2, "automa-AC", 2): "4701b6819f86a296e8eee3519b1f1237ce3a3ac9f3e25bff791fc05ae0e1dacc",
    (3, "automa-AC", 0): "7a47ac66b3e87361ee1cca97ffd7f31a20d4911ecdecdf16b261b5b53754e19f",
    (3, "automa-AC", 1): "8713a090dc00ea25e031d486b7338892c92ef45ff2cfa89f779ee83ba4222dcf",
    (3, "automa-AC", 2): "b5c8c7fc9d02c4a948321fd0616af1b8122d24ac9dc77ad78d4788afb1794f72",
    (4, "automa-AC", 0): "d848458ca59ea36047f27269dc32263f2be8a659ee8c2fa366abe85f5d7ea851",
    (4, "automa-AC", 1): "0b1ba1c04535b320923b3f428e944baaeeb5850faa50e1996fbb15c2360ef5f7",
    (4, "automa-AC", 2): "7eb10cbf1c2600d6a003295d3d0cd26a370b42a9086756b93473cfdda36701ca",
    (2, "automa-AW", 0): "279f9fb93fb9eab77443b5e208dcd80cc98897cef0e4f2422bc43b1994b4e020",
    (2, "automa-AW", 1): "1f0b9b210288b78e1b523bbdaa71f1f113f2addeed7dc86feed58f0e470f1fb5",
    (2, "automa-AW", 2): "fb16066b870a6d4f0bcb846fa708a35a1264a440744cb0197a6eb2bd29fd0ddb",
    (3, "automa-AW", 0): "9edcd24ec34dbf761a94975617e0d6e3661f5a9f46570311cc05c4ca02edc9ec",
    (3, "automa-AW", 1): "0b5c39812be10e20ff532f532d463daa994976ed33ace9bf911ae31c14b50e6c",
    (3, "automa-AW", 2): "de4da1752485772a2c4205e96da136c5a8b636aff5ea429023277c536d32e18d",
    (4, "automa-AW", 0): "0661a7149ce2129e1999705c7180c60e4258b956504743a72bd24d7f75d4aa30",
    (4, "automa-AW", 1): "02b44403e37163e69c5bb021dd27e0632f760978c45f54597145e9289d2ddb1b",
    (4, "automa-AW", 2): "2939f13a52348c9234d7ae0fd94143879d00bc1f65312df7f62be5218dab45b1",
}
"""(seats, variant, game): the digest of that seeded game on main at 7e080c3."""

HEURISTIC: dict[int, str] = {
    2: "f6bbc087b2ca5bc7867372f8ca67158ad8359a595f791cc9dde9ba0838facbb2",
    3: "76025aeb179af53f4f339b3ef6b5a2bd63b1d619064d685b2bc93c3d4f4483d0",
    4: "b5660bea777cca6111dd41aa0c6c0c09d24dde02195fba2f532fe312f3d981d9",
}
"""seats: the game where the last seat is the heuristic bot, on main at 7e080c3."""


@pytest.mark.parametrize(("players", "variant"), kinds())
def test_seeded_games_give_the_same_json_byte_for_byte(players: int, variant: str) -> None:
    got = {
        (players, variant, g): _game_digest(
            players, variant, f"digest-{g}-{players}-{variant}", None
        )
        for g in range(3)
    }
    assert got == {k: v for k, v in DIGESTS.items() if k[:2] == (players, variant)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_with_the_heuristic_bot_gives_the_same_json(players: int) -> None:
    got = _game_digest(players, "standard", f"digest-heuristic-{players}", players - 1)
    assert got == HEURISTIC[players]


def test_every_kind_is_pinned() -> None:
    assert {k[:2] for k in DIGESTS} == set(kinds())
