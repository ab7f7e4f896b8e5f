"""Discovery without the network: TXT records, manual addresses, advertiser names."""

from __future__ import annotations

import pytest
from zeroconf import InterfaceChoice

from president.errors import NetError
from president.net.discovery import (
    LABEL_MAX,
    SERVICE_TYPE,
    DiscoveryError,
    TableAdvertiser,
    TableInfo,
    format_address,
    parse_address,
    table_from_record,
    txt_properties,
    zeroconf_interfaces,
)

INSTANCE = f"Kitchen (abc123).{SERVICE_TYPE}"
GOOD = {b"name": b"Kitchen", b"seats": b"2/4", b"preset": b"classic", b"proto": b"1",
        b"pin": b"1"}


def record(**changes: bytes | None) -> dict[bytes, bytes | None]:
    props = dict(GOOD)
    for key, value in changes.items():
        if value is None:
            props.pop(key.encode(), None)
        else:
            props[key.encode()] = value
    return props


# ------------------------------------------------------------------ TXT records


def test_a_good_record_round_trips_from_the_hosts_properties() -> None:
    props = txt_properties("Kitchen", 2, 4, "classic", 1, True)
    raw = {k.encode(): v.encode() for k, v in props.items()}
    assert raw == GOOD
    table = table_from_record(INSTANCE, raw, ["fe80::1%2", "10.0.0.5"], 40123)
    assert table == TableInfo(instance=INSTANCE, name="Kitchen",
                              addresses=["10.0.0.5", "fe80::1%2"], port=40123,
                              seats_taken=2, seats_total=4, preset="classic", protocol=1,
                              pin_required=True)
    assert not table.full


def test_unicode_names_and_an_empty_preset_are_fine() -> None:
    table = table_from_record(INSTANCE, record(name="Łódź ♠".encode(), preset=b"", pin=b"0"),
                              ["10.0.0.5"], 1)
    assert (table.name, table.preset, table.pin_required) == ("Łódź ♠", "", False)


@pytest.mark.parametrize(("field", "changes"), [
    ("name", {"name": None}),
    ("name", {"name": b""}),
    ("name", {"name": b"\x1b[2Jgotcha"}),             # terminal escape from a hostile device
    ("name", {"name": "evil\u202egnp".encode()}),      # bidi override
    ("name", {"name": b"\xff\xfe"}),                   # not UTF-8
    ("name", {"name": b"x" * 64}),
    ("seats", {"seats": None}),
    ("seats", {"seats": b"5/4"}),
    ("seats", {"seats": b"1/0"}),
    ("seats", {"seats": b"-1/4"}),
    ("seats", {"seats": b"1/4/5"}),
    ("seats", {"seats": "\u0661/4".encode()}),         # Arabic-Indic digit
    ("preset", {"preset": None}),
    ("preset", {"preset": b"p" * 33}),
    ("proto", {"proto": b"one"}),
    ("proto", {"proto": b""}),
    ("proto", {"proto": b"1234567"}),
    ("pin", {"pin": b"yes"}),
    ("pin", {"pin": None}),
])
def test_bad_records_are_refused_naming_the_field(field: str,
                                                   changes: dict[str, bytes | None]) -> None:
    with pytest.raises(DiscoveryError) as caught:
        table_from_record(INSTANCE, record(**changes), ["10.0.0.5"], 40123)
    assert caught.value.code == "bad_record"
    assert caught.value.params == {"instance": INSTANCE, "field": field}
    assert isinstance(caught.value, NetError)


def test_a_key_without_a_value_counts_as_missing() -> None:
    with pytest.raises(DiscoveryError, match="pin"):
        table_from_record(INSTANCE, {**GOOD, b"pin": None}, ["10.0.0.5"], 40123)


@pytest.mark.parametrize(("addresses", "port", "field"), [
    ([], 40123, "addresses"),
    (["0.0.0.0", "224.0.0.251", "not-an-ip"], 40123, "addresses"),
    (["10.0.0.5"], None, "port"),
    (["10.0.0.5"], 0, "port"),
    (["10.0.0.5"], 70000, "port"),
])
def test_records_without_a_usable_address_or_port_are_refused(
        addresses: list[str], port: int | None, field: str) -> None:
    with pytest.raises(DiscoveryError) as caught:
        table_from_record(INSTANCE, GOOD, addresses, port)
    assert caught.value.params["field"] == field


