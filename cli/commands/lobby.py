"""``president`` (or ``president lobby``): the lobby, tables found on the LAN and more."""

from __future__ import annotations

import argparse
import asyncio
import sys

from president.cli import netbridge, settings
from president.cli.terminal.app import PresidentUI


def run(args: argparse.Namespace) -> int:
    player, language = settings.for_command(args)
    if not sys.stdin.isatty():
        print("president: the lobby needs a terminal", file=sys.stderr)
        return 2
    ui = PresidentUI(player, language, bridge=netbridge)
    if settings.first_time(args):
        ui.welcome()
    return asyncio.run(ui.run(None))
