"""``president selfplay``: a headless session between bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from president.actions import Decree
from president.bots import BOT_KINDS, DEFAULT_BUDGET, Bot, make_bot
from president.engine import apply, legal_actions, new_session
from president.errors import PresidentError, RulesError
from president.events import Event
from president.history import HistoryWriter
from president.rules import INTEGER_RANGES, HouseRules, rules_for
from president.seeds import bot_seed
from president.state import Phase, State
from president.view import view


def next_actor(state: State) -> int | None:
    """The first seat (by seat number) that has something other than a decree to do."""
    # Look first where the phase says the actor must be (a fast path), then everywhere.
    if state.phase is Phase.PLAY and state.turn is not None:
        likely: Sequence[int] = (state.turn,)
    elif state.phase is Phase.TAX:
        likely = sorted(due.receiver for due in state.tax_due)
    else:
        likely = ()
    for seats in (likely, state.seats):
        for seat in seats:
            if any(not isinstance(action, Decree) for action in legal_actions(state, seat)):
                return seat
    return None


def play_session(
    rules: HouseRules,
    players: Sequence[str],
    seed: int,
    bots: Sequence[Bot],
    on_events: Callable[[list[Event]], None] | None = None,
) -> State:
    """Play a whole session with one bot per seat; ``on_events`` sees every event batch."""
    state, events = new_session(rules, players, seed)
    if on_events is not None:
        on_events(events)
    while state.phase is not Phase.SESSION_OVER:
        seat = next_actor(state)
        if seat is None:  # only for session_end = minutes/open: selfplay never uses them
            raise RuntimeError("no seat can act")
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        if on_events is not None:
            on_events(events)
    return state


def selfplay_rules(args: argparse.Namespace) -> tuple[str, HouseRules]:
    """The preset (or rules file), played for exactly ``--hands`` hands."""
    hands = INTEGER_RANGES["session_length"]
    if args.hands not in hands:
        raise RulesError("bad_value", field="hands", value=args.hands,
                         allowed=[f"{hands.start}..{hands.stop - 1}"])
    preset_name, rules = rules_for(args.preset, args.rules)
    return preset_name, replace(rules, session_end="hands", session_length=args.hands)


def bot_kinds(spec: str, players: int) -> list[str]:
    """The ``--bots`` list cycled over the seats; KeyError names an unknown bot."""
    kinds = [kind.strip() for kind in spec.split(",")]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise KeyError(kind)
    return [kinds[seat % len(kinds)] for seat in range(players)]


def describe_error(error: PresidentError) -> str:
    details = " ".join(f"{key}={value!r}" for key, value in error.params.items())
    return f"{error.code} {details}".strip()


def run(args: argparse.Namespace) -> int:
    try:
        preset_name, rules = selfplay_rules(args)
    except RulesError as error:
        print(f"president selfplay: bad rules: {describe_error(error)}", file=sys.stderr)
        return 2
    try:
        kinds = bot_kinds(args.bots, max(args.players, 0))
    except KeyError as error:
        print(
            f"president selfplay: unknown bot {error.args[0]!r} "
            f"(known: {', '.join(sorted(BOT_KINDS))})",
            file=sys.stderr,
        )
        return 2
    players = [f"{kind.capitalize()} {seat + 1}" for seat, kind in enumerate(kinds)]
    budget = getattr(args, "bot_budget", DEFAULT_BUDGET * 1000) / 1000
    bots = [make_bot(kind, bot_seed(args.seed, seat), budget=budget)
            for seat, kind in enumerate(kinds)]
    try:
        new_session(rules, players, args.seed)  # checks the player count before any output
    except RulesError as error:
        print(f"president selfplay: bad rules: {describe_error(error)}", file=sys.stderr)
        return 2
    if args.history:
        try:
            out = open(args.history, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        except OSError as error:
            print(f"president selfplay: cannot write {args.history}: {error.strerror}",
                  file=sys.stderr)
            return 2
        with out:
            writer = HistoryWriter(out, rules, preset_name, players, args.seed)
            state = play_session(rules, players, args.seed, bots, writer.write)
    else:
        state = play_session(rules, players, args.seed, bots)
    print_result(state, preset_name, kinds, args.history)
    return 0


def print_result(
    state: State, preset_name: str, kinds: Sequence[str], history: str | None
) -> None:
    print(f"selfplay: {len(state.players)} players, preset {preset_name}, "
          f"{state.hand_number} hands, seed {state.seed}")
    width = max(len(name) for name in state.players)
    print(f"  {'seat':>4}  {'name':<{width}}  {'bot':<10} {'score':>6} {'presidencies':>12}")
    for seat, name in enumerate(state.players):
        print(f"  {seat:>4}  {name:<{width}}  {kinds[seat]:<10} {state.scores[seat]:>6} "
              f"{state.presidencies[seat]:>12}")
    winners = ", ".join(f"{state.players[seat]} (seat {seat})" for seat in state.winners)
    print(f"winners: {winners}")
    if history:
        print(f"history: {history}")
