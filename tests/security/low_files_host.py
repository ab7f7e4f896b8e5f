"""A host with few open files (``RLIMIT_NOFILE`` = argv[1]) on 127.0.0.1: prints its
port as JSON and serves until terminated."""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import sys

from president.net.host import Host
from president.net.table import Table, TableOptions


async def main(files: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    host = Host([Table(TableOptions(name="Kitchen", seats=4))])
    port = await host.start(["127.0.0.1"])
    print(json.dumps({"port": port}), flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
