"""Network namespaces for tests: private LANs that cannot reach the real network.

``unshare_argv`` runs a command in a fresh namespace holding only ``lo``;
``bridged_lan`` builds "laptops" (namespaces with ``eth0`` at 10.77.0.N/24)
joined by a bridge in a "switch" namespace. The addresses exist only inside
the namespaces and the veth pairs never touch the outer namespace, so no
packet can leave the machine. Child processes call ``assert_isolated`` first:
it refuses to run in the namespace of the test process.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

OUTER_NETNS_ENV = "PRESIDENT_TEST_OUTER_NETNS"


def missing_tools() -> str | None:
    """Why namespace tests cannot run here, or None if they can."""
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root"
    return None


def current_netns() -> str:
    return os.readlink("/proc/self/ns/net")


def child_env() -> dict[str, str]:
    """The environment for a child: names our namespace so the child can refuse it."""
    return {**os.environ, OUTER_NETNS_ENV: current_netns()}


def assert_isolated() -> None:
    """Exit unless this process runs in a namespace other than the test process's."""
    if not in_private_netns():
        print('{"event": "refused", "reason": "not in a private network namespace"}',
              flush=True)
        sys.exit(3)


def netns_available() -> bool:
    return missing_tools() is None


def in_private_netns() -> bool:
    """Whether this process was started by a test in a namespace other than the test's."""
    outer = os.environ.get(OUTER_NETNS_ENV)
    return bool(outer) and outer != current_netns()


def unshare_argv(argv: list[str]) -> list[str]:
    """Run ``argv`` in a new network namespace with only ``lo``, up."""
    return ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', *argv]


def netns_exec_argv(namespace: str, argv: list[str]) -> list[str]:
    return ["ip", "netns", "exec", namespace, *argv]


PREFIX = "pzd"                  # pzd<pid>x<hex><role>: the pid of the test that made it


def _remove_orphans() -> None:
    """Delete namespaces left by a test process that was killed before its cleanup."""
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True,
                             timeout=20).stdout
    for line in listing.splitlines():
        name = line.split()[0] if line.split() else ""
        pid = name.removeprefix(PREFIX).partition("x")[0]
        if name.startswith(PREFIX) and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


@dataclass(frozen=True)
class Lan:
    switch: str                 # the namespace holding the bridge
    laptops: list[str]          # one namespace per laptop
    addresses: list[str]        # laptops[i] has addresses[i] on its eth0


@contextmanager
def bridged_lan(laptops: int = 2, subnet: str = "10.77.0") -> Iterator[Lan]:
    """Namespaces named uniquely per call, deleted on exit whatever happens."""
    _remove_orphans()
    prefix = f"{PREFIX}{os.getpid()}x{secrets.token_hex(2)}"
    switch = f"{prefix}sw"
    names = [f"{prefix}l{i}" for i in range(1, laptops + 1)]
    addresses = [f"{subnet}.{i}" for i in range(1, laptops + 1)]
    created: list[str] = []
    try:
        for ns in (switch, *names):
            _ip("netns", "add", ns)
            created.append(ns)
            _ip("-n", ns, "link", "set", "lo", "up")
        # no IGMP snooping: the bridge floods multicast to every port
        _ip("-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", switch, "link", "set", "br0", "up")
        for i, (ns, address) in enumerate(zip(names, addresses, strict=True), 1):
            port = f"p{i}"
            _ip("-n", ns, "link", "add", "eth0", "type", "veth",
                "peer", "name", port, "netns", switch)
            _ip("-n", switch, "link", "set", port, "master", "br0")
            _ip("-n", switch, "link", "set", port, "up")
            _ip("-n", ns, "link", "set", "eth0", "multicast", "on")
            _ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")
        yield Lan(switch=switch, laptops=names, addresses=addresses)
    finally:
        for ns in reversed(created):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=20)
