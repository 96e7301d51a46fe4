"""Play or watch a seeded game in the terminal, against bots: Indulgence (the default),
New Eleusis (``eleusis`` first) or Pax Illuminaten (``pax`` first).

    python -m engine.play --players 4 --variant expert --seed demo --seat 0
    python -m engine.play --watch --players 3 --seed demo
    python -m engine.play eleusis --players 5 --seat 1 --rounds 1
    python -m engine.play eleusis --watch --bots novice --seed demo
    python -m engine.play eleusis --verify record.json
    python -m engine.play pax --players 2 --seat 0 --bots heuristic --seed demo
    python -m engine.play pax --watch --players 3 --bots search --seed demo

Playing, your seat's view is printed whenever it is your turn; answer with the number
of a legal action. Everything else is played by the uniform random bot. End of input
(Ctrl-D) leaves the game. Only public events are printed (plus every deal with
``--watch``, which shows the whole game).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine import eleusis
from engine import indulgence as game
from engine.bots.random_bot import choose as random_choose
from engine.core import IllegalAction, JsonDict
from engine.eleusis import text as eleusis_text
from engine.indulgence.state import State


def describe_action(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "choose_edict":
        return f"choose {action['edict']}"
    if kind == "papal_bull":
        return "play the papal bull (every edict in the row)"
    if kind == "name_trump":
        return f"name {action['family']} trump"
    if kind == "play":
        return f"play {action['card']}" + (
            " with the Indulgence ring" if action["indulgence"] else ""
        )
    if kind == "resolve_tie":
        return f"seat {action['seat']} has the most {action['family']}"
    return str(kind)


def _edicts(edicts: Sequence[dict[str, Any]]) -> str:
    return "; ".join(f"{e['id']} ({e['title']})" for e in edicts) or "-"


def _plays(plays: Sequence[dict[str, Any]]) -> str:
    return ", ".join(
        f"s{p['seat']} {p['card'] or '??'}{'*' if p['indulgence'] else ''}" for p in plays
    )


def render_view(view: dict[str, Any]) -> str:
    """A seat's view as a few lines of text."""
    seats = " | ".join(
        f"seat {s['seat']}: {s['florins']} fl" + (" (bull)" if s["papal_bull_available"] else "")
        for s in view["seats"]
    )
    lines = [
        f"--- Hand {view['hand_number']}/{view['total_hands']} (round {view['round']}),"
        f" Ruler: seat {view['ruler_seat']}, phase: {view['phase']} ---",
        f"Florins: {seats}",
        f"Edict row: {_edicts(view['edict_row'])}",
    ]
    if view["edicts_in_play"]:
        extra = ""
        if view["trump"]:
            extra += f", trump: {view['trump']}"
        if view["sinner_seat"] is not None:
            extra += f", sinner: seat {view['sinner_seat']}"
            extra += ", ring used" if view["indulgence_used"] else ", ring unused"
        lines.append(f"In force: {_edicts(view['edicts_in_play'])}{extra}")
    if view["tricks"]:
        counts = ", ".join(f"seat {s}: {c}" for s, c in view["trick_counts"].items())
        lines.append(f"Tricks taken: {counts}")
    trick = view["current_trick"]
    if trick["plays"]:
        lines.append(f"Current trick (led {trick['led_family']}): {_plays(trick['plays'])}")
    if view["my_seat"] is not None:
        lines.append(f"Your hand (seat {view['my_seat']}): {' '.join(view['my_hand'])}")
    pending = view["pending_tie"]
    if pending:
        lines.append(
            f"Tie for the most {pending['family']} between seats {pending['seats']};"
            f" seat {pending['chooser']} chooses"
        )
    return "\n".join(lines)


def _events(before: State, after: State, show_deals: bool) -> list[str]:
    """Public things that happened between two consecutive states."""
    out: list[str] = []
    if len(after.history) > len(before.history):  # a hand was settled
        out.extend(_settlement_lines(game.view(after, None)["last_settlement"]))
        if after.phase is not game.Phase.FINISHED:
            out.append(_hand_header(after, show_deals))
    else:
        for seat, items in after.hand_moves[len(before.hand_moves) :]:
            action = dict(items)
            if action["type"] != "play":
                out.append(f"  seat {seat}: {describe_action(action)}")
        tricks = game.view(after, None)["tricks"]
        for number in range(len(before.tricks) + 1, len(after.tricks) + 1):
            trick = tricks[number - 1]
            out.append(f"  trick {number}: {_plays(trick['plays'])} -> seat {trick['winner']}")
        if after.ended_early and not before.ended_early:
            out.append(
                f"  the hand ends early: no payment can change after trick {len(after.tricks)}"
            )
    if after.phase is game.Phase.FINISHED:
        res = game.result(after)
        assert res is not None
        florins = ", ".join(f"seat {s}: {f}" for s, f in res["florins"].items())
        out.append(
            f"Game over ({res['reason']}): seat {res['winner_seat']} wins. Florins: {florins}"
        )
    return out


