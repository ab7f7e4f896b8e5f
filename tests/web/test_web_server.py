"""The host's web side without a browser: files, texts, the WebSocket's checks and limits.

Real HTTP and WebSocket on 127.0.0.1 port 0 (aiohttp's client), and raw sockets for
requests a client library would tidy up (``..`` in the path).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from rawpeer import ClientChannel

from president.cli.web import static_files, web_server
from president.cli.web.qr import qr_lines
from president.cli.web.texts import LABELS, page_texts
from president.net.client import Client
from president.net.host import Host
from president.net.limits import Limits
from president.net.protocol import CLIENT, PROTOCOL_VERSION, pack
from president.net.table import Table, TableOptions
from president.net.web import WAITING_PER_ADDRESS, WebServer, origin_allowed

LOCAL = "127.0.0.1"


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 30))


@asynccontextmanager
async def serving(limits: Limits | None = None, **options: Any) -> AsyncIterator[
        tuple[Host, WebServer, Table]]:
    options.setdefault("seed", 7)
    table = Table(TableOptions(name="Kitchen", **options))
    host = Host([table], limits=limits)
    await host.start([LOCAL])
    web = web_server(host)
    await web.start([LOCAL])
    try:
        yield host, web, table
    finally:
        await host.stop()
        await web.stop()


async def join(ws: aiohttp.ClientWebSocketResponse, inbox: Inbox | None = None,
               name: str = "Ola", pin: str | None = None) -> dict[str, Any]:
    """Join over the WebSocket as the page does (hello, challenge, proof, the host's
    confirm): the verdict."""
    inbox = inbox or Inbox(ws)
    await ws.send_bytes(pack(inbox.channel.hello(name, pin, language="pl"), CLIENT))
    challenge = await inbox.next("challenge", "refused")
    if challenge["type"] == "refused":
        return challenge
    await inbox.send(inbox.channel.proof(challenge))
    return await inbox.next("welcome", "refused")


async def raw_get(port: int, path: str) -> tuple[int, bytes]:
    """An HTTP request with ``path`` sent exactly as written."""
    reader, writer = await asyncio.open_connection(LOCAL, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {LOCAL}:{port}\r\nConnection: close\r\n\r\n"
                 .encode())
    data = await reader.read()
    writer.close()
    status = int(data.split(b" ", 2)[1])
    return status, data


class Inbox:
    """What the host sent on one WebSocket, decoded as the terminal client decodes it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws, self.channel = ws, ClientChannel()
        self.waiting: list[dict[str, Any]] = []

    async def send(self, *msgs: dict[str, Any]) -> None:
        """Frames, sealed once the channel is."""
        await self.ws.send_bytes(self.channel.seal(b"".join(pack(m, CLIENT) for m in msgs)))

    async def next(self, *kinds: str) -> dict[str, Any]:
        """The next message of one of ``kinds`` (others before it are skipped)."""
        while True:
            while self.waiting:
                item = self.waiting.pop(0)
                if item["type"] in kinds:
                    return item
            msg = await self.ws.receive(timeout=10)
            assert msg.type is aiohttp.WSMsgType.BINARY, msg
            self.waiting.extend(self.channel.feed(msg.data))


async def receive(ws: aiohttp.ClientWebSocketResponse, inbox: Inbox | None,
                  kind: str) -> dict[str, Any]:
    return await (inbox or Inbox(ws)).next(kind)


def origin(web: WebServer) -> dict[str, str]:
    return {"Origin": f"http://{LOCAL}:{web.port}"}


# ------------------------------------------------------------ files


def test_the_page_and_its_files_come_from_the_package_folder_with_strict_headers() -> None:
    async def scenario() -> None:
        async with serving() as (_, web, _table), aiohttp.ClientSession() as http:
            async with http.get(f"http://{LOCAL}:{web.port}/") as page:
                assert page.status == 200
                assert page.content_type == "text/html"
                assert '<script type="module" src="/static/app.js">' in await page.text()
                policy = page.headers["Content-Security-Policy"]
                assert "connect-src 'self'" in policy and "default-src 'none'" in policy
                assert page.headers["X-Content-Type-Options"] == "nosniff"
                etag = page.headers["ETag"]
            async with http.get(f"http://{LOCAL}:{web.port}/", headers={"If-None-Match": etag}) \
                    as again:
                assert again.status == 304
            for name in static_files().files:
                async with http.get(f"http://{LOCAL}:{web.port}/static/{name}") as reply:
                    assert reply.status == 200, name
            async with http.get(f"http://{LOCAL}:{web.port}/static/app.js") as script:
                assert script.content_type == "text/javascript"
                assert "import" in await script.text()
    run(scenario())


