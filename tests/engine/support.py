"""Helpers for the engine tests: scenario building, scripted and policy play, and an
independent reference scorer (written from the rules text, not from the engine code)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import indulgence as game
from engine.indulgence.scenario import state_with_hands
from engine.indulgence.state import State

Action = dict[str, Any]
Policy = Callable[[State, int], Action]

# Deal R ("rotating"): each seat holds eight of one family and the 9 of the next.
DEAL_R = (
    "B1 B2 B3 B4 B5 B6 B7 B8 M9",
    "M1 M2 M3 M4 M5 M6 M7 M8 O9",
    "O1 O2 O3 O4 O5 O6 O7 O8 S9",
    "S1 S2 S3 S4 S5 S6 S7 S8 B9",
)
# Deal F: each seat holds one whole family, so whoever leads wins every trick.
DEAL_F = (
    "B1 B2 B3 B4 B5 B6 B7 B8 B9",
    "M1 M2 M3 M4 M5 M6 M7 M8 M9",
    "O1 O2 O3 O4 O5 O6 O7 O8 O9",
    "S1 S2 S3 S4 S5 S6 S7 S8 S9",
)


def scenario(hands: Iterable[str], **kwargs: Any) -> State:
    """``state_with_hands`` with each hand written as one string of card ids."""
    return state_with_hands([h.split() for h in hands], **kwargs)


def lowest(state: State, seat: int) -> Action:
    """The first legal action (cards in id order; never the ring)."""
    return game.legal_actions(state, seat)[0]


def highest(state: State, seat: int) -> Action:
    """The highest card in id order, without the ring."""
    plays = [a for a in game.legal_actions(state, seat) if not a.get("indulgence")]
    return plays[-1]


def start(
    state: State,
    edict: str | None,
    *,
    sinner: int | None = None,
    trump: str | None = None,
) -> State:
    """The Ruler chooses ``edict`` (None: the papal bull), names ``trump`` if asked,
    then everyone passes until ``sinner`` (None: nobody) sins."""
    ruler = game.to_act(state)
    assert ruler is not None
    action = {"type": "papal_bull"} if edict is None else {"type": "choose_edict", "edict": edict}
    state = game.apply(state, ruler, action)
    if trump is not None:
        state = game.apply(state, ruler, {"type": "name_trump", "family": trump})
    while state.phase is game.Phase.SIN_DECISION:
        seat = game.to_act(state)
        assert seat is not None
        state = game.apply(state, seat, {"type": "sin" if seat == sinner else "pass"})
    return state


def play_out(state: State, policy: Policy) -> State:
    """Play cards with ``policy`` until the hand is over (ties left unresolved)."""
    while state.phase is game.Phase.PLAYING:
        seat = game.to_act(state)
        assert seat is not None
        state = game.apply(state, seat, policy(state, seat))
    return state


def play_script(state: State, script: str) -> State:
    """Play the cards of ``script`` in order ("*" after a card: with the ring)."""
    for token in script.replace("|", " ").split():
        seat = game.to_act(state)
        assert seat is not None, f"nobody to play {token}"
        ring = token.endswith("*")
        state = game.apply(
            state, seat, {"type": "play", "card": token.rstrip("*"), "indulgence": ring}
        )
    return state


def settled(state: State) -> tuple[State, dict[str, Any]]:
    """Advance past the settlement; returns the new state and the settled hand's record."""
    index = len(state.history)
    state = game.advance(state)
    return state, game.full_record(state)["hands"][index]


