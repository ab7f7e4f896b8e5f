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


def test_printing_into_a_closed_pipe_ends_quietly() -> None:
    """`president rules | head -1`: no BrokenPipeError traceback, whenever the reader
    goes (here before the first line is written)."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)                          # the reader is gone already
    try:
        result = subprocess.run([sys.executable, "-m", "president", "rules", "--preset", "bga"],
                                stdout=write_end, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write_end)
    error = result.stderr.decode()
    assert "Traceback" not in error and "BrokenPipe" not in error, error
    assert result.returncode == 141


def test_the_lobby_does_not_import_the_web_server() -> None:
    """`president` draws the lobby sooner: aiohttp (a tenth of a second to import) comes
    only with a table that serves the page."""
    import subprocess
    import sys

    code = ("import sys, president.cli.commands.lobby, president.cli.hosting; "
            "print('aiohttp' in sys.modules, 'president.net.web' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_the_packages_import_from_a_checkout_without_an_install() -> None:
    """``import president.net`` (and ``.cli``) from the repository's folders alone: no
    site-packages (``-S``), so no installed mapping helps."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import president.net, president.cli; "
            "print(president.net.__file__); print(president.cli.__file__)")
    done = subprocess.run([sys.executable, "-S", "-c", code, str(root)], capture_output=True,
                          text=True, cwd=root.parent, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(root / "net" / "__init__.py"),
                                   str(root / "cli" / "__init__.py")]
