"""``president`` (or ``president lobby``): the lobby, tables found on the LAN and more."""

from __future__ import annotations

import argparse
import asyncio
import sys

from president.cli import netbridge, settings
from president.cli.terminal.app import PresidentUI
from president.cli.terminal.model import LineEdit


def run(args: argparse.Namespace) -> int:
    player, language = settings.for_command(args)
    if not sys.stdin.isatty():
        print("president: the lobby needs a terminal", file=sys.stderr)
        return 2
    ui = PresidentUI(player, language, bridge=netbridge)
    if not settings.load().name and not getattr(args, "name", None):
        # first run: ask for the name the other players will see
        ui.edit(LineEdit(ui.tr.gettext("Welcome! Your name:"), player.name, ui.set_name,
                         max_length=settings.NAME_MAX))
    return asyncio.run(ui.run(None))
