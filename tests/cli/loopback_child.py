"""Open a table as the lobby does, on a machine whose only network is ``lo`` (run inside a
private network namespace): its host starts in the background, says it is not advertised,
takes a guest who joins by address, and ends when asked. Prints one JSON line."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from netns import assert_isolated  # noqa: E402

from president.cli import hosting, netbridge  # noqa: E402
from president.net.client import Client  # noqa: E402
from president.rules import PRESETS  # noqa: E402


async def main() -> dict[str, object]:
    setup = SimpleNamespace(name="Kitchen", preset="classic", rules=PRESETS["classic"],
                            players=3, bots=0, pin=None, turn_timer=0, level="easy",
                            levels=())
    _, owner = await netbridge.host_table(setup, "Ada", "en")
    (mine,) = hosting.my_tables()
    guest = Client("127.0.0.1", mine.port, "Bea", reconnect=False)
    await asyncio.wait_for(guest.connect(), 10)
    seat = guest.seat
    hosting.stop(mine)                      # before the first deal: it closes at once
    await guest.wait_for(lambda c: c.status == "closed", timeout=10)
    for _ in range(100):
        if not hosting.my_tables():
            break
        await asyncio.sleep(0.1)
    return {"unadvertised": owner.unadvertised, "address": owner.address,
            "guest_seat": seat, "bye": guest.bye.code if guest.bye else None,
            "left": [t.name for t in hosting.my_tables()]}


if __name__ == "__main__":
    assert_isolated()
    folder = tempfile.mkdtemp()
    os.environ.pop("PRESIDENT_INTERFACES", None)
    os.environ["PRESIDENT_DATA_DIR"] = folder
    os.environ["PRESIDENT_JOURNAL"] = str(Path(folder, "journal.sqlite3"))
    print(json.dumps(asyncio.run(main())), flush=True)
