"""A PIN that holds (issue 14, point 2): wrong PINs are counted per table, from any
address, as each hello is examined; past the budget no PIN is checked at all, and the
answers to wrong PINs come later and later. Players with their seat's token are not
held up, and the host remembers a bounded number of guessing addresses."""

from __future__ import annotations

import asyncio

import pytest
from security_kit import LOCAL, Raw, hello, run

from president.net.client import Client
from president.net.host import Host
from president.net.limits import Limits, PinGuard
from president.net.pake import ClientHandshake
from president.net.table import Table, TableOptions

BUDGET = 20


def address(n: int) -> str:
    """The n-th of 1,000 distinct loopback addresses (all of 127/8 is this machine)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


@pytest.mark.slow
def test_a_thousand_addresses_get_no_more_than_the_tables_budget_of_guesses() -> None:
    limits = Limits(pin_budget=BUDGET, pin_free=3, pin_delay=0.001, pin_delay_max=0.01,
                    addresses_kept=100, handshake_burst=2000)  # the PIN's budget, not the CPU's

    share = ClientHandshake("guess", b"any").share  # a guesser's share: any point will do

    async def guess(port: int, n: int) -> str:
        """A wrong guess, as cheap for the guesser as it gets: any proof is as wrong."""
        raw = await Raw.open(port, local_addr=(address(n), 0))
        try:
            raw.send_obj(hello(f"G{n}", share=share))
            answer = await raw.receive(lambda m: m["type"] in ("challenge", "refused"))
            if answer["type"] == "challenge":
                raw.send({"type": "proof", "proof": n.to_bytes(32, "big")})
                answer = await raw.receive(lambda m: m["type"] in ("welcome", "refused"))
            return str(answer["code"])
        finally:
            raw.abort()

    async def scenario() -> tuple[list[str], str, str, int]:
        table = Table(TableOptions(name="Kitchen", seats=4, bots=2, pin="4321"))
        host = Host([table], limits=limits)
        port = await host.start([LOCAL])
        try:
            ann = Client(LOCAL, port, "Ann", pin="4321", reconnect=False)
            await ann.connect()
            token = ann.token
            await ann.drop()
            codes: list[str] = []
            numbers = [n for n in range(1000) if n != 4321]
            for start in range(0, len(numbers), 50):       # 50 at a time, in parallel
                codes += await asyncio.gather(*(guess(port, n)
                                                for n in numbers[start:start + 50]))
            right = await Raw.open(port, local_addr=(address(999), 0))
            late = (await right.hello("Bob", pin="4321"))["code"]
            right.abort()
            back = Client(LOCAL, port, "Ann", pin="4321", token=token, reconnect=False)
            await back.connect()                          # her token: no guess, no wait
            return codes, late, back.status, host.addresses.remembered
        finally:
            await host.stop()

    codes, late, back, remembered = run(scenario(), timeout=120)
    assert codes.count("wrong_pin") == BUDGET
    assert set(codes) == {"wrong_pin", "too_many_attempts"}
    assert late == "too_many_attempts" and back == "connected"
    assert remembered <= 100


def test_the_answer_to_a_wrong_pin_comes_later_and_later() -> None:
    guard = PinGuard(Limits(pin_budget=10, pin_free=2, pin_delay=0.5, pin_delay_max=4.0))
    delays = [guard.failed(float(n)) for n in range(8)]
    assert delays == [0.0, 0.0, 0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert guard.allows(8.0)                                  # 8 of 10 used
    for n in range(8, 10):
        guard.failed(float(n))
    assert not guard.allows(10.0)
    assert guard.allows(10.0 + guard.limits.pin_window + 1)   # the window passes


def test_guessing_addresses_are_forgotten_when_old_and_bounded_in_number() -> None:
    from president.net.limits import AddressBook

    book = AddressBook(Limits(addresses_kept=100, guess_window=60.0))
    for n in range(1000):
        book.guessed(address(n), now=float(n) / 100)      # 1,000 addresses in 10 s
    assert book.remembered <= 101
    assert book.blocked(address(999), 10.0) is False and book.remembered <= 101
    book.guessed(address(0), now=1000.0)                 # a minute and more later
    assert book.remembered <= 101
