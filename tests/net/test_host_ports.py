import asyncio
import socket

import pytest

from president.net.host import Host
from president.net.table import Table, TableOptions


def test_every_interface_on_port_zero_shares_one_port_across_ipv4_and_ipv6():
    async def scenario():
        host = Host([Table(TableOptions())])
        port = await host.start(None, 0)
        try:
            bound = {sock.getsockname()[1] for server in host.servers for sock in server.sockets}
            assert bound == {port}
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            if socket.has_ipv6 and len(host.servers) == 2:
                _, writer = await asyncio.open_connection("::1", port)
                writer.close()
        finally:
            await host.stop()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 20))
    except OSError as error:  # pragma: no cover - a machine without loopback IPv6
        pytest.skip(f"loopback not usable: {error}")
