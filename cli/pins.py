"""The PIN given to ``president host`` or ``president join``: never on the command line.

A command line is readable by every local user (the process list), so ``--pin`` takes no
value: ``--pin`` alone asks for the PIN (not echoed), ``--pin-file FILE`` reads it from a
file's first line, ``$PRESIDENT_PIN`` gives it in the environment. ``--pin 1234`` (as
before) is refused with ``pin_on_command_line``, which says how to give it now.
"""

from __future__ import annotations

import argparse
import getpass
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from president.errors import ClientError

ENV_PIN = "PRESIDENT_PIN"
ASK = "\0ask"               # ``--pin`` alone: ask for it


def add_pin_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pin", nargs="?", const=ASK, default=None, metavar="",
                        help=f"ask for the table's PIN (or ${ENV_PIN}, or --pin-file)")
    parser.add_argument("--pin-file", default=None, metavar="FILE",
                        help="read the table's PIN from the first line of FILE")


def pin_of(args: argparse.Namespace, environ: Mapping[str, str] = os.environ,
           ask: Callable[[str], str] = getpass.getpass) -> str | None:
    """The PIN the command was given, or None. ``ClientError`` (pin_on_command_line) for
    a PIN written after ``--pin``; (pin_file, params ``file``) for a file that cannot be
    read."""
    given = getattr(args, "pin", None)
    if given is not None and given != ASK:
        raise ClientError("pin_on_command_line")
    if given == ASK:
        return ask("PIN: ").strip() or None
    if getattr(args, "pin_file", None):
        try:
            lines = Path(args.pin_file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            raise ClientError("pin_file", file=args.pin_file) from None
        return (lines[0].strip() if lines else "") or None
    return environ.get(ENV_PIN) or None
