"""``president join [HOST:PORT]``: join a table by address (asked for when not given)."""

from __future__ import annotations

import argparse
import asyncio

from president.cli import netbridge, settings
from president.cli.terminal.app import PresidentUI


def run(args: argparse.Namespace) -> int:
    player, language = settings.for_command(args)
    ui = PresidentUI(player, language, bridge=netbridge, save_settings=None)

    async def join() -> None:
        if args.address:
            await ui.join_address(args.address, args.pin, spectate=args.spectate,
                                  host_key=args.key)
        else:
            ui.ask_address()

    if settings.first_time(args):   # the name first, once
        ui.welcome(join)
        return asyncio.run(ui.run(None))
    return asyncio.run(ui.run(join()))
