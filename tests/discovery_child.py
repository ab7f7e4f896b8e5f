"""A child process for the discovery tests; runs only inside a private network namespace.

    discovery_child.py selftest NAME         advertise and browse here (interfaces=None)
    discovery_child.py host NAME [TTL]       a real host, advertised; stops on "stop" or EOF
    discovery_child.py find JOIN [WATCH...]  browse (interfaces=None); join the table JOIN

It speaks JSON lines on stdout: {"event": ..., ...}.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import sys
from typing import Any

from netns import assert_isolated

from president.net.client import Client
from president.net.discovery import TableAdvertiser, TableBrowser, TableInfo, txt_properties
from president.net.host import Host
from president.net.protocol import PROTOCOL_VERSION
from president.net.table import Table, TableOptions

STEP_TIMEOUT = 20.0
PROPS = {"seats": "1/4", "preset": "classic", "proto": "1", "pin": "0"}


def say(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


def as_dict(table: TableInfo) -> dict[str, Any]:
    return dataclasses.asdict(table)


async def next_for(events: Any, instance: str) -> tuple[str, TableInfo]:
    while True:
        kind, table = await asyncio.wait_for(anext(events), STEP_TIMEOUT)
        if table.instance == instance:
            return kind, table


async def selftest(name: str) -> None:
    """Interfaces None (all of this namespace's); addresses given: lo has no other."""
    async with TableBrowser() as browser:
        events = browser.events()
        advertiser = TableAdvertiser(name, 4242, ["127.0.0.1"], PROPS)
        await advertiser.start()
        for kind in ("added", "updated", "removed"):
            if kind == "updated":
                await advertiser.update({"seats": "3/4"})
            if kind == "removed":
                await advertiser.stop()
            got, table = await next_for(events, advertiser.instance)
            say(got, table=as_dict(table))


def properties(table: Table) -> dict[str, str]:
    return txt_properties(table.options.name, table.taken, len(table.seats),
                          table.options.preset, PROTOCOL_VERSION, bool(table.options.pin))


async def host(name: str, ttl: int | None) -> None:
    """A real host (3 seats, 1 bot) on every address here, advertised with its seats."""
    table = Table(TableOptions(name=name, seats=3, bots=1, auto_start=False))
    server = Host([table])
    # one IPv4 socket: Host.start() with no address and port 0 binds 0.0.0.0 and ::
    # on two different ports and reports the IPv6 one (reported to the host's author)
    port = await server.start(["0.0.0.0"])
    extra = {} if ttl is None else {"ttl": ttl}
    advertiser = TableAdvertiser(name, port, [], properties(table), **extra)
    updates: set[asyncio.Future[None]] = set()

    def changed(table: Table) -> None:
        update = asyncio.ensure_future(advertiser.update(properties(table)))
        updates.add(update)
        update.add_done_callback(updates.discard)

    table.on_change = changed
    await advertiser.start()
    say("ready", instance=advertiser.instance, port=port, addresses=advertiser.addresses)
    loop = asyncio.get_running_loop()
    while (await loop.run_in_executor(None, sys.stdin.readline)).strip() not in ("stop", ""):
        pass
    await advertiser.stop()
    await server.stop()
    say("stopped")


async def find(join: str, watch: list[str]) -> None:
    """Report tables named ``join`` or in ``watch``; join ``join`` with a real client."""
    clients: list[Client] = []
    try:
        async with TableBrowser(check_interval=1.0) as browser:
            say("browsing")
            async for kind, table in browser:
                if table.name != join and table.name not in watch:
                    continue
                fields: dict[str, Any] = {"table": as_dict(table)}
                if kind == "added" and table.name == join:
                    client = Client(table.addresses[0], table.port, "Finder", reconnect=False)
                    await asyncio.wait_for(client.connect(), STEP_TIMEOUT)
                    clients.append(client)
                    table_info = client.table
                    fields.update(seat=client.seat,
                                  joined=table_info.name if table_info else None)
                say(kind, **fields)
    finally:
        for client in clients:
            await client.close()


def main() -> None:
    assert_isolated()
    if os.environ.get("DISCOVERY_CHILD_DEBUG"):
        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "selftest":
        asyncio.run(selftest(args[0]))
    elif mode == "host":
        asyncio.run(host(args[0], int(args[1]) if len(args) > 1 else None))
    elif mode == "find":
        asyncio.run(find(args[0], args[1:]))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
