"""The page's handshake and channel (cli/web/static/pake.js, on the vendored noble
libraries) run by node: RFC 9382's vectors, the degenerate points refused, and a
handshake and records with the host's Python half, byte for byte."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pake_cases import VECTORS, VECTORS_FILE, degenerate

from president.net.channel import CLIENT_RECORD, HOST_RECORD, Opener, Sealer
from president.net.pake import (
    SEAT,
    HostHandshake,
    HostKey,
    HostSecrets,
    M,
    encode_point,
    password_scalar,
    share,
    short_fingerprint,
)
from president.net.protocol import PROTOCOL_VERSION, Hello

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "cli" / "web" / "static"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SCRIPT = r"""
import * as pake from "./pake.js";
import { bytesToHex, hexToBytes } from "./vendor.js";
const input = JSON.parse(process.argv[2]);
const vectors = JSON.parse(input.vectors);
const out = { vectors: [], refused: [], accepted: [] };
const utf8 = (t) => new TextEncoder().encode(t);
const big = (h) => BigInt("0x" + h);
for (const v of vectors) {
  const [w, x, y] = [big(v.w), big(v.x), big(v.y)];
  const pA = pake.encodePoint(pake.share(x, w, pake.M));
  const pB = pake.encodePoint(pake.share(y, w, pake.N));
  const k = pake.decodePoint(pB).subtract(pake.N.multiply(w)).multiply(x);
  const s = pake.schedule(pake.transcript(utf8(v.A), utf8(v.B), pA, pB, pake.encodePoint(k), w));
  out.vectors.push({ pA: bytesToHex(pA), pB: bytesToHex(pB), K: bytesToHex(pake.encodePoint(k)),
    Ke: bytesToHex(s.ke), Ka: bytesToHex(s.ka), KcA: bytesToHex(s.kca), KcB: bytesToHex(s.kcb),
    cA: bytesToHex(s.ca), cB: bytesToHex(s.cb) });
}
for (const bad of input.degenerate) {
  try { pake.decodePoint(hexToBytes(bad)); out.accepted.push(bad); }
  catch (error) {
    if (!(error instanceof pake.HandshakeError)) throw error;
    out.refused.push(bad);
  }
}
// The client's half against the host's Python half, with the client's scalar given.
const h = input.handshake;
const identity = pake.helloIdentity(h.hello);
out.identity = bytesToHex(identity);
const client = new pake.ClientHandshake(h.token, identity, pake.SEAT, big(h.x));
out.share = bytesToHex(client.share);
out.proof = bytesToHex(client.answer(hexToBytes(h.key), hexToBytes(h.hostShare)));
out.hostProved = client.hostProved(hexToBytes(h.hostProof));
out.keys = [bytesToHex(client.keys.clientToHost), bytesToHex(client.keys.hostToClient)];
const sealer = new pake.Sealer(client.keys.clientToHost);
out.sealed = bytesToHex(sealer.seal(utf8("one")));
out.sealed += bytesToHex(sealer.seal(utf8("two")));
const opener = new pake.Opener(client.keys.hostToClient);
const records = hexToBytes(h.records);
out.opened = new TextDecoder().decode(opener.open(records));
try { opener.open(records); out.replayAccepted = true; }   // the same records again
catch { out.replayAccepted = false; }
out.fingerprint = pake.shortFingerprint(pake.fingerprint(hexToBytes(h.key)));
out.matches = [pake.fingerprintMatches(out.fingerprint, pake.fingerprint(hexToBytes(h.key))),
  pake.fingerprintMatches(out.fingerprint.slice(0, 9), pake.fingerprint(hexToBytes(h.key)))];
console.log(JSON.stringify(out));
"""


def node(folder: Path, data: dict[str, Any]) -> dict[str, Any]:
    for name in ("pake.js", "vendor.js"):
        shutil.copy(STATIC / name, folder / name)
    (folder / "package.json").write_text('{"type": "module"}')
    (folder / "check.js").write_text(SCRIPT)
    done = subprocess.run(["node", "check.js", json.dumps(data)], cwd=folder,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_page_passes_the_vectors_and_speaks_with_the_host(tmp_path: Path) -> None:
    token = "ab" * 16
    hello = Hello(version=PROTOCOL_VERSION, name="Zoë", language="pl", share=bytes(65),
                  seat_hint="0123456789abcdef", spectate=False, table="main")
    key = HostKey.generate()
    x = 0x1234567890ABCDEF
    # The host's half needs the client's share: the same scalar gives the same share.
    client_share = encode_point(share(x, password_scalar(token, SEAT), M))
    host = HostHandshake(HostSecrets(key, token, SEAT), client_share, hello.identity)
    records = Sealer(host.keys.host_to_client, HOST_RECORD).seal(b"hello, page")
    out = node(tmp_path, {
        "vectors": VECTORS_FILE.read_text(),
        "degenerate": [bad.hex() for bad in degenerate()],
        "handshake": {"hello": {"version": PROTOCOL_VERSION, "name": "Zoë", "language": "pl",
                                "seatHint": "0123456789abcdef", "spectate": False,
                                "table": "main"},
                      "token": token, "x": f"{x:x}", "key": key.public.hex(),
                      "hostShare": host.share.hex(), "hostProof": host.proof.hex(),
                      "records": records.hex()},
    })
    assert out["vectors"] == [{name: v[name] for name in out["vectors"][0]} for v in VECTORS]
    assert out["accepted"] == [] and len(out["refused"]) == len(degenerate())
    assert bytes.fromhex(out["identity"]) == hello.identity
    assert bytes.fromhex(out["share"]) == client_share
    assert host.pin_proved(bytes.fromhex(out["proof"])) and out["hostProved"]
    assert out["keys"] == [host.keys.client_to_host.hex(), host.keys.host_to_client.hex()]
    assert Opener(host.keys.client_to_host, CLIENT_RECORD).open(
        bytes.fromhex(out["sealed"])) == b"onetwo"
    assert out["opened"] == "hello, page" and out["replayAccepted"] is False
    assert out["fingerprint"] == short_fingerprint(key.fingerprint)
    assert out["matches"] == [True, False]
