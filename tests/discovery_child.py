"""A child process for the discovery tests; runs only inside a private network namespace.

    discovery_child.py selftest NAME         advertise and browse here (interfaces=None)
    discovery_child.py host NAME [TTL]       a TCP echo server, advertised; stdin: "seats T/N", "stop"
    discovery_child.py find NAME...          browse (interfaces=None); join each table NAME found

It speaks JSON lines on stdout: {"event": ..., ...}.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from typing import Any

from netns import assert_isolated

from president.net.discovery import TableAdvertiser, TableBrowser, TableInfo

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


async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while line := await reader.readline():
            writer.write(line)
            await writer.drain()
    finally:
        writer.close()


async def host(name: str, ttl: int | None) -> None:
    """Listens on every address of this namespace; advertises the default addresses."""
    server = await asyncio.start_server(echo, "0.0.0.0", 0)
    port = server.sockets[0].getsockname()[1]
    extra = {} if ttl is None else {"ttl": ttl}
    advertiser = TableAdvertiser(name, port, [], PROPS, **extra)
    await advertiser.start()
    say("ready", instance=advertiser.instance, port=port, addresses=advertiser.addresses)
    loop = asyncio.get_running_loop()
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        command, _, argument = line.partition(" ")
        if command == "seats":
            await advertiser.update({"seats": argument})
            say("updated", seats=argument)
        elif command == "stop":
            break
    await advertiser.stop()
    server.close()
    say("stopped")


async def join(table: TableInfo) -> str:
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(table.addresses[0], table.port), STEP_TIMEOUT)
    try:
        writer.write(f"hello {table.name}\n".encode())
        await writer.drain()
        return (await asyncio.wait_for(reader.readline(), STEP_TIMEOUT)).decode().strip()
    finally:
        writer.close()


async def find(names: list[str]) -> None:
    async with TableBrowser() as browser:
        say("browsing")
        async for kind, table in browser:
            if table.name not in names:
                continue
            fields: dict[str, Any] = {"table": as_dict(table)}
            if kind == "added":
                fields["echo"] = await join(table)
            say(kind, **fields)


def main() -> None:
    assert_isolated()
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "selftest":
        asyncio.run(selftest(args[0]))
    elif mode == "host":
        asyncio.run(host(args[0], int(args[1]) if len(args) > 1 else None))
    elif mode == "find":
        asyncio.run(find(args))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
