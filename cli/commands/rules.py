"""``president rules --preset P [--rules FILE] [--lang L]``: the active rules, in words."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import fields
from typing import TextIO

from president.cli.i18n import choose_language, get_translator
from president.cli.text import Text
from president.errors import RulesError
from president.roles import Role
from president.rules import HouseRules, rules_for


def saved_language() -> str | None:
    """The language remembered in the player's settings, if any."""
    try:
        from president.cli import settings
    except ImportError:
        return None
    return settings.load().language


def describe(rules: HouseRules, preset_name: str, text: Text) -> list[str]:
    """Every house rule with its value and a one-line explanation."""
    tr = text.tr
    lines = [
        tr.gettext("House rules: {preset}").format(preset=text.preset_name(preset_name)),
        tr.gettext("Players: {low} to {high}").format(
            low=text.number(rules.min_players), high=text.number(rules.max_players)),
        "",
    ]
    for field in fields(rules):
        value = getattr(rules, field.name)
        if field.name == "session_length":
            shown = text.session_length(rules.session_end, value)
        else:
            shown = text.rule_value(field.name, value)
        lines.append(tr.gettext("{rule}: {value}").format(
            rule=text.rule_name(field.name), value=shown))
        lines.append("    " + text.rule_explanation(field.name))
    titles = [text.role_title(role, rules.title_set) for role in Role]
    lines += ["", tr.gettext("Role titles, best to worst: {titles}").format(
        titles=", ".join(dict.fromkeys(titles)))]
    return lines


def run(args: argparse.Namespace, out: TextIO | None = None,
        environ: dict[str, str] | None = None) -> int:
    out = out or sys.stdout
    cli_lang = getattr(args, "rules_lang", None) or getattr(args, "lang", None)
    env = dict(os.environ) if environ is None else environ
    saved = None if cli_lang else saved_language()
    text = Text(get_translator(choose_language(cli_lang, saved, env)))
    try:
        preset_name, rules = rules_for(args.preset, getattr(args, "rules", None))
    except RulesError as error:
        print(text.tr.gettext("These rules cannot be used: {detail}").format(
            detail=text.rules_error(error)), file=sys.stderr)
        return 2
    print("\n".join(describe(rules, preset_name, text)), file=out)
    return 0
