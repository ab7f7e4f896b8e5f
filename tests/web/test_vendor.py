"""The page's vendored libraries (cli/web/static/vendor.js) are the bundle
tools/vendor_js.py made from the pinned npm packages: its checksum is the one recorded in
tools/vendor.lock.json, which names each package's version and registry integrity."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = json.loads((ROOT / "tools" / "vendor.lock.json").read_text())


def test_the_vendored_bundle_is_the_recorded_one() -> None:
    bundle = (ROOT / LOCK["bundle"]).read_bytes()
    assert hashlib.sha256(bundle).hexdigest() == LOCK["sha256"]


def test_the_lock_pins_what_the_refresh_script_installs() -> None:
    from importlib.util import module_from_spec, spec_from_file_location

    spec = spec_from_file_location("vendor_js", ROOT / "tools" / "vendor_js.py")
    assert spec is not None and spec.loader is not None
    script = module_from_spec(spec)
    spec.loader.exec_module(script)
    assert {name: entry["version"] for name, entry in LOCK["packages"].items()} == \
        script.PACKAGES
    assert LOCK["esbuild"] == script.ESBUILD and LOCK["entry"] == script.ENTRY
    for entry in LOCK["packages"].values():
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", entry["integrity"])
    header = (ROOT / LOCK["bundle"]).read_text().splitlines()[0]
    assert all(f"{name}@{version}" in header for name, version in script.PACKAGES.items())


def test_the_page_has_no_hand_written_cryptography_or_msgpack() -> None:
    static = ROOT / "cli" / "web" / "static"
    assert not (static / "msgpack.js").exists()
    for name in ("pake.js", "session.js", "wire.js"):
        text = (static / name).read_text()
        assert "0x428a2f98" not in text and "% P" not in text  # SHA-256's constants, MODP
        assert re.search(r'from "\./vendor\.js"', text) or name == "session.js"
