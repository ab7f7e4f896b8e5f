"""Find tables on the LAN: advertise ``_president._tcp.local.`` and browse it.

The host's TXT record carries what a lobby lists: ``name``, ``seats``
("taken/total"), ``preset``, ``proto`` (protocol version) and ``pin`` ("1"/"0").
It is re-announced as seats fill, and ``stop()`` says goodbye. The browser
reads TXT records defensively: a record that does not parse (another device,
another version) is skipped, never raised. ``parse_address`` is the manual
``host:port`` join for networks that block multicast.

``interfaces`` are the IP addresses zeroconf binds to; ``None`` (or a list
holding 0.0.0.0 or ::) means every interface of the machine (python-zeroconf's
``InterfaceChoice.All``): in tests, only ever inside a network namespace.
A host that dies without a goodbye disappears once its records expire and a
re-query gets no answer (``DEFAULT_TTL``, ``CHECK_INTERVAL``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from zeroconf import InterfaceChoice, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from president.errors import DiscoveryError

if TYPE_CHECKING:
    from president.net.table import Table

SERVICE_TYPE = "_president._tcp.local."

# A host that dies without a goodbye must leave the lobby within minutes. Its
# records live 2 minutes (RFC 6762 suggests 75 for PTR/TXT, and python-zeroconf
# browsers stretch a PTR to 1125 s anyway), and every CHECK_INTERVAL seconds the
# browser re-resolves the tables whose records expired: no answer, no table.
DEFAULT_TTL = 120
CHECK_INTERVAL = 15.0
RESOLVE_TIMEOUT_MS = 3000
MAX_TABLES = 256                # a flood of records cannot grow the lobby forever
TXT_ENTRY_MAX = 255             # bytes of one "key=value" TXT string
LABEL_MAX = 63                  # bytes of a DNS label (the instance name)
TABLE_NAME_MAX = 63
PRESET_MAX = 32
SEATS_MAX = 99

class Change(StrEnum):
    """What happened to a table seen on the LAN."""

    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"


ADDED, UPDATED, REMOVED = Change.ADDED, Change.UPDATED, Change.REMOVED

log = logging.getLogger(__name__)

Interfaces = list[str] | None
TableEvent = tuple[Change, "TableInfo"]


# ------------------------------------------------------------------ table info


@dataclass(frozen=True)
class TableInfo:
    """One table seen on the network, as the lobby lists it."""

    instance: str               # the zeroconf service name, unique on the LAN
    name: str                   # the table's name, to show
    addresses: list[str]
    port: int
    seats_taken: int
    seats_total: int
    preset: str
    protocol: int
    pin_required: bool
    key: str | None = None      # the host key's fingerprint (net/pake.py), as advertised
    late_seat: bool = False     # started, and a newcomer would get a bot's seat
    late_ask: bool = False      # ... once the table's owner says yes

    @property
    def full(self) -> bool:
        return self.seats_taken >= self.seats_total

    @property
    def watch_only(self) -> bool:
        """Every seat is taken and none is a bot's to take: a newcomer may only watch."""
        return self.full and not self.late_seat


_SEATS = re.compile(r"([0-9]{1,2})/([0-9]{1,2})", re.ASCII)
_DIGITS = re.compile(r"[0-9]{1,6}", re.ASCII)
_FINGERPRINT = re.compile(r"[0-9a-f]{64}", re.ASCII)


def _bad(instance: str, field: str) -> DiscoveryError:
    return DiscoveryError("bad_record", instance=instance, field=field)


def _text(instance: str, props: Mapping[bytes, bytes | None], key: str,
          low: int, high: int) -> str:
    raw = props.get(key.encode())
    if raw is None:
        raise _bad(instance, key)
    try:
        value = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(instance, key) from None
    # isprintable() rejects control characters, escape sequences and bidi overrides
    if not low <= len(value) <= high or not value.isprintable():
        raise _bad(instance, key)
    return value


def _address(text: str) -> str | None:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if address.is_unspecified or address.is_multicast:
        return None
    return text