def _hand_header(state: State, show_deals: bool) -> str:
    view = game.view(state, None)
    text = (
        f"Hand {view['hand_number']}/{view['total_hands']} (round {view['round']}):"
        f" Ruler seat {view['ruler_seat']}; row: {_edicts(view['edict_row'])}"
    )
    if show_deals:
        deal = game.full_record(state)["hands"][-1]["deal"]
        text += "".join(f"\n  seat {s}: {' '.join(cards)}" for s, cards in deal.items())
    return text


def _settlement_lines(settlement: dict[str, Any] | None) -> list[str]:
    if settlement is None:
        return []
    lines = []
    if settlement["sinner"] is not None:
        verdict = "succeeded" if settlement["sin_succeeded"] else "failed"
        lines.append(f"  seat {settlement['sinner']}'s sin {verdict}")
    for p in settlement["payments"]:
        short = "" if p["paid"] == p["owed"] else f" (paid only {p['paid']})"
        lines.append(
            f"  seat {p['payer']} pays seat {p['payee']} {p['owed']}{short}: {p['reason']}"
        )
    if not settlement["payments"]:
        lines.append("  no payments")
    florins = ", ".join(f"seat {s}: {f}" for s, f in settlement["florins_after"].items())
    lines.append(f"  florins now: {florins}")
    return lines


def run(
    *,
    players: int,
    variant: str,
    seed: str,
    seat: int | None,
    bot_seed: str,
    read_line: Callable[[], str],
    out: TextIO,
) -> int:
    """Play (``seat`` given) or watch (``seat`` None) a game; returns an exit status."""
    rng = random.Random(bot_seed)
    state = game.new_game(players, variant, seed)
    print(f"Indulgence, {players} players, {variant}, seed {seed!r}", file=out)
    print(_hand_header(state, seat is None), file=out)
    while not game.is_over(state):
        actor = game.to_act(state)
        if actor is None:
            nxt = game.advance(state)
        elif actor == seat:
            view = game.view(state, seat)
            print(render_view(view), file=out)
            actions = view["legal_actions"]
            for number, action in enumerate(actions, start=1):
                print(f"  {number}) {describe_action(action)}", file=out)
            action = None
            while action is None:
                print("Your choice: ", end="", file=out, flush=True)
                line = read_line()
                if not line:
                    print("\nEnd of input: leaving the game.", file=out)
                    return 0
                text = line.strip()
                if text.isdigit() and 1 <= int(text) <= len(actions):
                    action = actions[int(text) - 1]
                else:
                    print(f"Please answer with a number from 1 to {len(actions)}.", file=out)
            nxt = game.apply(state, seat, action)
        else:
            nxt = game.apply(state, actor, random_choose(game.view(state, actor), rng))
        for line in _events(state, nxt, seat is None):
            print(line, file=out)
        state = nxt
    return 0


