"""The JSON the engine gives out is pinned byte for byte: seeded random games over every
seat count and variant (and one with the heuristic bot, which thaws and freezes tables
of its own), digesting every step's ``legal_actions``, ``decision`` and one view, and
regularly ``full_record`` (Appendix H) and every seat's view; the server's snapshot
(``state_to_json``, P-86) must give back an equal state.

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


def _seen(v: dict[str, object]) -> dict[str, object]:
    """A view without P-87's ``payment_help`` (added after these digests, checked against
    ``suggest_payment`` by test_payhelp.py): every field it had is byte for byte the same."""
    return {k: x for k, x in v.items() if k != "payment_help"}


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
        h.update(_dump(_seen(view(state, seat if step % 2 else None))))
        if step % 25 == 0 or E.is_over(state):
            snapshot = state_to_json(state)
            h.update(_dump(full_record(state)))
            assert state_from_json(json.loads(json.dumps(snapshot))) == state
            for s in range(players):
                h.update(_dump(_seen(view(state, s))))
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
    (2, "standard", 0): "1665a0a40823cdbde49922953776816d6386cfc133491248e86d64cfc07cb106",
    (2, "standard", 1): "daaab3b0810232dbcc608a11b58b40a4d102726cf5eb11250c539a4259b39eae",
    (2, "standard", 2): "40caca92749274d7465c96c9290efeded263a202d6982bb00224cf1940d503d9",
    (3, "standard", 0): "28f6d48fb7f24713908258ce0d210112b60da01201d1ababf9d18798afe3887e",
    (3, "standard", 1): "fc77e7174c4e4b65fbacba3848e181a72595421a6e5928bd3ef6f2ebc50d9d67",
    (3, "standard", 2): "781436169c824deb60d6bc6da23aac5b10f425b919678ca11d553dcf998a1464",
    (4, "standard", 0): "a172d363bc486eb6abc42a0a2310977ec34420a14871d3145f65289268e122b0",
    (4, "standard", 1): "9ce6a872638ec18cd604b0cb2a434029cb3404e6599d4edec544bf914531128b",
    (4, "standard", 2): "b73aaa72b4455512629393fc6a4e1ba0ecd1e738d6908077b7accfd3ea4dd682",
    (2, "automa-SG", 0): "1acb918c5281ebc336936b5f0d4fc800878fc8a0ba69c9bac9c574d9b7044dc2",
    (2, "automa-SG", 1): "8f19495c1a6cab019df2cbfbfdd83dd50ecda581f0554066a60c7180f9bb3203",
    (2, "automa-SG", 2): "32e02a5f214d0db51bc12d57f4ecf10032a1ac670e9be6728853aefc0346ded5",
    (3, "automa-SG", 0): "d0a3f95bd519ee586f8e6faf419895b2c4a5c9beba3deb2109610155f7d6e6e2",
    (3, "automa-SG", 1): "b4285ac08957f8721e7b2ecad0c9360f771d9e5fd11d17b0b4b4376c92b9d0e7",
    (3, "automa-SG", 2): "000123ec45d546c724860a6320fa535e61ccd1f882e65acb4a59baf0ac6ee073",
    (4, "automa-SG", 0): "8fe828e161ab27921595df7e7d6073fb2da93cca8db1f55464d9583419b33547",
    (4, "automa-SG", 1): "fd76211aff74a1a22c28b41698442d3ecdbdd4fb5cb4309bc182ecc1579034c3",
    (4, "automa-SG", 2): "9de93429a495bd0c18297fbcd9933c9f934063d32dbc21d1fc913e476c46d137",
    (2, "automa-J2", 0): "378166d2492ba9aa7f15718dc3dca9d75e85689a71726603c5ad83cb7e04745a",
    (2, "automa-J2", 1): "630b8f9410d3601790d3797f890f985c6ca4758fa4a6e7cd0c679846f0d6289f",
    (2, "automa-J2", 2): "5bcc7af40e4f4dc5432ce32daf28e6ff580f04c6430ce53ddb6f9ada7531645a",
    (3, "automa-J2", 0): "4ed6600dd69e165e45e23b04e7ad3eccdfb6e2d5c03ce4f58392a8c25d604d7d",
    (3, "automa-J2", 1): "97c669ee877e4a05196eeccc364c70c5ff994fce2785151b745aba96ab696916",
    (3, "automa-J2", 2): "379a208730f6aa6a844b13112fd4f2a40afecdd88c8c807115d2eaecd1728833",
    (4, "automa-J2", 0): "2c4e9195216c01bfaa3e3d2b6836b7df42de0af9426adb0dd3f3fee4b59038a6",
    (4, "automa-J2", 1): "7873b848585a08612737e69795430426292ba284897837d8a2ec09633fa852dd",
    (4, "automa-J2", 2): "0986939ce42d32e50af582502778ff3b8244eaf5df4da7646ae2302da1d57b02",
    (2, "automa-AC", 0): "c8e94c59f056388c4e40f330c596929ddf69e3a6acc15377a95162b996e37414",
    (2, "automa-AC", 1): "147c59a94d534e27c00cedb172118807769b83f91653c419d5f8431225fa6448",
    (2, "automa-AC", 2): "98466d1ffaad578582681cb99ffe60f358a98fac1b94ed816eec6ba4c452f17e",
    (3, "automa-AC", 0): "aac743cdab657885271faa4587745284397a55721fac8bc3dd3b7108bb000f17",
    (3, "automa-AC", 1): "ed0f2bb54ba6406ce6669de33828b516f3388ae7bfd1e4ab65931c391b66f023",
    (3, "automa-AC", 2): "44ade57efb049d093d063a49624d576ff56e4505aadda6418aec6b948b752294",
    (4, "automa-AC", 0): "b284474cdf8db8148f1274934e21414b0adc6c666df05b46a2469938c1aa953c",
    (4, "automa-AC", 1): "bca79424d528bee5a44e8b8ccaec3a9de35f5180813f123a4b6797b9b81313c1",
    (4, "automa-AC", 2): "91e7e28060219b10312f3dbdd951ebd71eed645aad9efa439044bc589d13a2bd",
    (2, "automa-AW", 0): "dd8f26b05c3db06c3d2ba5bb19492caecb843a8d8646c7a418dfca6c3a266e11",
    (2, "automa-AW", 1): "8431445093a143e28e715e903fd1dcb1a17a3d80e860639e5f153dea90363703",
    (2, "automa-AW", 2): "4b8caa2dfde02b415fcb9a70b54174b8987a9aceb411400a01ae64e78752ebf3",
    (3, "automa-AW", 0): "f02e031218316278b21b72c81d0203d51678bb54bc8961157624d122832e332f",
    (3, "automa-AW", 1): "b055ee041b7c2f947e0e574ecff9407f7fe975862a11e45ae8c2d7aaeee6f154",
    (3, "automa-AW", 2): "a6dfa460f3b7bb4555a20fd58877a9311fe62fe5a578336f5f5ae3b58e01409d",
    (4, "automa-AW", 0): "aea696b8be7291c552b48c7114db94d74f1ae1127aecdff86a8d747e4605cfef",
    (4, "automa-AW", 1): "a483e7d48b605babdc2d7fb5ac723d33e84e83151ce7ee4965ca86128e615a0e",
    (4, "automa-AW", 2): "948fc2120d7e716e1dfc07510abc276677cdf4fd5fa5d9e17af1c50e9181f931",
}
"""(seats, variant, game): the digest of that seeded game on main at 7e080c3."""

HEURISTIC: dict[int, str] = {
    2: "290f0bc8b53affbfa58bf58a08842a74567f44c26a3eddbdde060a763f043267",
    3: "10958674c4148fa84748b91bdcbd40f5b22f3250cf57eceda5862a76adb89080",
    4: "06abc736cf7e8dee3922726c91fb913a218e6a93d52b6481ddfe56b4e7824743",
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


def _open_states() -> list[State]:
    """States of a seeded game whose program is open (an origin and answers)."""
    rng = random.Random(5)
    state = E.new_game(3, "standard", "snapshot", {"round_cap": 12})
    found = []
    while not E.is_over(state):
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
        else:
            state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        if state.origin is not None:
            found.append(state)
    return found


def test_the_snapshot_holds_the_log_once_and_reads_back_equal() -> None:
    """P-86: the origin of an open program is stored without its log (a prefix of the
    state's), and the state read back is equal, its origin's log included."""
    states = _open_states()
    assert len(states) > 20
    for state in states:
        snapshot = json.loads(json.dumps(state_to_json(state)))
        origin = snapshot["state"]["internal"]["origin"]
        assert "log" not in origin
        assert origin["log_length"] == len(state.origin.log) <= len(state.log)
        back = state_from_json(snapshot)
        assert back == state
        assert back.origin == state.origin
        assert list(back.origin.log) == list(state.origin.log)


def test_a_snapshot_whose_origin_has_its_whole_log_still_reads() -> None:
    """Snapshots stored before P-86 wrote the origin with its whole log."""
    for state in _open_states()[::5]:
        snapshot = json.loads(json.dumps(state_to_json(state)))
        origin = snapshot["state"]["internal"]["origin"]
        n = origin.pop("log_length")
        old = {**origin, "log": snapshot["log"][:n]}
        old = {
            k: old[k] for k in ("format", "seed", "players", "variant", "round_cap", "log", "state")
        }
        snapshot["state"]["internal"]["origin"] = old
        assert state_from_json(snapshot) == state