@pytest.mark.parametrize("path", [
    "/static/../../pyproject.toml",
    "/static/..%2f..%2fpyproject.toml",
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..\\..\\pyproject.toml",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/texts.py",
    "/static/__init__.py",
    "/static/",
    "/../net/web.py",
    "/texts/../../pyproject.toml.json",
    "/texts/xx.json",
    "/texts/..%2fpl.json",
])
def test_path_tricks_name_no_file(path: str) -> None:
    async def scenario() -> None:
        async with serving() as (_, web, _table):
            status, data = await raw_get(web.port, path)
            assert status in (400, 404), (path, status)
            assert b"[project]" not in data and b"root:" not in data
            assert b"import" not in data.partition(b"\r\n\r\n")[2]
    run(scenario())


def test_only_the_static_folder_is_served() -> None:
    files = static_files().files
    assert {"index.html", "app.js", "style.css", "vendor.js", "session.js"} <= set(files)
    assert not any(name.endswith(".py") for name in files)


# ------------------------------------------------------------ texts


def test_texts_are_the_catalogs_translations_with_their_plural_rule() -> None:
    polish = json.loads(page_texts("pl") or b"")
    italian = json.loads(page_texts("it") or b"")
    english = json.loads(page_texts("en") or b"")
    assert polish["nplurals"] == 3 and "n%10>=2" in polish["plural"]
    assert len(polish["plurals"]["count.cards"]) == 3
    assert polish["plurals"]["count.cards"][2] == "{count} kart"
    role = "role.classic.president"
    assert english["texts"][role] == "President"
    assert polish["texts"][role] != "President" and italian["texts"][role] != "President"
    # every label translated in every language (the catalog test checks the words)
    for data in (polish, italian):
        for key, message in LABELS.items():
            if message.strip("{}:()") != message.strip("{}:()").lower() or "{" not in message:
                assert data["texts"][f"label.{key}"], key
    assert page_texts("xx") is None


def test_the_texts_route_serves_each_language_and_nothing_else() -> None:
    async def scenario() -> None:
        async with serving() as (_, web, _table), aiohttp.ClientSession() as http:
            async with http.get(f"http://{LOCAL}:{web.port}/texts/nl.json") as reply:
                data = await reply.json()
                assert data["language"] == "nl"
                assert data["texts"]["rank_letter.K"] == "H"
            async with http.get(f"http://{LOCAL}:{web.port}/texts/de.json") as reply:
                assert reply.status == 404
            async with http.get(f"http://{LOCAL}:{web.port}/tables.json") as reply:
                tables = await reply.json()
                assert tables == [{"id": "main", "name": "Kitchen", "seats": 4, "taken": 0,
                                   "started": False, "over": False, "pin": False}]
    run(scenario())


def test_a_tables_rules_come_in_the_terminals_words_for_every_rule_and_language() -> None:
    """The rules dialog's words are the terminal's (``Text.rule_rows``): a value for every
    rule (issue 26: twelve read 'undefined' at a Classic table), 404 for another table."""
    from president.cli.text import Text
    from president.rules import ALLOWED, preset

    async def scenario() -> None:
        async with serving(rules=preset("classic")) as (_, web, _table), \
                aiohttp.ClientSession() as http:
            for language in ("en", "it", "nl", "pl"):
                url = f"http://{LOCAL}:{web.port}/tables/main/{language}.json"
                async with http.get(url) as reply:
                    words = await reply.json()
                rows = Text(language).rule_rows(preset("classic"))
                assert [rule["field"] for rule in words["rules"]] == list(ALLOWED)
                assert words["rules"] == [row._asdict() for row in rows]
                assert all(rule["value"] and rule["name"] for rule in words["rules"])
                assert len(words["roles"]) == 4 and words["preset"]
            for missing in ("/tables/other/en.json", "/tables/main/de.json"):
                async with http.get(f"http://{LOCAL}:{web.port}{missing}") as reply:
                    assert reply.status == 404
    run(scenario())


