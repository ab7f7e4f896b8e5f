"""Connection hygiene (issue 14, point 3): a hello deadline, a connection cap below the
open-file limit that sheds the connections that never said hello first, and a failed
accept() logged once rather than once per attempt."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from security_kit import LOCAL, Raw, hello, run

from president.net.client import Client
from president.net.host import Host
from president.net.limits import Limits, connection_cap
from president.net.table import Table, TableOptions

HERE = Path(__file__).parent


async def open_host(**limits: float) -> tuple[Host, int]:
    host = Host([Table(TableOptions(name="Kitchen", seats=4))],
                limits=Limits(**limits))  # type: ignore[arg-type]
    return host, await host.start([LOCAL])


@pytest.mark.slow
def test_a_connection_that_never_says_hello_is_closed_at_the_deadline() -> None:
    async def scenario() -> tuple[list, str | None]:
        host, port = await open_host(hello_deadline=0.2)
        try:
            silent = await Raw.open(port)
            said = await silent.closed(timeout=10)
            ann = Client(LOCAL, port, "Ann", reconnect=False)
            await ann.connect()                               # a real player is not hurried
            await asyncio.sleep(0.4)
            return said, ann.status
        finally:
            await host.stop()

    said, status = run(scenario())
    assert [m["code"] for m in said if m["type"] == "bye"] == ["hello_timeout"]
    assert status == "connected"


def test_at_the_cap_silent_connections_make_room_and_players_are_not_shed() -> None:
    async def scenario() -> tuple[list[bool], str, str]:
        host, port = await open_host(connections=4, per_address=100)
        try:
            watchers = [Client(LOCAL, port, f"W{n}", spectate=True, reconnect=False)
                        for n in range(2)]
            for watcher in watchers:
                await watcher.connect()
            silent = [await Raw.open(port) for _ in range(2)]      # the cap is reached
            ann = Client(LOCAL, port, "Ann", reconnect=False)
            await ann.connect()                                     # one silent one goes
            bob = Client(LOCAL, port, "Bob", reconnect=False)
            await bob.connect()                                     # the other one goes
            shed = [raw.writer.transport.is_closing() or await _eof(raw) for raw in silent]
            late = await Raw.open(port)                             # now all are players
            refused = await late.receive(lambda m: m["type"] == "refused")
            return shed, ann.status, refused["code"], [w.status for w in watchers]
        finally:
            await host.stop()

    shed, ann, refused, watchers = run(scenario())
    assert shed == [True, True] and ann == "connected"
    assert refused == "host_full" and watchers == ["connected", "connected"]


async def _eof(raw: Raw) -> bool:
    try:
        return await asyncio.wait_for(raw.reader.read(65536), 5) == b""
    except ConnectionError:
        return True


def test_the_cap_stays_below_the_open_file_limit() -> None:
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert connection_cap(Limits()) < soft
    assert connection_cap(Limits(connections=7)) == 7


def test_a_player_joins_while_a_flood_passes_the_open_file_limit(tmp_path: Path) -> None:
    """The host runs with 96 open files at most; 300 connections from 30 addresses are
    attempted at it; a player still joins, and the host logged at most one accept error."""
    child = subprocess.Popen([sys.executable, str(HERE / "low_files_host.py"), "96"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = json.loads(child.stdout.readline())["port"]

        async def scenario() -> tuple[int, str]:
            flood = []
            for n in range(300):             # from 30 addresses, 10 each: under the
                source = (f"127.0.0.{2 + n % 30}", 0)   # limit per address
                try:
                    flood.append(await asyncio.wait_for(Raw.open(port, local_addr=source), 5))
                except (OSError, TimeoutError):
                    pass
            ann = Client(LOCAL, port, "Ann", reconnect=False)
            await ann.connect()
            status = ann.status
            await ann.close()
            for raw in flood:
                raw.abort()
            return len(flood), status

        opened, status = run(scenario(), timeout=120)
        assert status == "connected"
    finally:
        child.terminate()
        _, errors = child.communicate(timeout=30)
    assert errors.count("out of system resource") <= 1, errors[-3000:]


def test_hellos_beyond_the_hosts_handshake_rate_are_turned_away_to_come_back() -> None:
    """Each hello costs the host a few ms of exponentiation: a flood of them gets
    ``host_full`` past the host's handshake rate, and a player let in later joins."""
    async def scenario() -> tuple[list[str], str | None, str, str]:
        host, port = await open_host(handshake_rate=0.0001, handshake_burst=3)
        ann = Client(LOCAL, port, "Ann", reconnect=False)
        await ann.connect()
        answers = []
        for n in range(5):
            raw = await Raw.open(port)
            raw.send_obj(hello(f"F{n}"))
            answer = await raw.receive(lambda m: m["type"] in ("challenge", "refused"))
            answers.append(answer.get("code", answer["type"]))
            raw.abort()
        # Ann's seat comes back from another device (her token): a hello like any other
        # (a seat's hint is in clear: were it let past the rate, a replay of it would be)
        refused = (await (await Raw.open(port)).hello("Ann", token=ann.token)).get("code")
        host.handshakes.tokens = 2.0  # time passes
        returning = (await (await Raw.open(port)).hello("Ann", token=ann.token))["type"]
        late = (await (await Raw.open(port)).hello("Ada"))["type"]
        await host.stop()
        return answers, refused, returning, late

    answers, refused, returning, late = run(scenario())
    assert answers == ["challenge"] * 2 + ["host_full"] * 3 and refused == "host_full"
    assert returning == "welcome" and late == "welcome"


@pytest.mark.slow
def test_a_flood_replaying_a_seats_hint_spends_neither_the_hosts_rate_nor_the_seat() -> None:
    """A seat's hint is in clear in every hello that comes back: replayed 40 times, it
    gets a few handshakes (its own rate), not the host's, and the seat's player still
    comes back once that rate has refilled."""
    async def scenario() -> tuple[list[str], str, str]:
        host, port = await open_host(handshake_rate=0.5, handshake_burst=6, hint_rate=2.0,
                                     hint_burst=3)
        ann = Client(LOCAL, port, "Ann", reconnect=False)
        await ann.connect()
        answers = []
        for _ in range(40):
            raw = await Raw.open(port)
            raw.send_obj(hello("Ann", token=ann.token))     # the replayed hello's hint
            answer = await raw.receive(lambda m: m["type"] in ("challenge", "refused"))
            answers.append(answer.get("code", answer["type"]))
            raw.abort()
        late = (await (await Raw.open(port)).hello("Ada"))["type"]  # the host's rate is left
        await asyncio.sleep(1.0)                                   # the seat's rate refills
        back = (await (await Raw.open(port)).hello("Ann", token=ann.token))["type"]
        await host.stop()
        return answers, late, back

    answers, late, back = run(scenario())
    assert answers.count("challenge") <= 4 and answers.count("host_full") >= 36
    assert late == "welcome" and back == "welcome"
