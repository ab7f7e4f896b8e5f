"""The door under a flood (not a test): can a new player still join, do seated players
still play? Issue 25's figures, all on loopback.

    python bench/bench_door.py [--half-open 1100] [--slow 300] [--hellos 40] [--seconds 10]

One host (its game port and its page's port) in this process, a seated player pinging
it, and an attacker at 127.0.0.1 who holds ``--half-open`` HTTP requests whose head never
ends, ``--slow`` TCP connections that never say hello, and sends ``--hellos`` hellos a
second replaying the seated player's seat hint. Meanwhile a new player at 127.0.0.2 joins
(the time it takes, in seconds) and the seated player's ping round trips are measured
(p50, p99, max, in ms).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from president.cli.web import web_server
from president.net.client import Client, TcpLink
from president.net.host import Host
from president.net.pake import G, encode_point, token_hint
from president.net.protocol import CLIENT, PROTOCOL_VERSION, Ping, Pong, encode, pack
from president.net.table import Table, TableOptions

LOCAL, OTHER = "127.0.0.1", "127.0.0.2"


async def half_open(port: int, count: int, held: list[Any]) -> None:
    for _ in range(count):
        try:
            reader, writer = await asyncio.open_connection(LOCAL, port)
        except OSError:
            continue
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        held.append(writer)


async def slow(port: int, count: int, held: list[Any]) -> None:
    for _ in range(count):
        try:
            _, writer = await asyncio.open_connection(LOCAL, port)
        except OSError:
            continue
        held.append(writer)


async def hello_flood(port: int, rate: float, hint: str, stop: asyncio.Event) -> int:
    frame = pack({"type": "hello", "version": PROTOCOL_VERSION, "name": "Ann",
                  "language": "en", "share": encode_point(G * 7), "seat_hint": hint,
                  "spectate": False, "table": None}, CLIENT)
    sent = 0
    while not stop.is_set():
        try:
            _, writer = await asyncio.open_connection(LOCAL, port)
            writer.write(frame)
            asyncio.get_running_loop().call_later(1.0, writer.transport.abort)
            sent += 1
        except OSError:
            pass
        await asyncio.sleep(1 / rate)
    return sent


class Pinging(Client):
    """A seated player measuring its pings' round trips."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: dict[int, float] = {}
        self.trips: list[float] = []

    def _receive(self, msg: Any) -> None:
        if isinstance(msg, Pong) and msg.nonce in self.sent:
            self.trips.append(time.perf_counter() - self.sent.pop(msg.nonce))
        super()._receive(msg)

    def ping_now(self, nonce: int) -> None:
        assert self._link is not None
        self.sent[nonce] = time.perf_counter()
        self._link.write(self.session.seal(encode(Ping(nonce=nonce))))


async def main(args: argparse.Namespace) -> None:
    table = Table(TableOptions(name="Kitchen", seats=4, bots=2, bot_delay=0.5, grace=600))
    host = Host([table])
    port = await host.start([LOCAL, OTHER])
    web = web_server(host)
    web_port = await web.start([LOCAL])
    seated = Pinging(LOCAL, port, "Ann", reconnect=False)
    await seated.connect()
    assert seated.token is not None
    held: list[Any] = []
    stop = asyncio.Event()
    await half_open(web_port, args.half_open, held)
    await slow(port, args.slow, held)
    flood = asyncio.ensure_future(hello_flood(port, args.hellos, token_hint(seated.token), stop))

    async def pings() -> None:
        for nonce in range(1, int(args.seconds * 20)):
            seated.ping_now(nonce)
            await asyncio.sleep(0.05)

    pinging = asyncio.ensure_future(pings())
    await asyncio.sleep(1.0)
    began = time.perf_counter()
    newcomer = Client(OTHER, port, "Bea", reconnect=False,
                      open_link=lambda: _link_from(OTHER, port))
    await newcomer.connect()
    joined = time.perf_counter() - began
    await pinging
    stop.set()
    hellos = await flood
    trips = sorted(t * 1e3 for t in seated.trips)
    print(f"the attacker opened {args.half_open} half-open requests and {args.slow} slow "
          f"connections ({len(held)} connected, most closed by the host at once) and sent "
          f"{hellos} hellos replaying a seat's hint")
    print(f"a new player joined in {joined:.2f} s (seat {newcomer.seat})")
    if trips:
        print(f"seated player's round trips over {len(trips)} pings: p50 "
              f"{statistics.median(trips):.1f} ms, p99 {trips[int(0.99 * (len(trips) - 1))]:.1f}"
              f" ms, max {trips[-1]:.1f} ms")
    for writer in held:
        writer.transport.abort()
    await newcomer.close()
    await seated.close()
    await host.stop()
    await web.stop()


async def _link_from(address: str, port: int) -> TcpLink:
    reader, writer = await asyncio.open_connection(address, port, local_addr=(address, 0))
    return TcpLink(reader, writer)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half-open", type=int, default=1100)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--hellos", type=float, default=40.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    asyncio.run(main(parser.parse_args()))