def test_the_tv_view_speaks_the_hosts_language_and_keeps_a_pin_tables_game_at_home() -> None:
    """/tv and /tv.json: the seats in the terminal's words, in the host's language unless
    asked for another; a table with a PIN is shown to the host's own screen only."""
    from president.cli.text import Text
    from president.cli.web.tv import tv_texts

    async def scenario() -> None:
        async with serving(pin="12") as (host, _web, table), aiohttp.ClientSession() as http:
            web = web_server(host, language="pl")
            await web.start([LOCAL])
            try:
                async with http.get(f"http://{LOCAL}:{web.port}/tv") as reply:
                    assert reply.status == 200 and "/static/tv.js" in await reply.text()
                for query, language in (("", "pl"), ("?lang=nl", "nl")):
                    async with http.get(f"http://{LOCAL}:{web.port}/tv.json{query}") as reply:
                        data = await reply.json()
                    assert data["language"] == language and len(data["seats"]) == 4
                    assert data["waiting"] == Text(language).tr.gettext(
                        "Waiting for players: {taken} of {total} seats taken.").format(
                        taken=0, total=4)
                    assert data["join_url"] == web.urls([LOCAL])[0]  # with the host key
                    assert data["qr"].startswith("data:image/svg+xml")
                async with http.get(f"http://{LOCAL}:{web.port}/tv.json?lang=xx") as reply:
                    assert reply.status == 404
            finally:
                await web.stop()
            far = json.loads(tv_texts(table, "it", "http://192.168.1.20:8080/", False) or b"")
            assert set(far) == {"locked", "language"}  # no seat, no name, no pile

    run(scenario())


# ------------------------------------------------------------ the WebSocket


@pytest.mark.parametrize(("origin_header", "host_header", "allowed"), [
    ("http://192.168.1.20:8080", "192.168.1.20:8080", True),
    ("http://[fe80::1]:8080", "[fe80::1]:8080", True),
    ("http://127.0.0.1:8080", "127.0.0.1:8080", True),
    ("http://localhost:8080", "localhost:8080", True),
    ("http://kitchen.local:8080", "kitchen.local:8080", True),   # one of our names
    ("http://evil.example:8080", "evil.example:8080", False),    # a re-pointed name
    ("http://192.168.1.66", "192.168.1.20:8080", False),         # another page on the LAN
    ("http://192.168.1.20:9999", "192.168.1.20:8080", False),
    ("null", "192.168.1.20:8080", False),
    (None, "192.168.1.20:8080", False),
    ("http://192.168.1.20:8080", None, False),
])
def test_the_websocket_origin_must_be_the_page_this_host_served(
        origin_header: str | None, host_header: str | None, allowed: bool) -> None:
    assert origin_allowed(origin_header, host_header, {"localhost", "kitchen.local"}) is allowed


def test_a_websocket_from_another_origin_is_refused_before_any_frame() -> None:
    async def scenario() -> None:
        async with serving() as (_, web, table), aiohttp.ClientSession() as http:
            for headers in ({"Origin": "http://evil.example"}, {}):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(f"http://{LOCAL}:{web.port}/ws", headers=headers)
                assert refused.value.status == 403
            assert table.taken == 0
    run(scenario())


def test_a_websocket_speaks_the_table_protocol_like_a_socket() -> None:
    async def scenario() -> None:
        async with serving(bots=3, bot_delay=0.0) as (host, web, table), \
                aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"http://{LOCAL}:{web.port}/ws", headers=origin(web))
            decoder = Inbox(ws)
            frame = pack(decoder.channel.hello("Ola", language="pl"), CLIENT)
            await ws.send_bytes(frame[:3])   # a frame may span messages
            await ws.send_bytes(frame[3:])
            challenge = await receive(ws, decoder, "challenge")
            await decoder.send(decoder.channel.proof(challenge))
            welcome = await receive(ws, decoder, "welcome")
            assert welcome["seat"] == 0 and len(welcome["token"]) == 32
            state = await receive(ws, decoder, "state")
            view = state["view"]
            assert view["seat"] == 0 and len(view["hand"].split()) == 13
            assert table.seats[0].language == "pl"
            # an action the rules refuse: the engine's reason, the connection stays open
            await decoder.send({"type": "pass", "id": 5}, {"type": "ping", "nonce": 9})
            assert view["turn"] == 0  # seed 7: seat 0 leads
            pong = await receive(ws, decoder, "pong")  # answered at once, before the table
            assert pong["nonce"] == 9
            refused = await receive(ws, decoder, "refused")
            assert refused == {"type": "refused", "id": 5, "code": "must_lead",
                               "params": {"phase": "play"}}
            assert len(host.connections) == 1
            await ws.close()
    run(scenario())


def test_a_text_message_or_an_oversized_frame_closes_only_that_websocket() -> None:
    async def scenario() -> None:
        async with serving() as (host, web, table), aiohttp.ClientSession() as http:
            url = f"http://{LOCAL}:{web.port}/ws"
            texting = await http.ws_connect(url, headers=origin(web))
            await texting.send_str("hello")
            refused = await receive(texting, None, "refused")
            assert refused["code"] == "malformed"
            big = await http.ws_connect(url, headers=origin(web))
            await big.send_bytes((64 * 1024).to_bytes(4, "big"))  # a header alone
            refused = await receive(big, None, "refused")
            assert refused["code"] == "frame_too_large"
            assert refused["params"]["limit"] == 8 * 1024
            fine = await http.ws_connect(url, headers=origin(web))
            assert (await join(fine))["seat"] == 0
            assert table.taken == 1
    run(scenario())


