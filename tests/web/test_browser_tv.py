"""The TV view (/tv) in Chromium at 1920x1080 against a running bot table: the seats with
their titles, card counts and scores, the pile, then the standings, all in the language
asked for, with nothing to click; after the host restarts on the same port it follows the
new table by itself."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    HostThread,
    browser_test_marks,
    checked_browser,
    text_of,
    wait,
)

from president.cli.text import Text
from president.rules import preset

pytestmark = browser_test_marks()
TV = {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False}


@pytest.fixture
def browser() -> Iterator[Any]:
    with checked_browser(allowed="tv.json") as driver:  # (the host's restart, by design)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TV)
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        yield driver


def seats(driver: Any) -> list[str]:
    return list(driver.execute_script(
        "return [...document.querySelectorAll('#tv-seats li')].map(li => li.textContent)"))


def test_the_tv_view_follows_a_bot_table_and_comes_back_after_a_restart(browser: Any) -> None:
    rules = dataclasses.replace(preset("classic"), session_length=1)
    host = HostThread(name="Salotto", seats=4, bots=4, rules=rules, bot_delay=0.25, seed=3)
    italian = Text("it")
    try:
        browser.get(f"{host.url}tv?lang=it")
        # the seats, as the terminal words them, and whose turn it is
        wait(lambda: len(seats(browser)) == 4 and host.table.started, what="four seats")
        wait(lambda: any(italian.count("cards", 13) in seat for seat in seats(browser))
             or "▶" in "".join(seats(browser)), what="the counts")
        wait(lambda: browser.execute_script(
            "return document.querySelectorAll('#tv-pile .card').length > 0"), what="a play")
        assert italian.phase("play") in text_of(browser, "tv-heading")
        # a 720p television (or a laptop's window): the same view, smaller, nothing cut
        # (at 1280x720 the seats' names read "B…" and the pile's cards spilled out)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {**TV, "width": 1280, "height": 720})
        wait(lambda: browser.execute_script("""
            const cut = (e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight;
            const pile = document.getElementById('tv-pile').getBoundingClientRect();
            return ![...document.querySelectorAll('#tv-seats .name')].some(cut)
              && [...document.querySelectorAll('#tv-pile .card')].every((card) => {
                   const box = card.getBoundingClientRect();
                   return box.top >= pile.top && box.bottom <= pile.bottom; })"""),
             timeout=5, what="whole names and the pile's cards inside it at 1280x720")
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TV)
        assert browser.execute_script("return document.getElementById('tv-qr').naturalWidth") > 0
        assert host.url in text_of(browser, "tv-url")
        assert italian.rule_name("tax") in text_of(browser, "tv-rules")
        # the end of the session: the standings, as the terminal shows them
        wait(lambda: host.table.state is not None
             and host.table.state.phase.value == "session_over", timeout=120, what="the end")
        state = host.table.state
        lines = [line for _, line in italian.standings(state.players, state.scores,
                                                       state.winners)]
        wait(lambda: all(line in text_of(browser, "tv-summary") for line in lines),
             what=f"the standings {lines}")
        # the host restarts (same web port): the TV says it lost it, then follows again
        port = host.web_port
        host.stop()
        wait(lambda: browser.find_element("id", "tv-offline").is_displayed(), what="offline")
        host = HostThread(name="Cucina", seats=4, bots=4, rules=rules, bot_delay=0.25,
                          web_port=port)
        wait(lambda: "Cucina" in text_of(browser, "tv-heading"), what="the new table")
        wait(lambda: not browser.find_element("id", "tv-offline").is_displayed(),
             what="back online")
    finally:
        host.stop()
