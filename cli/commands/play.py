"""``president play``: a local table against bots, joined at once (full screen or --plain)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from president.cli import netbridge, settings
from president.cli.terminal.app import PresidentUI
from president.rules import PRESETS, load_rules_file


def run(args: argparse.Namespace) -> int:
    if getattr(args, "plain", False):
        from president.cli import plain

        return int(plain.run_play(args) or 0)
    player, language = settings.for_command(args)
    rules = None
    if getattr(args, "rules", None):
        args.preset, rules = load_rules_file(args.rules)
    rules = rules or PRESETS[args.preset]
    if not rules.min_players <= args.bots + 1 <= rules.max_players:
        print(f"president play: --bots {args.bots}: a {args.preset} table seats "
              f"{rules.min_players} to {rules.max_players} players", file=sys.stderr)
        return 2
    ui = PresidentUI(player, language, bridge=netbridge, save_settings=None)
    return asyncio.run(ui.run(ui.play_bots(args.bots, args.preset, rules, args.seed)))