def run_eleusis(
    *,
    players: int,
    seed: str,
    seat: int | None,
    bots: str,
    bot_seed: str,
    options: dict[str, Any],
    read_line: Callable[[], str],
    out: TextIO,
) -> int:
    """Play one seat (``seat``) or watch (None) a game of New Eleusis against bots."""
    rng = random.Random(bot_seed)
    state = eleusis.new_game(players, "standard", seed, options)
    bot = eleusis.META.bots[bots]
    print(f"New Eleusis, {players} players, seed {seed!r}, bots: {bots}", file=out)
    shown = 0
    number = 0
    while not eleusis.is_over(state):
        r = state.round
        if r.number != number:
            number, shown = r.number, 0
            dealer = "the house" if r.dealer is None else f"seat {r.dealer}"
            print(f"Round {number}: dealer {dealer}", file=out)
        actor = eleusis.to_act(state)
        if actor is None:
            before = state.round
            state = eleusis.advance(state)
            if before.score is None and before.phase == "round_over":
                _round_summary(state, before.number, out)
            continue
        if actor == seat:
            view = eleusis.view(state, seat)
            print(eleusis_text.render_view(view), file=out)
            actions = [a for a in view["legal_actions"] if "template" not in a]
            for index, action in enumerate(actions, start=1):
                print(f"  {index}) {eleusis_text.describe_action(action)}", file=out)
            print(
                "  (or: play QH.1 3S.2 [declare] | no play | rule SOURCE | prophecy SOURCE)",
                file=out,
            )
            while True:
                print("Your choice: ", end="", file=out, flush=True)
                line = read_line()
                if not line:
                    print("\nEnd of input: leaving the game.", file=out)
                    return 0
                text = line.strip()
                chosen: JsonDict | None = None
                if text.isdigit() and 1 <= int(text) <= len(actions):
                    chosen = dict(actions[int(text) - 1])
                else:
                    chosen = eleusis_text.parse_command(text)
                if chosen is None:
                    print(f"Please answer 1 to {len(actions)} or a command.", file=out)
                    continue
                try:
                    state = eleusis.apply(state, seat, chosen)
                    break
                except IllegalAction as exc:
                    print(f"Refused ({exc.code}): {exc.message}", file=out)
        else:
            state = eleusis.apply(state, actor, bot(eleusis.view(state, actor), rng))
        log = eleusis.view(state, seat)["round"]["log"] if state.round.number == number else []
        for entry in log[shown:]:
            print(eleusis_text.describe_entry(entry), file=out)
        shown = len(log)
    res = eleusis.result(state)
    assert res is not None
    print(
        f"Game over ({res['reason']}): totals {res['scores']}, winners {res['winner_seats']}",
        file=out,
    )
    return 0


def _round_summary(state: eleusis.State, number: int, out: TextIO) -> None:
    record = eleusis.full_record(state)["rounds"][number - 1]
    rule = record["rule"]
    print(
        f"Round {number} is over. The rule was ({rule['library_id'] or 'own'}): {rule['source']}",
        file=out,
    )
    print(f"  scores: {record['end']['score']['scores']}", file=out)


def verify_file(path: str, out: TextIO) -> int:
    """Verify a record file (NE-29.2): 0 if it verifies, 1 otherwise."""
    with open(path, encoding="utf-8") as handle:
        report = eleusis.verify(json.load(handle))
    for line in report.checked:
        print(f"ok: {line}", file=out)
    for line in report.notes:
        print(f"note: {line}", file=out)
    for line in report.problems:
        print(f"PROBLEM: {line}", file=out)
    print("The record verifies." if report.ok else "The record does NOT verify.", file=out)
    return 0 if report.ok else 1


def eleusis_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.play eleusis", description="Play or watch New Eleusis."
    )
    parser.add_argument("--players", type=int, choices=range(3, 11), default=5)
    parser.add_argument("--seed", default="demo", help="the game seed (deals, dealers, rules)")
    parser.add_argument("--seat", type=int, default=1, help="the seat you play (default 1)")
    parser.add_argument("--watch", action="store_true", help="watch bots play every seat")
    parser.add_argument("--bots", choices=sorted(eleusis.META.bots), default="novice")
    parser.add_argument("--rounds", type=int, default=None, help="end after this many rounds")
    parser.add_argument("--hand-size", type=int, default=14)
    parser.add_argument(
        "--difficulty", choices=("easy", "medium", "hard", "expert"), default="easy"
    )
    parser.add_argument("--bot-seed", default=None)
    parser.add_argument(
        "--verify",
        metavar="RECORD.json",
        default=None,
        help="verify an exported record (NE-29.2) instead of playing",
    )
    args = parser.parse_args(argv)
    if args.verify is not None:
        return verify_file(args.verify, sys.stdout)
    if not args.watch and not 0 <= args.seat < args.players:
        parser.error(f"--seat must be 0..{args.players - 1}")
    if args.rounds is not None and not 1 <= args.rounds < args.players:
        parser.error(f"--rounds must be 1..{args.players - 1} (fewer rounds than seats, E05)")
    options: dict[str, Any] = {"hand_size": args.hand_size, "difficulty": args.difficulty}
    if args.rounds is not None:
        options["round_limit"] = args.rounds
    seat = None if args.watch else args.seat
    options["bots"] = [s != seat for s in range(args.players)]
    return run_eleusis(
        players=args.players,
        seed=args.seed,
        seat=seat,
        bots=args.bots,
        bot_seed=args.bot_seed if args.bot_seed is not None else f"bots:{args.seed}",
        options=options,
        read_line=sys.stdin.readline,
        out=sys.stdout,
    )


