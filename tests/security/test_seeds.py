"""Deals no player can rebuild (issue: "every deal follows from a 32-bit seed"): each
session's seed has 128 secret bits, the journal keeps it whole, and no frame or host
line shows it."""

from __future__ import annotations

import asyncio

from president.net.client import Client
from president.net.host import Host
from president.net.table import Table, TableOptions
from president.seeds import new_session_seed


def test_a_session_seed_is_drawn_from_128_bits() -> None:
    seeds = [new_session_seed() for _ in range(64)]
    assert len(set(seeds)) == 64
    assert max(seeds) >= 2**120          # one of 64 draws below 2**120: chance 2**-384
    assert sum(seed >= 2**64 for seed in seeds) >= 60   # not a 64-bit space either


def test_no_frame_and_no_host_line_carries_the_seed() -> None:
    lines: list[tuple[str, dict]] = []

    async def scenario() -> tuple[Table, list[bytes]]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=2, bot_delay=0.001,
                                   ready_timeout=0), on_log=lambda what, p: lines.append((what, p)))
        host = Host([table])
        port = await host.start(["127.0.0.1"])
        frames: list[bytes] = []
        client = Client("127.0.0.1", port, "Ann", reconnect=False)
        original = client.session.decode

        def recording(data: bytes):     # every byte the host sends this seat
            frames.append(bytes(data))
            return original(data)

        client.session.decode = recording  # type: ignore[method-assign]
        await client.connect()
        await client.wait_for(lambda c: c.view is not None)
        await asyncio.sleep(0.2)
        await client.close()
        await host.stop()
        return table, frames

    table, frames = asyncio.run(scenario())
    seed = table.seed
    wire = b"".join(frames)
    for form in (str(seed).encode(), seed.to_bytes((seed.bit_length() + 7) // 8, "big")):
        assert form not in wire
    assert all(seed not in params.values() and str(seed) not in str(params)
               for _, params in lines)