def test_unusable_addresses_are_dropped_from_a_good_record() -> None:
    table = table_from_record(INSTANCE, GOOD, ["0.0.0.0", "10.0.0.5"], 40123)
    assert table.addresses == ["10.0.0.5"]


# ---------------------------------------------------------------- manual join


@pytest.mark.parametrize(("text", "expected"), [
    ("192.168.1.20:40123", ("192.168.1.20", 40123)),
    ("  laptop.local:7 ", ("laptop.local", 7)),
    ("my-laptop:65535", ("my-laptop", 65535)),
    ("[::1]:40123", ("::1", 40123)),
    ("[fe80::1%eth0]:40123", ("fe80::1%eth0", 40123)),
])
def test_parse_address(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected
    assert parse_address(format_address(*expected)) == expected


def test_a_default_port_fills_a_missing_one() -> None:
    assert parse_address("laptop.local", default_port=40123) == ("laptop.local", 40123)
    assert parse_address("[::1]", default_port=1) == ("::1", 1)
    assert parse_address("laptop:2", default_port=1) == ("laptop", 2)


@pytest.mark.parametrize(("text", "code"), [
    ("", "address_empty"),
    ("   ", "address_empty"),
    ("laptop", "address_no_port"),
    ("laptop:", "address_bad_port"),
    ("laptop:0", "address_bad_port"),
    ("laptop:65536", "address_bad_port"),
    ("laptop:http", "address_bad_port"),
    ("laptop:+80", "address_bad_port"),
    ("laptop:٨٠", "address_bad_port"),
    (":40123", "address_bad_host"),
    ("bad host:40123", "address_bad_host"),
    ("-laptop:40123", "address_bad_host"),
    ("10.0.0.256:40123", "address_bad_host"),
    ("[::1:40123", "address_bad_host"),
    ("[laptop]:40123", "address_bad_host"),
    ("[::1]40123", "address_bad_host"),
    ("::1:40123", "address_ipv6_needs_brackets"),
])
def test_bad_addresses_give_a_code(text: str, code: str) -> None:
    with pytest.raises(DiscoveryError) as caught:
        parse_address(text)
    assert caught.value.code == code
    assert caught.value.params["address"] == text


# ------------------------------------------------------------------ advertiser


def test_instance_names_are_unique_and_fit_a_dns_label() -> None:
    long = "Ż" * 100 + ".tables"
    first = TableAdvertiser(long, 1, ["10.0.0.5"], {}, interfaces=["127.0.0.1"])
    second = TableAdvertiser(long, 1, ["10.0.0.5"], {}, interfaces=["127.0.0.1"])
    assert first.instance != second.instance
    label = first.instance.removesuffix("." + SERVICE_TYPE)
    assert "." not in label
    assert len(label.encode()) <= LABEL_MAX
    assert first.properties["name"] == long      # the TXT keeps the name to show


def test_txt_values_are_cut_to_fit_one_txt_string() -> None:
    advertiser = TableAdvertiser("t", 1, ["10.0.0.5"], {"preset": "é" * 300})
    entry = b"preset=" + advertiser.properties["preset"].encode()
    assert 250 <= len(entry) <= 255


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"port": 0}, "bad_port"),
    ({"addresses": ["laptop"]}, "bad_address"),
    ({"properties": {"a=b": "c"}}, "bad_txt_key"),
])
def test_advertiser_refuses_bad_arguments(kwargs: dict[str, object], code: str) -> None:
    args: dict[str, object] = {"name": "t", "port": 1, "addresses": ["10.0.0.5"],
                               "properties": {}, **kwargs}
    with pytest.raises(DiscoveryError) as caught:
        TableAdvertiser(**args)  # type: ignore[arg-type]
    assert caught.value.code == code


def test_advertised_addresses_default_to_the_bound_interfaces() -> None:
    advertiser = TableAdvertiser("t", 1, [], {}, interfaces=["127.0.0.1"])
    assert advertiser.addresses == ["127.0.0.1"]


def test_interfaces_for_zeroconf() -> None:
    assert zeroconf_interfaces(["127.0.0.1"]) == ["127.0.0.1"]
    assert zeroconf_interfaces(None) is InterfaceChoice.All
    assert zeroconf_interfaces(["0.0.0.0"]) is InterfaceChoice.All
    assert zeroconf_interfaces(["10.0.0.5", "::"]) is InterfaceChoice.All
