"""``president learn``: Learn to play, a guided hand against two bots (``cli.lesson``)."""

from __future__ import annotations

import argparse
import asyncio

from president.cli import netbridge, settings
from president.cli.terminal.app import PresidentUI


def run(args: argparse.Namespace) -> int:
    player, language = settings.for_command(args)
    ui = PresidentUI(player, language, bridge=netbridge, save_settings=None)
    return asyncio.run(ui.run(ui.learn()))
