"""``president play``: a local table against bots, joined at once (full screen or --plain)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable

from president.bots import DEFAULT_BUDGET, DEFAULT_LEVEL, bot_levels
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
        levels = bot_levels(str(args.bots), getattr(args, "level", DEFAULT_LEVEL))
        check_player_count(rules, len(levels) + 1)
    except RulesError as error:
        print(f"president play: {text_for(language).error(error)}", file=sys.stderr)
        return 2
    if getattr(args, "plain", False):
        if settings.first_time(args) and sys.stdin.isatty():
            player.name = _ask_name(language) or player.name
        return asyncio.run(_plain(args, player.name, language, preset_name, rules, levels))
    ui = PresidentUI(player, language, bridge=netbridge, save_settings=None)
    budget = getattr(args, "bot_budget", DEFAULT_BUDGET * 1000) / 1000

    def game() -> Awaitable[None]:
        return ui.play_bots(len(levels), preset_name, rules, args.seed, levels=levels,
                            bot_budget=budget)

    if settings.first_time(args):   # the name first, once (not the login name)
        ui.welcome(game)
        return asyncio.run(ui.run(None))
    return asyncio.run(ui.run(game()))


def _ask_name(language: str) -> str:
    """The plain interface's first question: the player's name, kept for next time."""
    try:
        name = input(text_for(language).tr.gettext("Welcome! Your name:") + " ").strip()
    except EOFError:
        return ""
    name = name[:settings.NAME_MAX]
    if name:
        settings.remember_name(name)
    return name


async def _plain(args: argparse.Namespace, name: str, language: str, preset_name: str,
                 rules: HouseRules, levels: tuple[str, ...]) -> int:
    from president.cli.plain import play_plain

    hosted, connection = await netbridge.local_table(
        name, language, bots=len(levels), preset=preset_name, rules=rules, seed=args.seed,
        bot_delay=PLAIN_BOT_DELAY, levels=levels,
        bot_budget=getattr(args, "bot_budget", DEFAULT_BUDGET * 1000) / 1000)
    try:
        return await play_plain(connection.client)
    finally:
        await hosted.stop()