def table_from_record(instance: str, properties: Mapping[bytes, bytes | None],
                      addresses: Sequence[str], port: int | None) -> TableInfo:
    """Build a ``TableInfo`` from a resolved record; ``DiscoveryError`` if it is not one."""
    name = _text(instance, properties, "name", 1, TABLE_NAME_MAX)
    seats = _SEATS.fullmatch(_text(instance, properties, "seats", 3, 5))
    if seats is None:
        raise _bad(instance, "seats")
    taken, total = int(seats[1]), int(seats[2])
    if not (1 <= total <= SEATS_MAX and 0 <= taken <= total):
        raise _bad(instance, "seats")
    preset = _text(instance, properties, "preset", 0, PRESET_MAX)
    proto = _text(instance, properties, "proto", 1, 6)
    if not _DIGITS.fullmatch(proto):
        raise _bad(instance, "proto")
    pin = _text(instance, properties, "pin", 1, 1)
    if pin not in ("0", "1"):
        raise _bad(instance, "pin")
    if port is None or not 1 <= port <= 65535:
        raise _bad(instance, "port")
    valid = [a for a in addresses if _address(a) is not None]
    if not valid:
        raise _bad(instance, "addresses")
    valid.sort(key=lambda a: ":" in a)      # IPv4 first, order otherwise kept
    key = None
    if properties.get(b"key") is not None:
        key = _text(instance, properties, "key", 64, 64)
        if not _FINGERPRINT.fullmatch(key):
            raise _bad(instance, "key")
    late = properties.get(b"late")
    return TableInfo(instance=instance, name=name, addresses=valid, port=port,
                     seats_taken=taken, seats_total=total, preset=preset,
                     protocol=int(proto), pin_required=pin == "1", key=key,
                     late_seat=late in (b"1", b"ask"), late_ask=late == b"ask")


def txt_properties(name: str, seats_taken: int, seats_total: int, preset: str,
                   protocol: int, pin_required: bool, key: str | None = None,
                   late_seat: bool = False, late_ask: bool = False) -> dict[str, str]:
    """The TXT properties a host advertises (the inverse of ``table_from_record``)."""
    properties = {"name": name, "seats": f"{seats_taken}/{seats_total}", "preset": preset,
                  "proto": str(protocol), "pin": "1" if pin_required else "0"}
    if late_seat:
        properties["late"] = "ask" if late_ask else "1"
    return properties if key is None else {**properties, "key": key}


def table_properties(table: Table) -> dict[str, str]:
    """The TXT properties of a table the host serves."""
    from president.net.protocol import PROTOCOL_VERSION

    return txt_properties(table.options.name, table.taken, len(table.seats),
                          table.options.preset, PROTOCOL_VERSION, bool(table.options.pin),
                          late_seat=table.late_seat_open,
                          late_ask=table.options.late_arrivals == "ask")


def follow(advertiser: TableAdvertiser, table: Table) -> None:
    """Re-announce ``table``'s TXT record whenever its seats or state change."""
    pending: set[asyncio.Task[Any]] = set()

    def changed(table: Table) -> None:
        task = asyncio.ensure_future(advertiser.update(table_properties(table)))
        pending.add(task)
        task.add_done_callback(pending.discard)

    table.on_change = changed


# ------------------------------------------------------------- manual join


_HOSTNAME = re.compile(
    r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9_-]{1,63}(?<!-))*\.?", re.ASCII)
_PORT = re.compile(r"[0-9]{1,5}", re.ASCII)


