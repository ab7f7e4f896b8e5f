"""Coverage-guided fuzzing (atheris) of the frame decoder and the table's command path.

Run by ``test_fuzz.py`` in a subprocess (libFuzzer exits the process when done):
``python atheris_target.py CORPUS_DIR -runs=N``. Each input is the bytes a stranger
sends after connecting: decoded frames go to a started table; its state must not change.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import atheris

with atheris.instrument_imports():
    from president.net.errors import ProtocolError
    from president.net.protocol import CLIENT, PROTOCOL_VERSION, Decoder
    from president.net.table import Join, Message, Table, TableOptions
    from president.rules import HouseRules


class Peer:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.table: Table | None = None
        self.attached = False

    def send(self, msg: dict[str, Any]) -> bool:
        return True

    def close(self, code: str, **params: Any) -> None:
        self.attached = False

    def done(self) -> None:
        pass


def hello(name: str) -> dict[str, Any]:
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "language": "en",
            "token": None, "pin": None, "spectate": False, "table": None}


LOOP = asyncio.new_event_loop()
TABLE = Table(TableOptions(seats=3, bots=1, seed=1, ready_timeout=0,
                           rules=HouseRules.from_dict({"session_end": "hands"})))


async def _setup() -> None:
    for name in ("ann", "bob"):
        TABLE._handle(Join(Peer(), hello(name)))
    assert TABLE.started


LOOP.run_until_complete(_setup())
STATE = TABLE.state


async def _one(data: bytes) -> None:
    stranger, decoder = Peer(), Decoder(CLIENT)
    try:
        messages = decoder.feed(data)
    except ProtocolError:
        return
    for msg in messages:
        if msg["type"] == "hello":
            if not stranger.attached:
                TABLE._handle(Join(stranger, msg))
        else:
            TABLE._handle(Message(stranger, msg))
    if TABLE.state is not STATE:
        raise AssertionError("a stranger changed the game state")


def test_one_input(data: bytes) -> None:
    LOOP.run_until_complete(_one(data))


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
