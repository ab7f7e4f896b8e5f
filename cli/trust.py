"""Who is who on the LAN: this computer's host key, and the host keys a player has met.

A host proves its key in every join (net/pake.py); the lobby shows the key's short
fingerprint beside each table. ``load_host_key`` keeps this computer's key in the data
folder (``seats.data_dir``), so that a table resumed or opened again is recognised.
``KnownHosts`` remembers, per table name, the key it was last joined at (trust on
first use): a table of that name with another key is flagged in the lobby, and a join
that expects the remembered key refuses another one before the PIN is tried.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from president.net.pake import HostKey

from .seats import data_dir, write_private

KEY_FILE = "host_key"
KNOWN_FILE = "known_hosts.json"
MAX_KNOWN = 256


def load_host_key(folder: Path | None = None) -> HostKey:
    """This computer's host key, made (and kept) on first use."""
    path = (folder or data_dir()) / KEY_FILE
    try:
        return HostKey.from_hex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        key = HostKey.generate()
        write_private(path, key.to_hex().encode())
        return key


class KnownHosts:
    """The fingerprint each table name was last joined at, in one JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / KNOWN_FILE

    def get(self, table_name: str) -> str | None:
        entry = self._read().get(table_name)
        return entry[0] if entry is not None else None

    def changed(self, table_name: str, key: str | None) -> bool:
        """Whether ``key`` is not the one this table name was joined at before."""
        known = self.get(table_name)
        return key is not None and known is not None and known != key

    def remember(self, table_name: str, key: str) -> None:
        known = self._read()
        if known.get(table_name, ("",))[0] == key:
            return
        known[table_name] = (key, time.time())
        kept = sorted(known.items(), key=lambda item: item[1][1])[-MAX_KNOWN:]
        write_private(self.path, json.dumps(
            {name: {"key": k, "seen": seen} for name, (k, seen) in kept}, indent=1).encode())

    def _read(self) -> dict[str, tuple[str, float]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        known = {}
        for name, entry in data.items():
            if isinstance(entry, dict) and isinstance(entry.get("key"), str):
                seen = entry.get("seen")
                known[str(name)] = (entry["key"], float(seen) if isinstance(seen, int | float)
                                    else 0.0)
        return known