def parse_address(text: str, default_port: int | None = None) -> tuple[str, int]:
    """Parse ``host:port``, ``[v6]:port`` (or a bare host with ``default_port``).

    Raises ``DiscoveryError`` with code address_empty, address_no_port,
    address_bad_port, address_bad_host or address_ipv6_needs_brackets.
    """
    raw = text.strip()
    if not raw:
        raise DiscoveryError("address_empty", address=text)
    port_text: str | None
    if raw.startswith("["):
        host, bracket, rest = raw[1:].partition("]")
        if not bracket or ":" not in host or _address(host.split("%")[0]) is None:
            raise DiscoveryError("address_bad_host", address=text)
        if rest and not rest.startswith(":"):
            raise DiscoveryError("address_bad_host", address=text)
        port_text = rest[1:] if rest else None
    elif raw.count(":") > 1:
        raise DiscoveryError("address_ipv6_needs_brackets", address=text)
    else:
        host, colon, port_part = raw.partition(":")
        port_text = port_part if colon else None
        numeric = host.replace(".", "").isdigit()    # 10.0.0.256 is no name either
        if not (_is_ipv4(host) or (not numeric and len(host) <= 253
                                   and _HOSTNAME.fullmatch(host))):
            raise DiscoveryError("address_bad_host", address=text)
    if port_text is None:
        if default_port is None:
            raise DiscoveryError("address_no_port", address=text)
        return host, default_port
    if not _PORT.fullmatch(port_text) or not 1 <= int(port_text) <= 65535:
        raise DiscoveryError("address_bad_port", address=text, port=port_text)
    return host, int(port_text)


def _is_ipv4(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).version == 4
    except ValueError:
        return False


def format_address(host: str, port: int) -> str:
    """The inverse of ``parse_address``: ``host:port``, brackets around IPv6."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# ------------------------------------------------------------------- helpers


def local_addresses() -> list[str]:
    """The machine's IPv4 addresses except loopback (what a host advertises by default)."""
    import ifaddr  # a dependency of zeroconf

    found = {ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str)}
    return sorted(a for a in found if not ipaddress.ip_address(a).is_loopback)


def reachable_addresses(interfaces: list[str] | None) -> list[str]:
    """Where others reach a host listening on ``interfaces`` (None: every interface,
    so the machine's addresses); 127.0.0.1 when there is nothing else."""
    if interfaces:
        return [a for a in interfaces if a not in ("0.0.0.0", "::")] or ["127.0.0.1"]
    try:
        return local_addresses() or ["127.0.0.1"]
    except Exception:  # no adapters listed
        return ["127.0.0.1"]


def zeroconf_interfaces(interfaces: Interfaces) -> InterfaceChoice | list[str]:
    """What zeroconf binds to: None, or a list holding 0.0.0.0 or ::, means all."""
    if interfaces is None or any(_is_unspecified(a) for a in interfaces):
        return InterfaceChoice.All
    return list(interfaces)


def _is_unspecified(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).is_unspecified
    except ValueError:
        return False


def _zeroconf(interfaces: Interfaces) -> AsyncZeroconf:
    return AsyncZeroconf(interfaces=zeroconf_interfaces(interfaces))


def _future(announcing: Awaitable[Any]) -> asyncio.Future[Any]:
    """The announcement zeroconf runs in the background (a task: it can be cancelled)."""
    return asyncio.ensure_future(announcing)


def _truncate_utf8(text: str, limit: int) -> str:
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def _txt(properties: Mapping[str, str]) -> dict[str, str]:
    """Check keys; cut values so that each ``key=value`` fits one TXT string."""
    out: dict[str, str] = {}
    for key, value in properties.items():
        if not (key and key.isascii() and key.isprintable() and "=" not in key):
            raise DiscoveryError("bad_txt_key", key=key)
        out[key] = _truncate_utf8(str(value), TXT_ENTRY_MAX - len(key) - 1)
    return out


# ---------------------------------------------------------------- advertiser


class _StartStop:
    """``async with``: ``start()`` on entry, ``stop()`` on exit."""

    async def start(self) -> None:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.stop()