def test_websockets_and_sockets_share_the_per_address_connection_limit() -> None:
    async def scenario() -> None:
        async with serving(Limits(per_address=2)) as (host, web, _table), \
                aiohttp.ClientSession() as http:
            _reader, writer = await asyncio.open_connection(LOCAL, host.port)
            url = f"http://{LOCAL}:{web.port}/ws"
            first = await http.ws_connect(url, headers=origin(web))
            assert (await join(first, name="A"))["type"] == "welcome"
            second = await http.ws_connect(url, headers=origin(web))
            refused = await receive(second, None, "refused")
            assert refused["code"] == "too_many_connections"
            writer.close()
    run(scenario())


def test_a_wrong_pin_over_the_websocket_is_refused_as_over_tcp() -> None:
    async def scenario() -> None:
        async with serving(pin="4321") as (_, web, table), aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"http://{LOCAL}:{web.port}/ws", headers=origin(web))
            refused = await join(ws, pin="1111")
            assert refused["code"] == "wrong_pin"
            assert table.taken == 0
    run(scenario())


# ------------------------------------------------------------ the QR code


def test_the_qr_code_lines_hold_the_matrix_of_the_url() -> None:
    import segno

    url = "http://192.168.1.20:8765/"
    lines = qr_lines(url)
    matrix = [[bool(m) for m in row] for row in segno.make(url, error="l").matrix_iter(border=2)]
    top = {"█": True, "▀": True, "▄": False, " ": False}
    bottom = {"█": True, "▀": False, "▄": True, " ": False}
    rebuilt = []
    for line in lines:
        rebuilt.append([top[c] for c in line])
        rebuilt.append([bottom[c] for c in line])
    assert rebuilt[:len(matrix)] == matrix


def test_the_lobby_waiting_room_shows_where_phones_open_the_page() -> None:
    from president.cli.terminal.layout import players_height, waiting_fragments
    from president.cli.terminal.model import TableModel
    from president.cli.ui_text import load_texts

    tr, text = load_texts("pl")
    model = TableModel(tr, text)
    model.address, model.web_url = "10.0.0.2:4000", "http://10.0.0.2:4001/"
    model.table = Table(TableOptions(name="Kitchen", seats=4, bots=2)).info()
    shown = "".join(str(fragment[1]) for fragment in waiting_fragments(model))
    assert "http://10.0.0.2:4001/" in shown and "Telefony" in shown
    assert players_height(model) >= shown.count("\n")


def test_the_page_speaks_the_hosts_protocol_version() -> None:
    import re
    from pathlib import Path

    import president.cli.web as page
    wire = (Path(page.__file__).parent / "static" / "wire.js").read_text()
    found = re.search(r"PROTOCOL_VERSION = (\d+);", wire)
    assert found and int(found.group(1)) == PROTOCOL_VERSION


@pytest.mark.slow
def test_half_open_requests_wait_at_the_door_and_leave_at_its_deadline() -> None:
    """Requests whose head never ends (a slow flood) are held at most WAITING_PER_ADDRESS
    per address, each for the door's deadline: the rest are closed at once, a player joins
    the game's port meanwhile, and the page is served again once they are gone."""
    async def scenario() -> tuple[int, int, str, int]:
        async with serving() as (host, web, _table):
            web.door.deadline = 0.5
            half_open = []
            for _ in range(web.door.per_address + 24):
                reader, writer = await asyncio.open_connection(LOCAL, web.port)
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")   # and never the blank line
                half_open.append((reader, writer))
            await asyncio.sleep(0.1)
            turned_away = 0
            for reader, writer in half_open[web.door.per_address:]:
                turned_away += await asyncio.wait_for(reader.read(), 2) == b""
                writer.close()
            player = Client(LOCAL, host.port, "Ann", reconnect=False)
            await player.connect()                              # the game's port is open
            await asyncio.sleep(0.8)                            # the deadline has passed
            closed = 0
            for reader, writer in half_open[:web.door.per_address]:
                closed += await asyncio.wait_for(reader.read(), 2) == b""
                writer.close()
            status, _ = await raw_get(web.port, "/")
            await player.close()
            return turned_away, closed, player.status, status

    turned_away, closed, status, page = run(scenario())
    assert turned_away == 24 and closed == WAITING_PER_ADDRESS
    assert status == "closed" and page == 200  # the player had joined, then left