def run_pax(
    *,
    players: int,
    variant: str,
    seed: str,
    seat: int | None,
    bots: str,
    bot_seed: str,
    round_cap: int | None,
    read_line: Callable[[], str],
    out: TextIO,
) -> int:
    """Play one seat (``seat``) or watch (None) a game of Pax Illuminaten against bots."""
    from engine.pax import text as pax_text
    from engine.pax.game import PaxGame as pax

    bot = pax.META.bots[bots]
    rngs = [random.Random(f"{bot_seed}/seat/{s}") for s in range(players)]
    state = pax.new_game(players, variant, seed, {"round_cap": round_cap})
    print(f"Pax Illuminaten, {players} players, {variant}, seed {seed!r}, bots: {bots}", file=out)
    shown = 0
    while True:
        for entry in pax.view(state, seat)["log"]:
            if entry["seq"] > shown:
                for line in pax_text.describe_entry(entry):
                    print(line, file=out)
                shown = entry["seq"]
        if pax.is_over(state):
            return 0
        actor = pax.to_act(state)
        if actor is None:
            state = pax.advance(state)
        elif actor == seat:
            view = pax.view(state, seat)
            print(pax_text.render_view(view), file=out)
            actions = view["legal_actions"]
            for index, action in enumerate(actions, start=1):
                print(f"  {index}) {pax_text.describe_action(action)}", file=out)
            while True:
                print("Your choice: ", end="", file=out, flush=True)
                line = read_line()
                if not line:
                    print("\nEnd of input: leaving the game.", file=out)
                    return 0
                text = line.strip()
                if text.isdigit() and 1 <= int(text) <= len(actions):
                    state = pax.apply(state, seat, actions[int(text) - 1])
                    break
                print(f"Please answer with a number from 1 to {len(actions)}.", file=out)
        else:
            state = pax.apply(state, actor, bot(pax.view(state, actor), rngs[actor]))


def pax_main(argv: Sequence[str]) -> int:
    from engine.pax.game import PaxGame as pax

    parser = argparse.ArgumentParser(
        prog="python -m engine.play pax", description="Play or watch Pax Illuminaten."
    )
    parser.add_argument("--players", type=int, choices=pax.META.player_counts, default=2)
    parser.add_argument("--variant", choices=pax.META.variants, default="standard")
    parser.add_argument("--seed", default="demo", help="the game seed")
    parser.add_argument("--seat", type=int, default=0, help="the seat you play (default 0)")
    parser.add_argument("--watch", action="store_true", help="watch bots play every seat")
    parser.add_argument("--bots", choices=sorted(pax.META.bots), default="heuristic")
    parser.add_argument("--round-cap", type=int, default=None, help="15.5.3's variant")
    parser.add_argument("--bot-seed", default=None)
    args = parser.parse_args(argv)
    humans = args.players - (args.variant != "standard")
    if not args.watch and not 0 <= args.seat < humans:
        parser.error(f"--seat must be 0..{humans - 1}")
    return run_pax(
        players=args.players,
        variant=args.variant,
        seed=args.seed,
        seat=None if args.watch else args.seat,
        bots=args.bots,
        bot_seed=args.bot_seed if args.bot_seed is not None else f"bots:{args.seed}",
        round_cap=args.round_cap,
        read_line=sys.stdin.readline,
        out=sys.stdout,
    )


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in and args_in[0] == "eleusis":
        return eleusis_main(args_in[1:])
    if args_in and args_in[0] == "pax":
        return pax_main(args_in[1:])
    if args_in and args_in[0] == "indulgence":
        args_in = args_in[1:]
    parser = argparse.ArgumentParser(
        prog="python -m engine.play", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--variant", choices=("basic", "expert"), default="basic")
    parser.add_argument("--seed", default="demo", help="the game seed (deals, first Ruler, edicts)")
    parser.add_argument("--seat", type=int, default=0, help="the seat you play (default 0)")
    parser.add_argument("--watch", action="store_true", help="watch random bots play every seat")
    parser.add_argument(
        "--bot-seed", default=None, help="seed of the bots' choices (default: the game seed)"
    )
    args = parser.parse_args(args_in)
    if not args.watch and not 0 <= args.seat < args.players:
        parser.error(f"--seat must be 0..{args.players - 1}")
    return run(
        players=args.players,
        variant=args.variant,
        seed=args.seed,
        seat=None if args.watch else args.seat,
        bot_seed=args.bot_seed if args.bot_seed is not None else f"bots:{args.seed}",
        read_line=sys.stdin.readline,
        out=sys.stdout,
    )


if __name__ == "__main__":
    raise SystemExit(main())
