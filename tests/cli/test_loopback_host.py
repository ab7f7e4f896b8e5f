"""Hosting from the lobby on a machine with no LAN address (issue: "hosting works with
loopback only, saying that the table is not advertised")."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from netns import child_env, missing_tools, unshare_argv
from test_model import TABLE

from president.cli.terminal import layout
from president.cli.terminal.model import TableModel
from president.cli.ui_text import load_texts

CHILD = Path(__file__).with_name("loopback_child.py")


@pytest.mark.netns
@pytest.mark.skipif(missing_tools() is not None, reason=missing_tools() or "")
def test_a_lobby_table_opens_on_loopback_only_and_says_it_is_not_advertised() -> None:
    result = subprocess.run(unshare_argv([sys.executable, str(CHILD)]), env=child_env(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["unadvertised"] is True and seen["address"].startswith("127.0.0.1:")
    assert seen["guest_seat"] == 0  # the owner has not sat down yet
    assert seen["bye"] == "host_stopping" and seen["left"] == []


def test_the_waiting_room_says_join_by_address() -> None:
    tr, text = load_texts("nl")
    model = TableModel(tr, text)
    model.table = replace(TABLE, started=False, players=("P0", None, None, None))
    model.address, model.unadvertised = "127.0.0.1:4711", True
    shown = "".join(part[1] for part in layout.waiting_fragments(model))
    assert "127.0.0.1:4711" in shown
    assert tr.gettext("Not advertised on the network: others join by this address.") in shown
