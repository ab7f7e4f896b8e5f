"""The player's own tables: a table opened from the lobby runs as ``president host`` in a
process of its own (journaled, detached from the terminal), so that closing or crashing
the lobby's window does not close it; its owner comes back like anyone else.

Each table has a record in ``<data dir>/tables/`` (a 0700 folder; see ``cli.seats``):
where it listens and its owner's seat token. ``my_tables`` lists those whose host is
still running, ``stop`` asks one to end (as the host's first Ctrl-C: the session ends
after the current hand, at once before the first deal). A table whose host died in the
middle of a session is ``unfinished``: ``resume`` starts its host again from the journal,
on the same port, so that everyone's client finds it again by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from president.cli.seats import data_dir
from president.errors import NetError, PresidentError
from president.net.journal import Journal
from president.rules import HouseRules

# The PIN and the owner's seat token go to the host in its environment, not on its
# command line (which any user of the machine can read).
ENV_PIN, ENV_OWNER_TOKEN = "PRESIDENT_PIN", "PRESIDENT_OWNER_TOKEN"
START_TIMEOUT = 20.0                # seconds for a host process to open its table
_children: dict[int, subprocess.Popen[bytes]] = {}  # ours, reaped when they end


@dataclass(frozen=True)
class MyTable:
    id: str                 # the record's name in the folder
    name: str
    pid: int
    port: int
    owner_token: str
    pin: str | None
    address: str            # "host:port" where this computer joins it
    shown: str              # where the others join it
    web_url: str | None
    advertised: bool
    opened: float           # seconds since the epoch
    session: int | None = None  # when its host is gone: the unfinished session to resume


def tables_dir(environ: dict[str, str] | None = None) -> Path:
    return data_dir(environ) / "tables"


def rules_toml(preset: str, rules: HouseRules) -> str:
    """A rules file (``president host --rules``) for ``rules``: the preset and every field."""
    lines = [f"preset = {json.dumps(preset)}", "", "[rules]"]
    for key, value in rules.to_dict().items():
        text = ("true" if value else "false") if isinstance(value, bool) else json.dumps(value)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


# Seconds a finished session at a table of ours waits for us to play again.
AGAIN_WAIT = 600.0


def president_command(*args: str) -> list[str]:
    """``python -P -m president ARGS``: the installed package, whatever the current folder
    (in a clone's folder, its ``president/`` would hide the installed ``president.cli``)."""
    return [sys.executable, "-P", "-m", "president", *args]


def host_argv(setup: Any, folder: Path, ident: str,
              interfaces: list[str] | None) -> list[str]:
    bots = ",".join(setup.levels) if setup.levels else str(setup.bots)
    argv = president_command(
        "host", "--name", setup.name, "--preset", setup.preset,
        "--rules", str(folder / f"{ident}.toml"), "--players", str(setup.players),
        "--bots", bots, "--level", setup.level, "--turn-timer", str(setup.turn_timer),
        "--ready-file", str(folder / f"{ident}.ready"), "--play-again", str(AGAIN_WAIT))
    if not getattr(setup, "hints", True):
        argv.append("--no-hints")
    argv += ["--late-arrivals", getattr(setup, "late_arrivals", "take")]
    for address in interfaces or ():
        argv += ["--interface", address]
    return argv


async def open_table(setup: Any, interfaces: list[str] | None,
                     timeout: float = START_TIMEOUT) -> MyTable:
    """Start ``setup``'s table in a background host and wait until it listens.
    ``NetError("host_failed")`` when it does not (its log stays in the folder)."""
    folder = _folder()
    ident = secrets.token_hex(4)
    token = secrets.token_hex(16)
    (folder / f"{ident}.toml").write_text(rules_toml(setup.preset, setup.rules), encoding="utf-8")
    argv = host_argv(setup, folder, ident, interfaces)
    env = {ENV_OWNER_TOKEN: token, ENV_PIN: setup.pin or ""}
    where, pid = await _spawn(argv, env, folder, ident, timeout)
    port = int(where["port"])
    local = interfaces[0] if interfaces and interfaces[0] not in ("0.0.0.0", "::") else "127.0.0.1"
    table = MyTable(id=ident, name=setup.name, pid=pid, port=port, owner_token=token,
                    pin=setup.pin, address=f"{local}:{port}",
                    shown=", ".join(where.get("addresses") or [f"{local}:{port}"]),
                    web_url=where.get("web_url"), advertised=bool(where.get("advertised")),
                    opened=time.time())
    _save(folder, table)
    return table


async def resume(table: MyTable, interfaces: list[str] | None,
                 timeout: float = START_TIMEOUT) -> MyTable:
    """Start the host of an unfinished table again, from the journal, on its port."""
    assert table.session is not None
    folder = _folder()
    argv = president_command("host", "--resume", str(table.session), "--port", str(table.port),
                             "--ready-file", str(folder / f"{table.id}.ready"))
    for address in interfaces or ():
        argv += ["--interface", address]
    (folder / f"{table.id}.ready").unlink(missing_ok=True)
    where, pid = await _spawn(argv, {ENV_PIN: table.pin or ""}, folder, table.id, timeout)
    again = replace(table, pid=pid, port=int(where["port"]), session=None,
                    web_url=where.get("web_url"), advertised=bool(where.get("advertised")))
    _save(folder, again)
    return again


def _folder() -> Path:
    folder = tables_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def _save(folder: Path, table: MyTable) -> None:
    record = folder / f"{table.id}.json"
    record.touch(mode=0o600)
    record.write_text(json.dumps(asdict(table)), encoding="utf-8")


async def _spawn(argv: list[str], env: dict[str, str], folder: Path, ident: str,
                 timeout: float) -> tuple[dict[str, Any], int]:
    """Run a host in a session of its own (no SIGHUP or Ctrl-C from our terminal) and
    wait for its ready file: where it listens, and its pid."""
    log = (folder / f"{ident}.log").open("ab")
    with log:
        process = subprocess.Popen(argv, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    _children[process.pid] = process
    ready = folder / f"{ident}.ready"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready.exists():
        if process.poll() is not None or loop.time() > deadline:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            words = _last_line(folder / f"{ident}.log")
            (folder / f"{ident}.ready").unlink(missing_ok=True)
            raise NetError("host_failed", detail=words)
        await asyncio.sleep(0.05)
    return json.loads(ready.read_text(encoding="utf-8")), process.pid


def my_tables(folder: Path | None = None) -> list[MyTable]:
    """The tables this user opened (records in ``folder``, by default ``tables_dir()``)
    whose host is still running, oldest first."""
    return [table for table in _records(folder) if _running(table.pid)]


def unfinished_tables(folder: Path | None = None) -> list[MyTable]:
    """Our tables whose host is gone in the middle of a session (``session`` set);
    the records of those that ended are removed."""
    folder = folder or tables_dir()
    gone = [table for table in _records(folder) if not _running(table.pid)]
    if not gone:
        return []
    sessions = _unfinished_sessions()
    found = []
    for table in gone:
        session = sessions.get(table.owner_token)
        if session is None:
            _remove(folder, table.id)
        else:
            found.append(replace(table, session=session))
    return found


def in_play(table: MyTable) -> bool:
    """Whether the table's session has been dealt and is not over (in the journal)."""
    return table.owner_token in _unfinished_sessions()


def forget(table: MyTable) -> None:
    """No longer list an unfinished table (its session stays in the journal)."""
    _remove(tables_dir(), table.id)


def _records(folder: Path | None) -> list[MyTable]:
    folder = folder or tables_dir()
    found = []
    for record in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            data = json.loads(record.read_text(encoding="utf-8"))
            found.append(MyTable(**{f.name: data[f.name] for f in fields(MyTable)
                                    if f.name in data}))
        except (OSError, ValueError, KeyError, TypeError):
            record.unlink(missing_ok=True)
    return sorted(found, key=lambda t: t.opened)


def _unfinished_sessions() -> dict[str, int]:
    """Owner token -> the newest unfinished session of the journal with that owner."""
    try:
        journal = Journal()
    except PresidentError:
        return {}
    try:
        return {str(record.options["owner_token"]): record.id
                for record in journal.sessions(unfinished_only=True)
                if record.options.get("owner_token")}
    except PresidentError:
        return {}
    finally:
        journal.close()


def stop(table: MyTable, now: bool = False) -> None:
    """Ask the table's host to end: after this hand (``now``: at once)."""
    if _running(table.pid):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(table.pid, signal.SIGTERM if now else signal.SIGINT)


def _running(pid: int) -> bool:
    child = _children.get(pid)
    if child is not None and child.poll() is not None:   # ours, ended: reap it
        del _children[pid]
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # another user's process took the number
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.exists():  # a pid reused by something else is not our host
        with contextlib.suppress(OSError):
            words = cmdline.read_bytes().split(b"\0")
            return b"president" in words and b"host" in words
    return True


def _remove(folder: Path, ident: str) -> None:
    for suffix in (".json", ".toml", ".ready", ".ready.part", ".log"):
        (folder / f"{ident}{suffix}").unlink(missing_ok=True)


def _last_line(path: Path) -> str:
    with contextlib.suppress(OSError):
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        if lines:
            return lines[-1][-200:]
    return ""
