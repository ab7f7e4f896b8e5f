"""``president selfplay``: a headless session between bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from president.actions import Decree
from president.bots import BOT_KINDS, DEFAULT_BUDGET, Bot, make_bot
from president.engine import apply, end_session, new_session, to_act
from president.errors import PresidentError, RulesError
from president.events import Event
from president.history import HistoryWriter
from president.rules import INTEGER_RANGES, HouseRules, rules_for
from president.seeds import bot_seed
from president.state import Phase, State
from president.view import view


def play_session(
    rules: HouseRules,
    players: Sequence[str],
    seed: int,
    bots: Sequence[Bot],
    on_events: Callable[[list[Event]], None] | None = None,
    stop_after: int | None = None,
) -> State:
    """Play a whole session with one bot per seat; ``on_events`` sees every event batch.
    After ``stop_after`` hands the session ends (``end_session``) if the rules have not
    ended it. A President who may decree is offered the decree alone (the bot's
    ``choose`` decides its text) before anyone is ready for the next deal."""
    state, events = new_session(rules, players, seed)
    if on_events is not None:
        on_events(events)
    while (seat := to_act(state)) is not None:
        if (
            stop_after is not None and state.phase is Phase.HAND_OVER
            and state.hand_number >= stop_after
        ):
            state, events = end_session(state)
        else:
            seen = view(state, seat)
            if state.phase is Phase.HAND_OVER and Decree(seat, "") in seen.legal:
                seen = replace(seen, legal=(Decree(seat, ""),))  # (to_act: the decree first)
            state, events = apply(state, bots[seat].choose(seen))
        if on_events is not None:
            on_events(events)
    return state


HOST_ENDS = ("minutes", "open")  # session ends a host decides: selfplay decides by --hands
DEFAULT_HANDS = 10


def selfplay_rules(args: argparse.Namespace) -> tuple[str, HouseRules, int | None]:
    """The preset (or rules file), and the hands after which selfplay ends the session
    itself (None: the rules end it). ``--hands`` is the session's length where the rules
    end by hands; where they end by a score (target, zero) it is an override that stops
    the session after that many hands at the latest; where the host ends it (minutes,
    open), selfplay ends it after ``--hands`` hands (10 if not given)."""
    hands = INTEGER_RANGES["session_length"]
    if args.hands is not None and args.hands not in hands:
        raise RulesError("bad_value", field="hands", value=args.hands,
                         allowed=[f"{hands.start}..{hands.stop - 1}"])
    preset_name, rules = rules_for(args.preset, args.rules)
    if rules.session_end == "hands":
        if args.hands is not None:
            rules = replace(rules, session_length=args.hands)
        return preset_name, rules, None
    if rules.session_end in HOST_ENDS:
        return preset_name, rules, args.hands or DEFAULT_HANDS
    return preset_name, rules, args.hands


def session_end_note(rules: HouseRules, stop_after: int | None) -> str:
    """How the session ends, in a line: the rules' end, and what ``--hands`` did to it."""
    end = f"session_end = {rules.session_end}"
    if rules.session_end == "hands":
        return f"{end}: {rules.session_length} hands"
    if stop_after is None:
        return f"{end} ({rules.session_length})" if rules.session_end == "target" else end
    if rules.session_end in HOST_ENDS:
        return f"{end}: selfplay ends the session after {stop_after} hands (--hands)"
    return f"{end}, overridden by --hands {stop_after}: ended after {stop_after} hands at most"


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
        preset_name, rules, stop_after = selfplay_rules(args)
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
            state = play_session(rules, players, args.seed, bots, writer.write, stop_after)
    else:
        state = play_session(rules, players, args.seed, bots, stop_after=stop_after)
    print_result(state, preset_name, kinds, args.history)
    print(session_end_note(rules, stop_after))
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
