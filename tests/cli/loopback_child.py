"""Host a table as the lobby does on a machine whose only network is ``lo`` (run inside
a private network namespace): it must open, not be advertised, and take a guest who
joins by address. Prints one JSON line."""

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

from president.cli import netbridge  # noqa: E402
from president.net.client import Client  # noqa: E402
from president.net.journal import Journal  # noqa: E402
from president.rules import PRESETS  # noqa: E402


async def main() -> dict[str, object]:
    setup = SimpleNamespace(name="Kitchen", preset="classic", rules=PRESETS["classic"],
                            players=3, bots=0, pin=None, turn_timer=0, level="easy",
                            levels=())
    folder = tempfile.mkdtemp()
    hosted, owner = await netbridge.host_table(setup, "Ada", "en", seed=3,
                                               journal=Journal(Path(folder, "j.sqlite")))
    try:
        port = hosted.host.port
        guest = Client("127.0.0.1", port, "Bea", reconnect=False)
        await asyncio.wait_for(guest.connect(), 10)
        seat = guest.seat
        await guest.close()
        return {"advertised": hosted.advertiser is not None,
                "unadvertised": owner.unadvertised, "address": owner.address,
                "guest_seat": seat}
    finally:
        await hosted.stop()


if __name__ == "__main__":
    assert_isolated()
    os.environ.pop("PRESIDENT_INTERFACES", None)
    print(json.dumps(asyncio.run(main())), flush=True)
