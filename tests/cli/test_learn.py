"""Learn to play (issue 28): the guided hand, played to its end through pipe input in each
language: leading, following, passing, a clear, going out, the roles and the tax, each
step waiting for its move; then the rest of the session."""

from __future__ import annotations

import pytest

from president.actions import Play
from president.cli.lesson import DONE, NOT_THIS_STEP, STEPS
from president.cli.text import Text
from president.cli.ui_text import load_texts

LANGUAGES = ("en", "it", "nl", "pl")


def start(ui):
    ui.lesson_options = {"bot_delay": 0.0}
    return ui.learn()


# (English in the fast loop; the other languages with the slow tests)
@pytest.mark.parametrize("language", [pytest.param(language, marks=() if language == "en" else
                                                     pytest.mark.slow) for language in LANGUAGES])
def test_the_lesson_is_played_to_its_end(run_ui, language: str) -> None:
    seen: dict[str, object] = {"screens": []}
    tr, text = load_texts(language)

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table, lesson = ui.table, ui.connection

        async def step(number: int) -> None:
            await d.until(lambda: lesson.step == number and not table.busy
                          and lesson.task is None or (lesson.step == number
                                                      and lesson.task.done()),
                          f"step {number + 1}")
            seen["screens"].append(await d.rendered())   # type: ignore[union-attr]
            seen.setdefault("lines", []).append(lesson.lesson_line())  # type: ignore[union-attr]

        await step(0)
        d.keys("9\r")                                   # not what the step asks
        await d.until(lambda: table.message, "the refusal")
        seen["refused"] = table.message
        d.keys("c4\r")                                  # lead the pair of 4s
        await step(1)
        d.keys("p")                                     # no higher pair: pass
        await step(2)
        d.keys("9\r")                                   # beat Bob's 3
        await step(3)
        d.keys(text.rank("K").lower() + "\r")           # beat Ann's jack with the king
        await step(4)
        d.keys("2\r")                                   # go out on the last card
        await step(5)
        await d.until(lambda: table.phase == "hand_over", "the hand's end")
        seen["screens"].append(await d.rendered())      # type: ignore[union-attr]
        d.keys("\r")                                    # ready: the roles
        await d.until(lambda: table.phase == "tax" and lesson.step == 6, "the tax")
        seen["screens"].append(await d.rendered())      # type: ignore[union-attr]
        d.keys("l")
        await d.until(lambda: table.selected, "the lowest cards")
        d.keys("\r")                                    # give them back
        await d.until(lambda: lesson.step == len(STEPS), "the lesson's end")
        seen["screens"].append(await d.rendered())      # type: ignore[union-attr]
        while table.phase != "session_over":            # the hand is the player's now
            await d.until(lambda: (table.my_turn and not table.busy)
                          or table.phase == "session_over", "my turn")
            if table.phase == "session_over":
                break
            before = table.view
            if table.legal_of(Play):
                d.keys("l")
                await d.until(lambda: table.selected, "a selection")
                d.keys("l")
            else:
                d.keys("p")
            await d.until(lambda b=before: table.view is not b, "the table to move on")
        seen["over"] = await d.rendered()

    run_ui(scenario, language=language, start=start)
    screens = [str(s) for s in seen["screens"]]  # type: ignore[union-attr]
    assert seen["refused"] == Text(language).reason(NOT_THIS_STEP)
    lines = [str(line) for line in seen["lines"]]  # type: ignore[union-attr]
    for number, (screen, line) in enumerate(zip(screens[:5], lines[:5], strict=True)):
        assert line.startswith(tr.gettext(STEPS[number].text)[:8])
        shown = " ".join(screen.split())
        assert line[:30] in shown and line[-25:] in shown, (number, line, screen)
    lesson_lines = " ".join(screens[-1].split())
    assert tr.gettext(DONE)[:30] in lesson_lines, screens[-1]
    for screen in [*screens, str(seen["over"])]:
        assert all(len(line) <= 80 for line in screen.splitlines())
    assert text.phase("session_over") in str(seen["over"])
