"""The page's QR code in the waiting room at 80x24: beside the waiting lines when it
fits, else one key (u) shows it alone; nothing is cut either way."""

from __future__ import annotations

from dataclasses import replace

import pytest
from screens import make_ui, moments, render, table_info

from president.cli.terminal.model import TableModel
from president.net.session import Joined

FINDER = "█▀▀▀▀▀█"   # the top of a QR code's corner square


def waiting_room(language: str, seats: int) -> tuple[object, TableModel]:
    ui = make_ui(language, 80, 24)
    state = moments(seats)["play"].state
    players = ("Tester", "Anna", *[None] * (seats - 2))
    info = replace(table_info(state), started=False, players=players)
    model = TableModel(ui.tr, ui.text)
    model.owner = True
    model.address, model.web_url = "192.168.1.20:41234", "http://192.168.1.20:41235/"
    model.on_event(Joined(seat=0, table=info, host_key="ab" * 32))
    ui.table = model
    ui._containers.pop("table", None)
    ui.show("table")
    return ui, model


@pytest.mark.parametrize("language", ["it", "nl", "pl", "en"])
def test_the_qr_code_shows_beside_the_waiting_room_at_80x24(language: str) -> None:
    ui, model = waiting_room(language, 4)
    shown = render(ui)
    assert not shown.overflows, shown.overflows
    assert sum(FINDER in row for row in shown.rows) == 2      # the two top corners
    assert "http://192.168.1.20:41235/" in shown.text
    assert ui.tr.gettext("Press o to change the rules.") in shown.text.replace("\n", " ")
    assert ui.tr.gettext("u QR code") not in shown.rows[-1]


@pytest.mark.parametrize("language", ["it", "nl", "pl", "en"])
def test_without_room_u_shows_the_qr_code_alone(language: str) -> None:
    ui, model = waiting_room(language, 8)
    shown = render(ui)
    assert not shown.overflows, shown.overflows
    assert FINDER not in shown.text
    assert ui.tr.gettext("u QR code") in shown.rows[-1]
    model.qr_open = True                                      # the key u
    alone = render(ui)
    assert not alone.overflows, alone.overflows
    assert sum(FINDER in row for row in alone.rows) == 2
    assert ui.tr.gettext("u: back") in alone.text