class TableAdvertiser(_StartStop):
    """Advertise one table; ``update`` re-announces the TXT record, ``stop`` says goodbye.

    The instance name is the table name plus a random suffix, so two tables
    with one name on one LAN stay distinct; lobbies show the TXT ``name``.
    An empty ``addresses`` means the bound ``interfaces``, or every non-loopback
    IPv4 address of the machine; ``0.0.0.0`` expands the same way.
    """

    def __init__(self, name: str, port: int, addresses: list[str],
                 properties: dict[str, str], interfaces: list[str] | None = None,
                 *, ttl: int = DEFAULT_TTL) -> None:
        if not 1 <= port <= 65535:
            raise DiscoveryError("bad_port", port=port)
        self.name = name
        self.port = port
        self.interfaces = None if interfaces is None else list(interfaces)
        self.addresses = self._advertised(addresses)
        self.ttl = ttl
        self._properties = _txt({"name": name, **properties})
        suffix = secrets.token_hex(3)
        clean = "".join(c if c.isprintable() and c != "." else " " for c in name).strip()
        label = f"{_truncate_utf8(clean or 'table', LABEL_MAX - 9).strip()} ({suffix})"
        self.instance = f"{label}.{SERVICE_TYPE}"
        self._server = f"president-{suffix}.local."
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._announce: asyncio.Future[Any] | None = None
        self._published: dict[str, str] = {}

    def _advertised(self, addresses: list[str]) -> list[str]:
        wanted = list(addresses) or list(self.interfaces or [])
        out: list[str] = []
        for text in wanted or ["0.0.0.0"]:
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                raise DiscoveryError("bad_address", address=text) from None
            for a in local_addresses() if address.is_unspecified else [text]:
                if a not in out:
                    out.append(a)
        if not out:
            raise DiscoveryError("no_addresses")
        return out

    @property
    def properties(self) -> dict[str, str]:
        return dict(self._properties)

    def _make_info(self) -> AsyncServiceInfo:
        self._published = dict(self._properties)
        return AsyncServiceInfo(
            SERVICE_TYPE, self.instance, port=self.port, properties=self._published,
            server=self._server, host_ttl=self.ttl, other_ttl=self.ttl,
            parsed_addresses=self.addresses)

    async def start(self) -> None:
        """Probe the name and register; the announcements go on in the background."""
        if self._zc is not None:
            raise DiscoveryError("already_started")
        zc = self._zc = _zeroconf(self.interfaces)
        info = self._make_info()
        try:
            self._announce = _future(await zc.async_register_service(info,
                                                                     allow_name_change=True))
        except BaseException:
            self._zc = None
            await zc.async_close()
            raise
        self.instance = info.name       # renamed if the name was taken
        self._info = info
        if self._published != self._properties:    # update() called while probing
            await self._republish()

    async def update(self, properties: dict[str, str]) -> None:
        """Merge ``properties`` into the TXT record and re-announce it (not awaited)."""
        self._properties = _txt({**self._properties, **properties})
        if self._info is not None and self._published != self._properties:
            await self._republish()

    async def _republish(self) -> None:
        assert self._zc is not None
        if self._announce is not None:
            self._announce.cancel()     # the new announcement supersedes it
        self._info = self._make_info()
        self._announce = _future(await self._zc.async_update_service(self._info))

    async def stop(self) -> None:
        """Send goodbye packets and close; safe to call twice."""
        zc, info, announce = self._zc, self._info, self._announce
        self._zc = self._info = self._announce = None
        if zc is None:
            return
        if announce is not None:
            announce.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await announce
        try:
            if info is not None:
                await (await zc.async_unregister_service(info))
        finally:
            await zc.async_close()


# ------------------------------------------------------------------ browser


