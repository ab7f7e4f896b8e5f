"""A table hosted from the client's set-up screen is journaled like `president host`."""

from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace

from president.cli import netbridge
from president.net.journal import Journal
from president.net.persist import resume_tables
from president.rules import PRESETS


def test_a_table_hosted_from_the_client_is_journaled_and_can_be_resumed():
    setup = SimpleNamespace(name="Garden", preset="classic", rules=PRESETS["classic"],
                            players=3, bots=2, pin=None, turn_timer=0, level="easy",
                            levels=("hard", "easy"))

    async def scenario() -> None:
        hosted, connection = await netbridge.host_in_process(setup, "Ada", "en", seed=9)
        try:
            await connection.start(lambda event: None)
            await connection.client.wait_for(
                lambda c: c.view is not None and c.view.phase == "play")
        finally:
            await connection.close()
            await hosted.stop()

    asyncio.run(asyncio.wait_for(scenario(), 30))
    journal = Journal(os.environ["PRESIDENT_JOURNAL"])
    try:
        (record,) = journal.sessions(unfinished_only=True)
        assert record.table_name == "Garden" and record.players[0] == "Ada"
        (table,) = resume_tables(journal)
        assert table.state is not None and table.state.hand_number == 1
        # The bots' levels and the table's (its stand-ins') come back too.
        assert [seat.level for seat in table.seats] == [None, "hard", "easy"]
        assert table.options.bot_kind == "easy"
    finally:
        journal.close()
