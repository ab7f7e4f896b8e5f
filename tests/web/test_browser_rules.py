"""The page's rules dialog in Chromium: every rule has a value at every preset, in the four
languages, and the value is the terminal's own words (issue 26: twelve rules read
'undefined' at a Classic table)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    HostThread,
    browser_test_marks,
    by_id,
    checked_browser,
    join,
    wait,
)

from president.cli.text import Text
from president.rules import PRESETS

pytestmark = browser_test_marks()
LANGUAGES = ("en", "it", "nl", "pl")


@pytest.fixture
def browser() -> Iterator[Any]:
    with checked_browser() as driver:
        yield driver


def dialog_rules(driver: Any) -> dict[str, str]:
    """field -> the value the dialog shows (its explanation left out)."""
    return dict(driver.execute_script(
        "return [...document.querySelectorAll('#rules-list dd')].map(d =>"
        " [d.dataset.field, d.firstChild ? d.firstChild.textContent : ''])"))


def test_the_rules_dialog_shows_every_rules_value_at_every_preset_in_four_languages(
        browser: Any) -> None:
    from selenium.webdriver.support.ui import Select

    for preset, rules in PRESETS.items():
        host = HostThread(name=f"Rules {preset}", preset=preset, rules=rules)
        try:
            join(browser, host.url, "Ola", "pl", spectate=True)
            by_id(browser, "open-rules").click()
            for language in LANGUAGES:
                Select(by_id(browser, "table-language")).select_by_value(language)
                expected = {row.field: row.value for row in Text(language).rule_rows(rules)}
                wait(lambda e=expected: dialog_rules(browser) == e,
                     what=f"{preset} rules in {language}")
                shown = by_id(browser, "rules-dialog").text
                for word in ("undefined", "null", "rule_value.", "rule_name."):
                    assert word not in shown, (preset, language, word)
            browser.execute_script("document.getElementById('rules-dialog').close()")
        finally:
            host.stop()


def test_rules_open_on_the_rule_a_special_event_just_showed(browser: Any) -> None:
    """After an 8-cut, an 11-back, a suit lock... Rules opens on that rule's explanation,
    marked, as the terminal's ? does (issue 28); so does a tap on the rule's banner."""
    from president.cli.text import RULE_OF_EVENT

    host = HostThread(name="Bots", preset="daihinmin_local",
                      rules=PRESETS["daihinmin_local"], seats=4, bots=4, bot_delay=0.15)
    try:
        join(browser, host.url, "Ola", "it", spectate=True)
        wait(lambda: browser.execute_script(
            "return document.querySelectorAll('#seats li .count').length === 4"),
            what="the game, watched")
        watched = max((number for number, _, _ in host.table.recent), default=0)

        def fired(since: int = 0) -> set[str]:
            return {RULE_OF_EVENT[event.code] for number, event, _ in host.table.recent
                    if event.code in RULE_OF_EVENT and number > since}
        wait(lambda: fired(watched), timeout=60, what="a special rule at work, watched")
        by_id(browser, "open-rules").click()
        marked = wait(lambda: browser.execute_script(
            "return [...document.querySelectorAll('#rules-list dt.fired')]"
            ".map(dt => dt.dataset.field)"), what="the rule marked")
        assert len(marked) == 1 and marked[0] in fired(), (marked, fired())
        # scrolled to: the rule's name is inside the dialog's visible part
        assert browser.execute_script(
            "const dialog = document.getElementById('rules-dialog').getBoundingClientRect();"
            " const row = document.querySelector('#rules-list dt.fired').getBoundingClientRect();"
            " return row.top >= dialog.top && row.bottom <= dialog.bottom;")
        name = Text("it").rule_name(marked[0])
        assert by_id(browser, "rules-dialog").text.count(name) >= 1
    finally:
        host.stop()
