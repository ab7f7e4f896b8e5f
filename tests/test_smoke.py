import pytest

from president.cli.main import build_parser


def test_parser_knows_every_command():
    parser = build_parser()
    args = parser.parse_args(["selfplay", "--players", "5"])
    assert args.players == 5 and args.command == "selfplay"


@pytest.mark.parametrize("argv", [
    ["--lang", "pl", "play"], ["play", "--lang", "pl"], ["rules", "--lang", "pl"],
    ["join", "127.0.0.1:4000", "--lang", "pl"],
])
def test_lang_is_accepted_before_or_after_the_subcommand(argv):
    assert build_parser().parse_args(argv).lang == "pl"


def test_lang_defaults_to_none_so_the_saved_setting_decides():
    assert build_parser().parse_args(["play"]).lang is None
