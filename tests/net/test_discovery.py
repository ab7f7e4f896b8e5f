"""Discovery with real zeroconf: bound to 127.0.0.1, in a namespace, and across a bridged LAN.

Zeroconf never runs on the machine's real network: in this process it is bound
to 127.0.0.1 (and the test checks every socket it sends from), elsewhere it
runs in child processes inside network namespaces (tests/netns.py), which
refuse to start in the test process's namespace.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import secrets
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from president.net.discovery import (
    SERVICE_TYPE,
    TableAdvertiser,
    TableBrowser,
    TableInfo,
    txt_properties,
)

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("president_tests_netns", TESTS / "netns.py")
assert _spec is not None and _spec.loader is not None
netns = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(netns)

CHILD = str(TESTS / "discovery_child.py")
LOOPBACK = ["127.0.0.1"]
STEP = 20.0                     # generous timeout for one step of a scenario
T = TypeVar("T")

_skip_netns = pytest.mark.skipif(netns.missing_tools() is not None,
                                 reason=f"network namespaces: {netns.missing_tools()}")


def needs_netns(test: Callable[[], None]) -> Callable[[], None]:
    return pytest.mark.netns(_skip_netns(test))


def run(coroutine: Awaitable[T], timeout: float = 60.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coroutine, timeout)
    return asyncio.run(bounded())


def unique(name: str) -> str:
    """Other tests on this machine may advertise on loopback too: names are per run."""
    return f"{name} {secrets.token_hex(3)}"


def props(seats: str = "1/4", pin: bool = False) -> dict[str, str]:
    taken, total = map(int, seats.split("/"))
    return {k: v for k, v in txt_properties("-", taken, total, "classic", 1, pin).items()
            if k != "name"}


async def next_event(events: AsyncIterator[tuple[str, TableInfo]],
                     wanted: Callable[[TableInfo], bool]) -> tuple[str, TableInfo]:
    """The next event about a table we care about (others on loopback are ignored)."""
    while True:
        kind, table = await asyncio.wait_for(anext(events), STEP)
        if wanted(table):
            return kind, table


def assert_loopback_only(advertiser: TableAdvertiser | TableBrowser) -> None:
    """Nothing leaves the machine: every socket zeroconf sends from is bound to 127.0.0.1."""
    zc: AsyncZeroconf = advertiser._zc  # type: ignore[assignment]
    senders = zc.zeroconf.engine.senders
    assert senders
    for sender in senders:
        assert sender.transport.get_extra_info("sockname")[0] == "127.0.0.1"


# ------------------------------------------------------------ one process, loopback


def test_advertise_update_goodbye_on_loopback() -> None:
    name = unique("Kitchen")

    async def scenario() -> None:
        seen: list[dict[str, TableInfo]] = []
        browser = TableBrowser(interfaces=LOOPBACK, on_change=seen.append, check_interval=0.25)
        await browser.start()
        events = browser.events()
        advertiser = TableAdvertiser(name, 40123, ["127.0.0.1"], props("1/4", pin=True),
                                     interfaces=LOOPBACK, ttl=2)
        try:
            await advertiser.start()
            assert_loopback_only(advertiser)
            assert_loopback_only(browser)

            def mine(table: TableInfo) -> bool:
                return table.instance == advertiser.instance

            kind, table = await next_event(events, mine)
            assert kind == "added"
            assert table == TableInfo(
                instance=advertiser.instance, name=name, addresses=["127.0.0.1"], port=40123,
                seats_taken=1, seats_total=4, preset="classic", protocol=1, pin_required=True)
            assert browser.tables[advertiser.instance] == table
            assert seen[-1][advertiser.instance] == table
            # its records expire (TTL 2 s): the browser's check asks again and the
            # live host answers, so the table stays (the next event is the update)
            await asyncio.sleep(3)

            await advertiser.update({"seats": "4/4"})
            kind, table = await next_event(events, mine)
            assert (kind, table.seats_taken, table.full) == ("updated", 4, True)
            assert browser.tables[advertiser.instance].seats_taken == 4

            await advertiser.stop()
            kind, table = await next_event(events, mine)
            assert kind == "removed"
            assert advertiser.instance not in browser.tables
            assert advertiser.instance not in seen[-1]
        finally:
            await advertiser.stop()
            await browser.stop()
        # the iterator ends when the browser stops
        assert [item async for item in events] == []

    run(scenario())


def test_same_name_twice_and_a_bad_record_on_loopback(caplog: pytest.LogCaptureFixture) -> None:
    """Two tables may share a name; a malformed record from another device is skipped."""
    name = unique("Twins")
    caplog.set_level(logging.DEBUG, logger="president.net.discovery")

    async def scenario() -> None:
        async with TableBrowser(interfaces=LOOPBACK) as browser:
            events = browser.events()
            stranger = AsyncZeroconf(interfaces=LOOPBACK)
            bad = AsyncServiceInfo(
                SERVICE_TYPE, f"{unique('Printer')}.{SERVICE_TYPE}", port=631,
                properties={"name": "\x1b[2Jgotcha", "seats": "9/4", "proto": "x"},
                server=f"printer-{secrets.token_hex(3)}.local.", parsed_addresses=["127.0.0.1"])
            first = TableAdvertiser(name, 40001, ["127.0.0.1"], props(), interfaces=LOOPBACK)
            second = TableAdvertiser(name, 40002, ["127.0.0.1"], props(), interfaces=LOOPBACK)
            try:
                await (await stranger.async_register_service(bad))
                starting = asyncio.ensure_future(second.start())
                await second.update({"seats": "3/4"})      # while it is still probing
                await asyncio.gather(first.start(), starting)
                assert first.instance != second.instance
                found: dict[str, TableInfo] = {}
                while len(found) < 2 or found[second.instance].seats_taken != 3:
                    _, table = await next_event(events, lambda t: t.name == name)
                    found[table.instance] = table
                assert {t.port for t in found.values()} == {40001, 40002}

                async def rejected() -> None:
                    while not any(bad.name in r.getMessage() and "skipped" in r.getMessage()
                                  for r in caplog.records):
                        await asyncio.sleep(0.05)
                await asyncio.wait_for(rejected(), STEP)
                assert bad.name not in browser.tables
                # the browser still works after the bad record
                await first.update({"seats": "2/4"})
                kind, table = await next_event(events, lambda t: t.instance == first.instance)
                assert (kind, table.seats_taken) == ("updated", 2)
            finally:
                await first.stop()
                await second.stop()
                await stranger.async_close()

    run(scenario())


# ---------------------------------------------------------------- namespaces


class Child:
    """A child process speaking JSON lines (tests/discovery_child.py)."""

    def __init__(self, process: asyncio.subprocess.Process, label: str) -> None:
        self.process, self.label = process, label
        self.backlog: list[dict[str, Any]] = []

    @classmethod
    async def start(cls, argv: list[str], label: str) -> Child:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env=netns.child_env())
        return cls(process, label)

    async def expect(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message, seen or to come, that ``wanted`` accepts; others wait their turn."""
        for message in self.backlog:
            if wanted(message):
                self.backlog.remove(message)
                return message
        assert self.process.stdout is not None
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), STEP)
            assert line, f"{self.label} exited ({await self.process.wait()})"
            message = json.loads(line)
            assert message["event"] != "refused", message
            if wanted(message):
                return message
            self.backlog.append(message)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")

    async def close(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()


def event(kind: str, name: str | None = None) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["event"] == kind and (name is None or m["table"]["name"] == name)


@needs_netns
def test_fresh_namespace_with_default_interfaces() -> None:
    """interfaces=None (all of them) is safe in a namespace that holds only ``lo``."""
    name = unique("Attic")

    async def scenario() -> None:
        child = await Child.start(
            netns.unshare_argv([sys.executable, CHILD, "selftest", name]), "selftest")
        try:
            added = await child.expect(event("added"))
            assert added["table"]["name"] == name
            assert added["table"]["addresses"] == ["127.0.0.1"]
            assert (added["table"]["seats_taken"], added["table"]["seats_total"]) == (1, 4)
            updated = await child.expect(event("updated"))
            assert updated["table"]["seats_taken"] == 3
            await child.expect(event("removed"))
            assert await asyncio.wait_for(child.process.wait(), STEP) == 0
        finally:
            await child.close()

    run(scenario())


@needs_netns
def test_table_found_and_joined_across_a_bridged_lan() -> None:
    """Laptop 1 hosts two tables; laptop 2 finds both, joins one for real, sees its
    seats fill; one table says goodbye, the other's host is killed and expires."""
    salon, ghost = unique("Salon"), unique("Ghost")

    async def scenario(lan: Any) -> None:
        laptop1, laptop2 = lan.laptops
        children: list[Child] = []
        try:
            finder = await Child.start(netns.netns_exec_argv(
                laptop2, [sys.executable, CHILD, "find", salon, ghost]), "finder")
            children.append(finder)
            await finder.expect(event("browsing"))
            host = await Child.start(netns.netns_exec_argv(
                laptop1, [sys.executable, CHILD, "host", salon]), "host")
            doomed = await Child.start(netns.netns_exec_argv(
                laptop1, [sys.executable, CHILD, "host", ghost, "2"]), "doomed host")
            children += [host, doomed]
            ready = await host.expect(event("ready"))
            await doomed.expect(event("ready"))
            assert ready["addresses"] == [lan.addresses[0]]

            added = await finder.expect(event("added", salon))
            table = added["table"]
            assert table["addresses"] == [lan.addresses[0]]
            assert table["port"] == ready["port"]
            assert (table["preset"], table["pin_required"]) == ("classic", False)
            assert added["joined"] == salon and added["seat"] == 0
            # the bot seat, then our finder's seat: the TXT record follows the table
            updated = await finder.expect(lambda m: event("updated", salon)(m)
                                          and m["table"]["seats_taken"] == 2)
            assert updated["table"]["seats_total"] == 3
            await finder.expect(event("added", ghost))

            doomed.process.send_signal(signal.SIGKILL)      # no goodbye: its TTL runs out
            host.send("stop")                               # goodbye
            removed = set()
            while len(removed) < 2:
                message = await finder.expect(event("removed"))
                removed.add(message["table"]["name"])
            assert removed == {salon, ghost}
            await host.expect(event("stopped"))
        finally:
            for child in children:
                await child.close()

    with netns.bridged_lan(2) as lan:
        run(scenario(lan))