class TableBrowser(_StartStop):
    """Tables on the network, live: ``tables``, ``on_change`` and ``events()``.

    ``on_change`` receives a copy of ``tables`` after every change. A table
    goes away on its host's goodbye, or when its records expire and the host
    does not answer (checked every ``check_interval`` seconds).
    ``events()`` (or ``async for`` on the browser) yields ("added" | "updated" |
    "removed", TableInfo): first an "added" for each table known when the
    iteration begins, then every change; it ends when the browser stops
    (``stop`` also empties ``tables``).
    """

    def __init__(self, interfaces: list[str] | None = None,
                 on_change: Callable[[dict[str, TableInfo]], None] | None = None,
                 *, check_interval: float = CHECK_INTERVAL) -> None:
        self.interfaces = None if interfaces is None else list(interfaces)
        self.on_change = on_change
        self.check_interval = check_interval
        self._checker: asyncio.Task[None] | None = None
        self._tables: dict[str, TableInfo] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._subscribers: list[asyncio.Queue[TableEvent | None]] = []
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._stopped = False

    @property
    def tables(self) -> dict[str, TableInfo]:
        """The tables seen now, by instance name (a copy)."""
        return dict(self._tables)

    async def start(self) -> None:
        if self._zc is not None:
            raise DiscoveryError("already_started")
        self._stopped = False
        self._zc = _zeroconf(self.interfaces)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._on_state_change])
        self._checker = asyncio.ensure_future(self._check())

    async def stop(self) -> None:
        """Stop browsing; open ``events()`` iterators end. Safe to call twice."""
        zc, browser = self._zc, self._browser
        self._zc = self._browser = None
        self._stopped = True
        tasks = list(self._resolving.values())
        self._resolving.clear()
        if self._checker is not None:
            tasks.append(self._checker)
            self._checker = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tables.clear()
        for queue in self._subscribers:
            queue.put_nowait(None)
        if browser is not None:
            await browser.async_cancel()
        if zc is not None:
            await zc.async_close()

    async def events(self) -> AsyncIterator[TableEvent]:
        queue: asyncio.Queue[TableEvent | None] = asyncio.Queue()
        for table in self._tables.values():
            queue.put_nowait((ADDED, table))
        if self._stopped:
            queue.put_nowait(None)
        self._subscribers.append(queue)
        try:
            while (item := await queue.get()) is not None:
                yield item
        finally:
            self._subscribers.remove(queue)

    def __aiter__(self) -> AsyncIterator[TableEvent]:
        return self.events()

    # zeroconf calls this in the event loop, with keyword arguments
    def _on_state_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                         state_change: ServiceStateChange) -> None:
        previous = self._resolving.pop(name, None)
        if previous is not None:
            previous.cancel()           # a newer change supersedes it
        if state_change is ServiceStateChange.Removed:
            self._forget(name)
        elif self._zc is not None and len(self._resolving) < MAX_TABLES:
            self._spawn_resolve(name)

    def _spawn_resolve(self, name: str, gone_if_silent: bool = False) -> asyncio.Task[None]:
        task = asyncio.ensure_future(self._resolve(name, gone_if_silent))
        self._resolving[name] = task
        task.add_done_callback(lambda t: self._done(name, t))
        return task

    def _done(self, name: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(name) is task:
            del self._resolving[name]

    async def _check(self) -> None:
        """Re-resolve known tables whose records expired: a host that died goes away."""
        while True:
            await asyncio.sleep(self.check_interval)
            zc = self._zc
            if zc is None:
                return
            try:
                stale = [name for name in self._tables if name not in self._resolving and
                         not AsyncServiceInfo(SERVICE_TYPE, name).load_from_cache(zc.zeroconf)]
            except Exception:
                log.exception("checking the tables failed")
                continue
            checks = [self._spawn_resolve(name, gone_if_silent=True) for name in stale]
            await asyncio.gather(*checks, return_exceptions=True)

    async def _resolve(self, name: str, gone_if_silent: bool = False) -> None:
        zc = self._zc
        if zc is None:
            return
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zc.zeroconf, RESOLVE_TIMEOUT_MS):
                log.debug("no answer for %r", name)
                if gone_if_silent:
                    self._forget(name)
                return
            table = table_from_record(name, info.properties, info.parsed_scoped_addresses(),
                                      info.port)
        except asyncio.CancelledError:
            raise
        except DiscoveryError as error:
            log.debug("skipped %r: %s", name, error)
            self._forget(name)          # a table whose record turned bad goes away
            return
        except Exception:               # a hostile record must never kill the browser
            log.debug("skipped %r", name, exc_info=True)
            self._forget(name)
            return
        self._store(table)

    def _store(self, table: TableInfo) -> None:
        old = self._tables.get(table.instance)
        if old == table:
            return
        if old is None and len(self._tables) >= MAX_TABLES:
            log.debug("skipped %r: too many tables", table.instance)
            return
        self._tables[table.instance] = table
        self._emit(ADDED if old is None else UPDATED, table)

    def _forget(self, name: str) -> None:
        table = self._tables.pop(name, None)
        if table is not None:
            self._emit(REMOVED, table)

    def _emit(self, kind: Change, table: TableInfo) -> None:
        for queue in self._subscribers:
            queue.put_nowait((kind, table))
        if self.on_change is not None:
            try:
                self.on_change(dict(self._tables))
            except Exception:
                log.exception("on_change failed")
