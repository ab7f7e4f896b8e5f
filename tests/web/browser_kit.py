"""A host on 127.0.0.1 in a thread, and Debian's headless Chromium driven by Selenium.

The browser comes from Debian (``apt-get install chromium chromium-driver``); nothing is
downloaded: the driver's path is given, so Selenium Manager never runs, and the browser
sends anything not for 127.0.0.1 to a dead proxy and resolves no other name.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

from president import engine
from president.actions import Pass, Play
from president.cli.web import web_server
from president.combos import strengths
from president.net import host as host_module
from president.net.channel import CLIENT_RECORD, HOST_RECORD, Incoming
from president.net.host import Host
from president.net.pake import HostHandshake, HostSecrets, Keys
from president.net.protocol import CLIENT, HOST
from president.net.table import Table, TableOptions
from president.net.web import WebServer

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
LOCAL = "127.0.0.1"
PHONE = {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True}
T = TypeVar("T")


def browser_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (it comes with the test extra)"
    return None


def wait(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
    """Poll ``predicate`` until it gives something true."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)


class HostThread:
    """A table, its host and its web server, on an event loop of their own."""

    def __init__(self, web_port: int = 0, **options: Any) -> None:
        options.setdefault("seed", 7)
        options.setdefault("ready_timeout", 0)
        self.table = Table(TableOptions(**options))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.host = Host([self.table])
        self.web: WebServer = web_server(self.host)
        self.port = self.call(self.host.start([LOCAL]))
        self.web_port = self.call(self.web.start([LOCAL], web_port))
        self.url = f"http://{LOCAL}:{self.web_port}/"

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def seat_of(self, name: str) -> int | None:
        return next((s.index for s in self.table.seats if s.name == name), None)

    def stop(self) -> None:
        try:
            self.call(self.host.stop())
            self.call(self.web.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


def make_browser(language: str | None = None, frames: bool = False) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="president-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-extensions",
                 "--disable-default-apps", "--no-default-browser-check",
                 f"--user-data-dir={profile}",
                 # nothing but 127.0.0.1 is reachable (loopback bypasses the proxy)
                 "--proxy-server=127.0.0.1:9",
                 "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):
        options.add_argument(flag)
    if language:
        options.add_argument(f"--lang={language}")
    if frames:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    else:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    os.environ.setdefault("SE_OFFLINE", "true")   # belt and braces: no Selenium Manager
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.profile_dir = profile
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    return driver


def close_browser(driver: Any) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver.profile_dir, ignore_errors=True)


# ------------------------------------------------------------ the page, as a player uses it


def by_id(driver: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, element_id)


def join(driver: Any, url: str, name: str, language: str, spectate: bool = False,
         seated: bool = True, pin: str | None = None, script: str = "") -> None:
    """Open the page, choose the language, type the name (and PIN) and join; ``script``
    runs in the page first (e.g. stubs of browser APIs the test watches)."""
    from selenium.webdriver.support.ui import Select

    driver.get(url)
    wait(lambda: by_id(driver, "join-screen").is_displayed(), what="the join form")
    if script:
        driver.execute_script(script)
    Select(by_id(driver, "join-language")).select_by_value(language)
    wait(lambda: driver.execute_script("return document.documentElement.lang") == language)
    field = by_id(driver, "join-name")
    field.clear()
    field.send_keys(name)
    if pin is not None:
        by_id(driver, "join-pin").send_keys(pin)
    by_id(driver, "join-watch" if spectate else "join-play").click()
    if seated:
        wait(lambda: by_id(driver, "table-screen").is_displayed(), what="the table")


def hand_on_page(driver: Any) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#hand [data-card]')].map(b => b.dataset.card)")


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.execute_script(
        "return document.getElementById(arguments[0]).textContent", element_id))


