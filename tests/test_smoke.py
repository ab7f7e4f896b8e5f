import importlib

import pytest

from president.cli.main import COMMANDS, build_parser


def test_every_subcommand_parses_and_names_a_function_that_exists():
    parser = build_parser()
    for command, target in COMMANDS.items():
        if command == "lobby":  # no subcommand at all: `president` opens the lobby
            assert parser.parse_args([]).command is None
        else:
            argv = [command, *{"join": ["127.0.0.1:1"], "replay": ["h.jsonl"]}.get(command, [])]
            assert parser.parse_args(argv).command == command
        module_name, function_name = target.split(":")
        assert callable(getattr(importlib.import_module(module_name), function_name)), target


@pytest.mark.parametrize("argv", [
    ["--lang", "pl", "play"], ["play", "--lang", "pl"], ["rules", "--lang", "pl"],
    ["join", "127.0.0.1:4000", "--lang", "pl"],
])
def test_lang_is_accepted_before_or_after_the_subcommand(argv):
    assert build_parser().parse_args(argv).lang == "pl"


def test_lang_defaults_to_none_so_the_saved_setting_decides():
    assert build_parser().parse_args(["play"]).lang is None
