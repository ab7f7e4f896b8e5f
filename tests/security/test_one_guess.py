"""One guess per typed PIN (issue 25, point 3): a lookalike table that hangs up after each
hello, or after the proof, gets one handshake with the PIN from ``president join HOST:PORT
--pin`` (the ``NetConnection`` it runs) and from the page, not one every second or two;
the screen says why (``pin_again``). A PIN a host confirmed goes back to that host only,
and the key a player was given (``--key``, the page's ``#key=``) is checked before
anything is proved."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rawpeer import HostHalf
from security_kit import LOCAL, run

from president.cli.netbridge import NetConnection
from president.net.client import Client
from president.net.host import Host
from president.net.pake import G, HostKey, encode_point, short_fingerprint
from president.net.protocol import HOST, pack
from president.net.session import JoinFailed
from president.net.table import Table, TableOptions

PIN = "4321"
STATIC = Path(__file__).resolve().parents[2] / "cli" / "web" / "static"


class Lookalike:
    """A fake table: it answers hellos as a host would (its own key), then hangs up after
    the hello (``after="hello"``) or after the proof (``after="proof"``)."""

    def __init__(self, after: str) -> None:
        self.after = after
        self.hellos = self.proofs = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.serve, LOCAL, 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host = HostHalf(PIN, key=HostKey.generate())
        try:
            while data := await reader.read(65536):
                for msg in host.feed(data):
                    if msg["type"] == "ping":    # the join's probe: a table answers
                        writer.write(pack({"type": "pong", "nonce": msg["nonce"]}, HOST))
                    elif msg["type"] == "hello":
                        self.hellos += 1
                        if self.after == "hello":
                            return
                        writer.write(host.challenge(msg))
                    elif msg["type"] == "proof":
                        self.proofs += 1
                        return
        finally:
            writer.close()


@pytest.mark.slow
@pytest.mark.parametrize("after", ["hello", "proof"])
def test_a_table_that_hangs_up_gets_one_handshake_from_a_typed_pin(after: str) -> None:
    async def scenario() -> tuple[Lookalike, list[Any]]:
        fake = Lookalike(after)
        port = await fake.start()
        connection = NetConnection(LOCAL, port, "Ada", "en", PIN)
        events: list[Any] = []
        await asyncio.wait_for(connection.start(events.append), 20)
        assert fake.server is not None
        fake.server.close()
        return fake, events

    fake, events = run(scenario())
    assert fake.hellos == 1 and fake.proofs == (after == "proof")
    failed = [e for e in events if isinstance(e, JoinFailed)]
    assert failed and failed[-1].code == "pin_again" and failed[-1].final


def test_a_confirmed_pin_goes_back_to_that_host_only() -> None:
    """A spectator has no token: after a drop it comes back with the PIN, which the host
    confirmed, to the same key (pinned since)."""
    async def scenario() -> tuple[str, int]:
        table = Table(TableOptions(name="Kitchen", seats=3, bots=1, pin=PIN))
        host = Host([table])
        port = await host.start([LOCAL])
        watcher = Client(LOCAL, port, "Wat", pin=PIN, spectate=True)
        await watcher.connect()
        await watcher.drop()
        await watcher.wait_for(lambda c: c.status == "reconnecting")
        await watcher.wait_for(lambda c: c.status == "connected")
        status, failures = watcher.status, len(table.pin_guard.failures)
        await watcher.close()
        await host.stop()
        return status, failures

    assert run(scenario()) == ("connected", 0)


def test_the_key_the_host_printed_is_checked_before_the_pin_is_tried() -> None:
    async def scenario() -> tuple[Lookalike, list[Any]]:
        fake = Lookalike("proof")
        port = await fake.start()
        printed = short_fingerprint(HostKey.generate().fingerprint)  # the real host's
        connection = NetConnection(LOCAL, port, "Ada", "en", PIN, host_key=printed)
        events: list[Any] = []
        await asyncio.wait_for(connection.start(events.append), 20)
        assert fake.server is not None
        fake.server.close()
        return fake, events

    fake, events = run(scenario())
    assert fake.hellos == 1 and fake.proofs == 0
    failed = [e for e in events if isinstance(e, JoinFailed)]
    assert failed and failed[-1].code == "host_key_changed"


# ---------------------------------------------------------------- the page, under node

PAGE = r"""
// A fake clock and a fake WebSocket: a lookalike table that hangs up after each hello
// (or, with a key, one whose key is not the page's #key=...).
let now = 0, nextTimer = 1;
const timers = new Map();
globalThis.setTimeout = (fn, ms) => {
  timers.set(nextTimer, { at: now + ms, fn });
  return nextTimer++;
};
globalThis.clearTimeout = (id) => timers.delete(id);
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
globalThis.document = { visibilityState: "visible", addEventListener() {},
  removeEventListener() {} };
Date.now = () => now;
const input = JSON.parse(process.argv[2]);
const sent = [];
class FakeSocket {
  constructor() { this.readyState = 1; queueMicrotask(() => this.onopen()); }
  send(data) {
    sent.push(data);
    queueMicrotask(() => {
      if (input.challenge && sent.length === 1) {
        this.onmessage({ data: Uint8Array.from(Buffer.from(input.challenge, "hex")).buffer });
      } else { this.readyState = 3; this.onclose(); }
    });
  }
  close() {
    if (this.readyState !== 3) { this.readyState = 3; queueMicrotask(() => this.onclose()); }
  }
}
FakeSocket.OPEN = 1;
globalThis.WebSocket = FakeSocket;
const { Session } = await import("./session.js");
const events = [];
const session = new Session({ name: "Ada", language: "en", pin: "4321", url: "ws://x/ws",
  hostKey: input.hostKey, listener: (kind, payload) => events.push([kind, payload]) });
session.connect();
const settle = () => new Promise((resolve) => setImmediate(resolve));
while (now <= 40000) {
  await settle();
  const due = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
  if (!due) break;
  timers.delete(due[0]);
  now = Math.max(now, due[1].at);
  due[1].fn();
}
await settle();
const failed = events.filter(([kind]) => kind === "join_failed").map(([, payload]) => payload);
console.log(JSON.stringify({ sent: sent.length, failed }));
"""


def page(tmp_path: Path, data: dict[str, Any]) -> dict[str, Any]:
    for name in ("session.js", "pake.js", "wire.js", "vendor.js"):
        shutil.copy(STATIC / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "check.js").write_text(PAGE)
    done = subprocess.run(["node", "check.js", json.dumps(data)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_makes_one_handshake_per_typed_pin_in_40_seconds(tmp_path: Path) -> None:
    out = page(tmp_path, {"hostKey": None, "challenge": None})
    assert out["sent"] == 1   # the hello; 40 s of coming back offered the PIN no more
    assert [f["code"] for f in out["failed"]] == ["pin_again"] and out["failed"][0]["final"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_checks_the_key_of_its_address_before_proving(tmp_path: Path) -> None:
    lookalike = HostHalf(PIN, key=HostKey.generate())
    hello = {"type": "hello", "version": 7, "name": "Ada", "language": "en",
             "share": encode_point(G), "seat_hint": None, "spectate": False, "table": None,
             "knock": False}
    challenge = lookalike.challenge(hello)  # any share: the page must not answer
    printed = short_fingerprint(HostKey.generate().fingerprint).replace("-", "")
    out = page(tmp_path, {"hostKey": printed, "challenge": challenge.hex()})
    assert out["sent"] == 1   # the hello alone: no proof
    assert [f["code"] for f in out["failed"]] == ["host_key_changed"]
