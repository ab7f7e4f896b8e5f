"""Text that fits the screen: widths in terminal cells, words wrapped whole, cells
abbreviated with "…" instead of cut, and a control that knows the size it is drawn at."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from prompt_toolkit.layout.controls import FormattedTextControl, UIContent
from prompt_toolkit.utils import get_cwidth

ELLIPSIS = "…"
COLUMN = re.compile(r"^(\s*\S.*?\s{3,})\S")   # a line laid out in two columns
# The space before a word of suit symbols alone ("every play must be in ♥♠."): the
# symbols stay with the word before them rather than open a line by themselves.
BEFORE_SUITS = re.compile(r" (?=[♣♦♥♠]+[.,;:!?)]*(?: |$))")
GLUE = "\ue000"  # (a private-use character: no text of ours holds it)


def width_of(text: str) -> int:
    return get_cwidth(text)


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: whole, or cut at a cell and marked "…"."""
    if width_of(text) <= width:
        return text
    if width <= 0:
        return ""
    out = ""
    for char in text:
        if width_of(out + char) > width - 1:
            break
        out += char
    return out.rstrip() + ELLIPSIS


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` shortened to ``width`` cells and padded to exactly that width."""
    text = shorten(text, width)
    gap = " " * (width - width_of(text))
    return gap + text if right else text + gap


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` cells; each line of
    ``text`` keeps its indentation on its continuation lines; empty lines stay."""
    out: list[str] = []
    for line in text.split("\n"):
        if width_of(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        column = COLUMN.match(line)      # "  key      what it does": under "what"
        if column and len(column.group(1)) <= width // 2:
            indent = " " * len(column.group(1))
        if len(indent) > width // 2:
            indent = ""
        glued = BEFORE_SUITS.sub(GLUE, line)
        out.extend(part.replace(GLUE, " ") for part in textwrap.wrap(
            glued, max(1, width), subsequent_indent=indent, break_on_hyphens=False) or [""])
    return [shorten(line, width) for line in out]


class Viewport:
    """The cells a control was last given (set just before its text is asked for)."""

    def __init__(self) -> None:
        self.width = 80
        self.height = 24


class SizedControl(FormattedTextControl):
    """A ``FormattedTextControl`` whose text function reads ``viewport``: the width and
    height of the window it is being drawn into, so it can wrap and scroll itself."""

    def __init__(self, text: Callable[[Viewport], Any], **kwargs: Any) -> None:
        self.viewport = Viewport()
        super().__init__(lambda: text(self.viewport), **kwargs)

    def create_content(self, width: int, height: int | None) -> UIContent:
        self.viewport.width, self.viewport.height = width, height or self.viewport.height
        self._fragment_cache.clear()
        return super().create_content(width, height)


def columns_table(rows: Sequence[Sequence[str]], width: int, right: Sequence[bool],
                  shrink: Sequence[tuple[int, int]], gap: str = " ") -> list[str]:
    """Rows of cells as aligned columns sized to their content, at most ``width`` cells
    wide: when too wide, the columns in ``shrink`` (column index, least width; the first
    given up first) are narrowed, their cells abbreviated with "…"."""
    count = max((len(row) for row in rows), default=0)
    widths = [max((width_of(row[i]) for row in rows if i < len(row)), default=0)
              for i in range(count)]
    # an empty column takes no gap
    total = sum(widths) + len(gap) * (sum(1 for w in widths if w) - 1)
    for index, least in shrink:
        excess = total - width
        if excess <= 0:
            break
        cut = min(excess, max(0, widths[index] - least))
        widths[index] -= cut
        total -= cut
    out = []
    for row in rows:
        cells = [pad(row[i] if i < len(row) else "", widths[i], right[i])
                 for i in range(count) if widths[i]]
        out.append(shorten(gap.join(cells).rstrip(), width))
    return out
