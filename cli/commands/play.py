"""``president play``: a local table against bots, joined at once (full screen or --plain)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from president.cli import netbridge, settings
from president.cli.terminal.app import PresidentUI
from president.cli.text import text_for
from president.errors import RulesError
from president.rules import HouseRules, check_player_count, rules_for

PLAIN_BOT_DELAY = 0.6     # seconds: the plain lines scroll, a reader follows them


def run(args: argparse.Namespace) -> int:
    player, language = settings.for_command(args)
    try:
        preset_name, rules = rules_for(args.preset, getattr(args, "rules", None))
        check_player_count(rules, args.bots + 1)
    except RulesError as error:
        print(f"president play: {text_for(language).error(error)}", file=sys.stderr)
        return 2
    if getattr(args, "plain", False):
        return asyncio.run(_plain(args, player.name, language, preset_name, rules))
    ui = PresidentUI(player, language, bridge=netbridge, save_settings=None)
    return asyncio.run(ui.run(ui.play_bots(args.bots, preset_name, rules, args.seed)))


async def _plain(args: argparse.Namespace, name: str, language: str, preset_name: str,
                 rules: HouseRules) -> int:
    from president.cli.plain import play_plain

    hosted, connection = await netbridge.local_table(
        name, language, bots=args.bots, preset=preset_name, rules=rules, seed=args.seed,
        bot_delay=PLAIN_BOT_DELAY)
    try:
        return await play_plain(connection.client)
    finally:
        await hosted.stop()