def payments(hand: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    return [(p["payer"], p["payee"], p["owed"], p["reason"]) for p in hand["payments"]]


def random_game(
    seed: str, player_count: int, variant: str, rng: random.Random
) -> tuple[State, list[tuple[int, Action]]]:
    """A whole game of uniformly random legal play; returns the end state and the moves."""
    state = game.new_game(player_count, variant, seed)
    moves = []
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        action = rng.choice(game.legal_actions(state, seat))
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    return state, moves


# --- The reference scorer ---------------------------------------------------------------

FAMILY_OF = {"B": "borgia", "M": "medici", "O": "orsini", "S": "sforza"}
PLURAL = {"borgia": "Borgias", "medici": "Medicis", "orsini": "Orsinis", "sforza": "Sforzas"}


def _family(card: str) -> str:
    return FAMILY_OF[card[0]]


def _rank(card: str) -> int:
    return int(card[1])


def _scoring(edict: str, trump: str | None) -> set[str]:
    """The cards a per-card (or pairs) edict counts."""
    all_cards = {f"{i}{r}" for i in "BMOS" for r in range(1, 10)}
    if edict.startswith("any-") and edict != "any-trump":
        return {c for c in all_cards if _family(c) == edict[4:]}
    if edict == "any-trump":
        return {c for c in all_cards if _family(c) == trump}
    if edict == "twos-threes":
        return {c for c in all_cards if _rank(c) in (2, 3)}
    if edict == "sixes":
        return {c for c in all_cards if _rank(c) == 6}
    if edict.startswith(("even-", "pairs-")):
        _, a, b = edict.split("-")
        cards = {c for c in all_cards if _family(c) in (a, b)}
        return {c for c in cards if _rank(c) % 2 == 0} if edict.startswith("even-") else cards
    raise ValueError(edict)


def reference_settlement(
    hand: dict[str, Any], florins_before: dict[str, int], player_count: int
) -> tuple[list[tuple[int, int, int, int]], bool | None, bool]:
    """Payments [(payer, payee, owed, paid)], sin success, papal-bull win, from a hand's
    record, by the rules text."""
    n = player_count
    ruler = hand["ruler"]
    sinner = hand["sinner"]
    trump = hand["trump"]
    tricks = hand["tricks"]
    taken: dict[int, list[str]] = {s: [] for s in range(n)}
    counts = dict.fromkeys(range(n), 0)
    first_to_three = None
    played: list[str] = []
    last_taker: dict[str, int] = {}
    for trick in tricks:
        cards = [p["card"] for p in trick["plays"]]
        taken[trick["winner"]].extend(cards)
        counts[trick["winner"]] += 1
        if first_to_three is None and counts[trick["winner"]] == 3:
            first_to_three = trick["winner"]
        played.extend(cards)
        for family in FAMILY_OF.values():
            if sum(1 for c in played if _family(c) == family) == 9 and family not in last_taker:
                last_taker[family] = trick["winner"]
    complete = len(tricks) == 36 // n
    first = tricks[0]["winner"] if tricks else None
    last = tricks[-1]["winner"] if complete else None
    ties = {t["family"]: t["seat"] for t in hand["tie_choices"]}

    def family_count(seat: int, family: str) -> int:
        return sum(1 for c in taken[seat] if _family(c) == family)

    def most(family: str) -> int | None:
        top = max(family_count(s, family) for s in range(n))
        leaders = [s for s in range(n) if family_count(s, family) == top]
        if top == 0:
            return None
        return leaders[0] if len(leaders) == 1 else ties.get(family)

    def owes(edict: str, seat: int) -> int:
        if edict.startswith("last-"):
            return 8 if last_taker.get(edict[5:]) == seat else 0
        if edict == "first-last":
            return 4 * ((first == seat) + (last == seat))
        if edict == "first-to-three":
            return 6 if first_to_three == seat else 0
        if edict == "no-tricks":
            return counts[seat]
        if edict == "most-of-family":
            return 2 * sum(1 for f in FAMILY_OF.values() if most(f) == seat)
        if edict.startswith("pairs-"):
            _, a, b = edict.split("-")
            ranks_a = {_rank(c) for c in taken[seat] if _family(c) == a}
            ranks_b = {_rank(c) for c in taken[seat] if _family(c) == b}
            return 2 * len(ranks_a & ranks_b)
        amount = 2 if edict == "sixes" else 1
        return amount * len(set(taken[seat]) & _scoring(edict, trump))

    def sin_met(edict: str, seat: int) -> bool:
        if edict.startswith("last-"):
            return last_taker.get(edict[5:]) == seat
        if edict == "first-last":
            return first == seat and last == seat
        if edict == "first-to-three":
            return first_to_three == seat
        if edict == "no-tricks":
            return complete and counts[seat] == len(tricks)
        if edict == "most-of-family":
            for f in FAMILY_OF.values():
                mine = family_count(seat, f)
                best = max(family_count(s, f) for s in range(n) if s != seat)
                if mine < best or (mine == best and ties.get(f) != seat):
                    return False
            return True
        return _scoring(edict, trump) <= set(taken[seat])

    rewards = {
        "first-last": 4,
        "first-to-three": 3,
        "sixes": 4,
        "no-tricks": 10,
        "most-of-family": 6,
    }
    order = [(ruler + k) % n for k in range(1, n + 1)]
    owed: list[tuple[int, int, int]] = []
    success: bool | None = None
    papal_win = False
    if sinner is None:
        for edict in hand["edicts_in_force"]:
            for payer in order[:-1]:
                amount = owes(edict, payer)
                if amount:
                    owed.append((payer, ruler, amount))
    else:
        success = all(sin_met(e, sinner) for e in hand["edicts_in_force"])
        if success and hand["papal_bull"]:
            papal_win = True
        elif success:
            edict = hand["edicts_in_force"][0]
            reward = rewards.get(
                edict, 3 if edict.startswith("last-") else 10 if edict.startswith("pairs-") else 6
            )
            owed = [(payer, sinner, reward) for payer in order if payer != sinner]
        else:
            owed = [(sinner, ruler, 18 if hand["papal_bull"] else 8)]
    purse = {int(k): v for k, v in florins_before.items()}
    result = []
    for payer, payee, amount in owed:
        paid = min(amount, purse[payer])
        purse[payer] -= paid
        purse[payee] += amount
        result.append((payer, payee, amount, paid))
    return result, success, papal_win
