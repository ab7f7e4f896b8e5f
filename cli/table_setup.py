"""What the host's set-up screen chose (``TableSetup``), and the last one remembered for
the next table of the evening: seats, bots, their levels, the PIN and the rules.

Kept in the user's data folder (``cli.seats.data_dir``, 0600 in a 0700 folder: it holds
the PIN); a missing or unreadable file is no memory at all.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from president.bots import DEFAULT_LEVEL, LEVELS
from president.cli.seats import data_dir, write_private
from president.errors import PresidentError
from president.rules import PRESETS, HouseRules

FILE_NAME = "last_table.json"


@dataclass(frozen=True)
class TableSetup:
    name: str
    preset: str
    rules: HouseRules
    players: int
    bots: int
    pin: str | None
    turn_timer: int = 0
    level: str = DEFAULT_LEVEL      # the table's: stand-ins for absent players
    levels: tuple[str, ...] = ()    # of the bot seats, one by one
    hints: bool = True              # players may ask for a hint
    late_arrivals: str = "take"     # a newcomer to a started table: "take", "ask", "never"


def remember(setup: TableSetup, path: Path | None = None) -> None:
    """Keep ``setup`` for the next set-up screen (quietly nothing on a read-only home)."""
    data = {**asdict(setup), "rules": setup.rules.to_dict(), "levels": list(setup.levels)}
    try:
        write_private(path or data_dir() / FILE_NAME, json.dumps(data).encode())
    except OSError:
        pass


def last(path: Path | None = None) -> TableSetup | None:
    """The set-up of the last table opened, or None."""
    try:
        data = json.loads((path or data_dir() / FILE_NAME).read_text(encoding="utf-8"))
        levels = tuple(str(level) for level in data["levels"])
        setup = TableSetup(
            name=str(data["name"]), preset=str(data["preset"]),
            rules=HouseRules.from_dict(data["rules"]), players=int(data["players"]),
            bots=int(data["bots"]), pin=str(data["pin"]) if data["pin"] else None,
            turn_timer=int(data["turn_timer"]), level=str(data["level"]), levels=levels,
            hints=data.get("hints") is not False,
            late_arrivals=str(data.get("late_arrivals", "take")))
    except (OSError, ValueError, KeyError, TypeError, PresidentError):
        return None
    known = setup.preset in PRESETS and {setup.level, *levels} <= set(LEVELS) \
        and setup.late_arrivals in ("take", "ask", "never")
    fits = 0 <= setup.bots < setup.players and len(levels) == setup.bots
    return setup if known and fits else None
