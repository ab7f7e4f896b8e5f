"""The player's seat claims on disk: one seat token per table, kept between runs.

A token proves a seat to its table (``welcome`` gives it, ``hello`` brings it back), so
a client that is killed, crashes or is closed comes back to the same seat by itself:
``president join``, the lobby and a restarted client look the table up here first.
The file is the user's alone (mode 0600, in a 0700 folder): a token is as good as the
seat. ``$PRESIDENT_DATA_DIR`` overrides the folder (tests); otherwise
``$XDG_DATA_HOME/president`` or ``~/.local/share/president``.

A claim is known by where its table is reached, the table's id there and the
player's name (``table_key``); a
token a table no longer knows (``bad_token``: another session at the same address)
is forgotten and the player joins as new.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ENV_DIR = "PRESIDENT_DATA_DIR"
FILE_NAME = "seats.json"
KEEP_SECONDS = 14 * 24 * 3600   # claims older than this are dropped when the file is written
MAX_CLAIMS = 64


def data_dir(environ: dict[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get(ENV_DIR):
        return Path(env[ENV_DIR])
    base = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME", "~")).expanduser()
                                           / ".local" / "share")
    return Path(base) / "president"


def table_key(host: str, port: int, table_id: str | None, name: str) -> str:
    """Whose claim at which table: where it is reached, its id there, and the player's
    name (two players on one computer keep a seat each)."""
    return f"{host.lower()}:{port}/{table_id or ''}/{name}"


@dataclass(frozen=True)
class SeatClaim:
    token: str
    name: str          # the name we sat down with
    table: str         # the table's name, for the lobby
    saved: float       # when (seconds since the epoch)
    host_key: str = ""  # the fingerprint of the host that gave the token (net/pake.py)


class SeatStore:
    """Seat tokens by table (``table_key``) in one JSON file, written atomically."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / FILE_NAME

    def get(self, key: str) -> SeatClaim | None:
        return self._read().get(key)

    def all(self) -> dict[str, SeatClaim]:
        return self._read()

    def put(self, key: str, claim: SeatClaim) -> None:
        claims = self._read()
        if claims.get(key) == claim:
            return
        claims[key] = claim
        self._write(claims)

    def forget(self, key: str) -> None:
        claims = self._read()
        if claims.pop(key, None) is not None:
            self._write(claims)

    def _read(self) -> dict[str, SeatClaim]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        claims: dict[str, SeatClaim] = {}
        if not isinstance(data, dict):
            return claims
        for key, value in data.items():
            try:
                claim = SeatClaim(token=str(value["token"]), name=str(value["name"]),
                                  table=str(value.get("table", "")),
                                  saved=float(value.get("saved", 0)),
                                  host_key=str(value.get("host_key", "")))
            except (KeyError, TypeError, ValueError):
                continue
            if len(claim.token) == 32 and all(c in "0123456789abcdef" for c in claim.token):
                claims[str(key)] = claim
        return claims

    def _write(self, claims: dict[str, SeatClaim]) -> None:
        now = time.time()
        kept = sorted(((k, c) for k, c in claims.items() if now - c.saved < KEEP_SECONDS),
                      key=lambda item: item[1].saved)[-MAX_CLAIMS:]
        write_private(self.path, json.dumps({k: asdict(c) for k, c in kept}, indent=1).encode())


def write_private(path: Path, data: bytes) -> None:
    """Write ``path`` atomically, readable by the user alone (in a 0700 folder: one made
    before with the umask's 0755 is closed too)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