def choose(host: HostThread, seat: int) -> Play | Pass:
    """A move for ``seat`` as a quick player would: the lowest legal play, else pass."""
    state = host.table.state
    assert state is not None
    legal = engine.legal_actions(state, seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Pass(seat)
    table = strengths(state.rules.rank_order, state.reversed)
    return min(plays, key=lambda a: (max(table[c.rank] for c in a.cards), -len(a.cards)))


def tap(driver: Any, selector: str) -> None:
    """Click the element ``selector`` finds, found again if the page redrew it meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(5):
        try:
            driver.find_element("css selector", selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    driver.find_element("css selector", selector).click()


def play_turn(driver: Any, host: HostThread, seat: int) -> None:
    """Tap the cards of a move, then Play (or tap Pass), and wait for the host to take it."""
    version = host.table.version
    action = choose(host, seat)
    state = host.table.state
    assert state is not None
    held = sorted(str(c) for c in state.hands[seat])
    # (the page may still show the turn it just played when the others were quicker than
    # its redraw: its hand tells the turns apart when it played cards)
    wait(lambda: driver.execute_script("return document.body.classList.contains('my-turn')")
         and sorted(hand_on_page(driver)) == held, what="my turn, with the host's hand")
    if isinstance(action, Play):
        for card in action.cards:
            tap(driver, f"#hand [data-card='{card}'][aria-pressed='false']")
        tap(driver, "#act-main")
    else:
        tap(driver, "#act-pass")
    wait(lambda: host.table.version > version, what=f"the host to take {action}")


def my_turn(host: HostThread, seat: int) -> bool:
    state = host.table.state
    return state is not None and state.phase.value == "play" and state.turn == seat


# The channel's keys of every handshake a host of this process made, by the client's share:
# what lets a test read the sealed frames Chrome records (net/channel.py).
KEYS: dict[bytes, Keys] = {}


class _RecordedHandshake(HostHandshake):
    def __init__(self, secrets_: HostSecrets, client_share: bytes, identity: bytes) -> None:
        super().__init__(secrets_, client_share, identity)
        KEYS[bytes(client_share)] = self.keys


host_module.HostHandshake = _RecordedHandshake  # type: ignore[misc]


class _Socket:
    """One WebSocket's two byte streams as Chrome recorded them, opened with the keys its
    host recorded (``KEYS``)."""

    def __init__(self) -> None:
        self.sent, self.received = Incoming(CLIENT), Incoming(HOST)
        self.keys: Keys | None = None

    def read(self, incoming: Incoming, data: bytes) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        while maps := incoming.feed_maps(data):
            data = b""
            for msg in maps:
                if msg["type"] == "hello":
                    self.keys = KEYS.get(msg["share"])
                elif msg["type"] == "proof" and self.keys is not None:
                    self.sent.seal(self.keys.client_to_host, CLIENT_RECORD)
                elif msg["type"] == "confirm" and self.keys is not None:
                    self.received.seal(self.keys.host_to_client, HOST_RECORD)
            got += maps
        return got


def _ws_log(driver: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bytes]:
    """What the page sent and received over its WebSockets since the log was last read
    (Chrome's own record of the frames), decoded as the terminal client decodes them, and
    the bytes it sent."""
    sockets: dict[str, _Socket] = driver.__dict__.setdefault("president_sockets", {})
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []
    raw = b""
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        method, params = message["method"], message["params"]
        if method == "Network.webSocketCreated":
            sockets[params["requestId"]] = _Socket()   # a new connection: new streams
        if method not in ("Network.webSocketFrameReceived", "Network.webSocketFrameSent"):
            continue
        socket = sockets.setdefault(params["requestId"], _Socket())
        response = params["response"]
        assert response["opcode"] == 2, response  # binary frames only
        data = base64.b64decode(response["payloadData"])
        if method == "Network.webSocketFrameSent":
            raw += data
            sent += socket.read(socket.sent, data)
        else:
            received += socket.read(socket.received, data)
    return sent, received, raw


def ws_frames(driver: Any) -> list[dict[str, Any]]:
    """Every message the page received over its WebSockets since the log was read."""
    return _ws_log(driver)[1]


def ws_sent(driver: Any) -> tuple[list[dict[str, Any]], bytes]:
    """Every message the page sent over its WebSockets, and their bytes (the log is read:
    ``ws_frames`` after this sees only later frames)."""
    sent, _, raw = _ws_log(driver)
    return sent, raw


def skip_without_browser() -> pytest.MarkDecorator:
    reason = browser_missing()
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def browser_test_marks() -> list[pytest.MarkDecorator]:
    """A browser test module's marks: slow, skipped without Chromium, and where a private
    network namespace can be made, run only inside one (by test_browser_in_netns.py)."""
    from netns import in_private_netns, netns_available

    return [skip_without_browser(), pytest.mark.slow, pytest.mark.skipif(
        netns_available() and not in_private_netns(),
        reason="run inside a private network namespace by test_browser_in_netns.py")]


@contextmanager
def checked_browser(frames: bool = False, allowed: str | None = None) -> Iterator[Any]:
    """A browser whose test fails on any script error or failed request (a SEVERE line of
    its console; one that mentions ``allowed`` aside)."""
    driver = make_browser(frames=frames)
    try:
        yield driver
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and (allowed is None or allowed not in entry["message"])]
    finally:
        close_browser(driver)
    assert errors == [], errors   # no script error, no failed request
