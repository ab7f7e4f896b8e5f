"""The ``president`` command: one parser, each subcommand run by its own module."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from president.bots import BOT_KINDS, DEFAULT_BUDGET, DEFAULT_LEVEL
from president.cli.pins import add_pin_arguments, pin_of
from president.errors import ClientError
from president.rules import PRESETS

BUDGET_MS = DEFAULT_BUDGET * 1000

# subcommand -> "module:function" (president.cli.commands): the function takes the
# parsed arguments and returns the process exit code.
COMMANDS = {
    name: f"president.cli.commands.{name}:run"
    for name in ("selfplay", "rules", "replay", "host", "play", "join", "lobby", "history",
                 "learn")
}


def build_parser() -> argparse.ArgumentParser:
    lang_help = "it, nl, pl or en (default: the saved setting, then the locale)"
    parser = argparse.ArgumentParser(prog="president", description="President at the party")
    parser.add_argument("--lang", help=lang_help)
    # --lang is accepted after the subcommand too ("president play --lang it").
    with_lang = argparse.ArgumentParser(add_help=False)
    with_lang.add_argument("--lang", default=argparse.SUPPRESS, help=lang_help)
    sub = parser.add_subparsers(dest="command", parser_class=_subparser(with_lang))

    selfplay = sub.add_parser("selfplay", help="a headless session between bots")
    selfplay.add_argument("--players", type=int, default=4)
    selfplay.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    selfplay.add_argument("--rules", metavar="FILE", help="a TOML rules file (preset + overrides)")
    selfplay.add_argument(
        "--hands", type=int, default=None,
        help="the session's length where the rules end by hands; where they end by a "
             "score (target, zero) it overrides: ended after that many hands at the latest; "
             "for minutes/open sessions selfplay ends after it (default 10)")
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--history", metavar="FILE", help="write the hand history (JSON Lines)")
    selfplay.add_argument("--bots", default="random",
                          help="comma list cycled over the seats: easy,medium,hard,random,...")
    selfplay.add_argument("--bot-budget", type=float, default=BUDGET_MS, metavar="MS",
                          help="CPU milliseconds a hard bot may think per move")

    rules = sub.add_parser("rules", help="print a table's rules")
    rules.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    rules.add_argument("--rules", metavar="FILE", help="a TOML rules file")

    replay = sub.add_parser("replay", help="check a hand history and summarise each hand")
    replay.add_argument("file")

    host = sub.add_parser("host", help="host a table on the LAN (headless)")
    host.add_argument("--name", default="President")
    host.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    host.add_argument("--rules", metavar="FILE")
    host.add_argument("--players", type=int, default=4, help="seats at the table")
    host.add_argument("--bots", default="0",
                      help="seats filled with bots: a number, or their levels (easy,hard)")
    host.add_argument("--level", default=DEFAULT_LEVEL, choices=sorted(BOT_KINDS),
                      help="the table's bot level: counted bots and stand-ins")
    host.add_argument("--bot-budget", type=float, default=BUDGET_MS, metavar="MS",
                      help="CPU milliseconds a hard bot may think per move")
    host.add_argument("--port", type=int, default=0)
    host.add_argument("--web-port", type=int, default=0,
                      help="port of the page for phones and browsers (0: 8026 if free, "
                           "else any free port)")
    host.add_argument("--no-web", action="store_true", help="do not serve the web page")
    add_pin_arguments(host)
    host.add_argument("--interface", action="append", default=None,
                      help="address to listen on and advertise (repeatable)")
    host.add_argument("--seed", type=int, default=None)
    host.add_argument("--no-advertise", action="store_true")
    host.add_argument("--turn-timer", type=float, default=0.0, help="seconds; 0 = none")
    host.add_argument("--no-hints", action="store_true",
                      help="players may not ask for a hint (h, the page's Hint button)")
    host.add_argument("--timer-action", choices=["bot", "pass"], default="bot",
                      help="what happens when the turn timer runs out")
    host.add_argument("--grace", type=float, default=30.0,
                      help="seconds before a bot plays for a disconnected seat")
    host.add_argument("--play-again", type=float, default=0.0, metavar="SECONDS",
                      help="seconds a finished session waits for the table's owner (who "
                           "opened it from the lobby) to play again; 0 = close at once")
    host.add_argument("--ready-timeout", type=float, default=30.0,
                      help="seconds between hands before everyone is made ready; 0 = wait")
    host.add_argument("--bot-delay", type=float, default=0.8,
                      help="seconds a bot waits before it moves (so people can follow)")
    host.add_argument("--late-arrivals", choices=["take", "ask", "never"], default="take",
                      help="a newcomer to a started table takes a bot's seat from the next "
                           "hand (take), once the owner says yes (ask), or may only watch")
    host.add_argument("--journal", metavar="FILE", default=None)
    host.add_argument("--no-journal", action="store_true")
    host.add_argument("--resume", nargs="?", const="last", default=None, metavar="SESSION",
                      help="resume the unfinished sessions of the last evening (or only "
                           "SESSION; 'all': every unfinished one)")
    host.add_argument("--ready-file", metavar="FILE", default=None,
                      help="write where the table listens (JSON) once it is open")

    sub.add_parser("learn", help="learn to play: a guided hand against two bots")
    play = sub.add_parser("play", help="a local table against bots, joined at once")
    play.add_argument("--bots", default="3",
                      help="how many bots, or their levels (easy,medium,hard)")
    play.add_argument("--level", default=DEFAULT_LEVEL, choices=sorted(BOT_KINDS),
                      help="the level of bots given by number")
    play.add_argument("--bot-budget", type=float, default=BUDGET_MS, metavar="MS",
                      help="CPU milliseconds a hard bot may think per move")
    play.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    play.add_argument("--rules", metavar="FILE")
    play.add_argument("--name", default=None)
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--plain", action="store_true", help="a plain line interface")

    join = sub.add_parser("join", help="join a table by address")
    join.add_argument("address", nargs="?", help="HOST:PORT")
    join.add_argument("--name", default=None)
    add_pin_arguments(join)
    join.add_argument("--key", default=None,
                      help="the host key the host prints (e.g. 3F2A-91BC-07DE-55A1): another "
                           "is refused before the PIN is tried")
    join.add_argument("--spectate", action="store_true")

    history = sub.add_parser("history", help="sessions kept by the host")
    history.add_argument("action", nargs="?", choices=["list", "export", "evening"],
                         default="list",
                         help="list the sessions, export one, or tell the last evening's story")
    history.add_argument("id", nargs="?")
    history.add_argument("--journal", metavar="FILE", default=None)
    history.add_argument("--output", metavar="FILE", default=None)
    return parser


def _subparser(parent: argparse.ArgumentParser) -> type[argparse.ArgumentParser]:
    class Subparser(argparse.ArgumentParser):
        def __init__(self, **kwargs: object) -> None:
            kwargs.setdefault("parents", [parent])
            super().__init__(**kwargs)  # type: ignore[arg-type]

    return Subparser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command = args.command or "lobby"
    module_name, function_name = COMMANDS[command].split(":")
    module = importlib.import_module(module_name)
    if hasattr(args, "pin_file"):  # never the PIN itself on the command line
        try:
            args.pin = pin_of(args)
        except ClientError as error:
            from president.cli.settings import language_of
            from president.cli.text import text_for

            print(text_for(language_of(args)).error(error), file=sys.stderr)
            return 2
    try:
        return int(getattr(module, function_name)(args) or 0)
    except BrokenPipeError:
        # `president rules | head`: the reader has all it wanted. Quietly, as a pipe
        # expects (Python would also complain when it flushes stdout at exit).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command a pipe cut short


if __name__ == "__main__":
    sys.exit(main())
