"""Refresh the page's vendored libraries from the npm registry (by hand; CI never runs it).

The page cannot use the browser's ``crypto.subtle`` (a page served over plain http is no
"secure context"), so its cryptography and msgpack come from well-kept packages: the
audited noble libraries and @msgpack/msgpack, at the versions pinned below. This script
installs them in a temporary folder (``npm install --ignore-scripts``), bundles the few
exports the page uses into one file, ``cli/web/static/vendor.js``, with the pinned esbuild,
and records the versions, the registry's integrity of each package and the bundle's
sha256 in ``tools/vendor.lock.json`` (tests/web/test_vendor.py checks the bundle against
it). To update: change a version here, run ``python tools/vendor_js.py``, commit both files.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "cli" / "web" / "static" / "vendor.js"
LOCK = ROOT / "tools" / "vendor.lock.json"
PACKAGES = {
    "@noble/curves": "2.4.0",
    "@noble/hashes": "2.4.0",
    "@noble/ciphers": "2.4.0",
    "@msgpack/msgpack": "3.1.3",
}
ESBUILD = "0.28.2"
ENTRY = """\
export { p256 } from "@noble/curves/nist.js";
export { sha256 } from "@noble/hashes/sha2.js";
export { hkdf } from "@noble/hashes/hkdf.js";
export { hmac } from "@noble/hashes/hmac.js";
export { bytesToHex, concatBytes, hexToBytes, randomBytes } from "@noble/hashes/utils.js";
export { bytesToNumberBE, numberToBytesBE } from "@noble/curves/utils.js";
export { gcm } from "@noble/ciphers/aes.js";
export { equalBytes } from "@noble/ciphers/utils.js";
export { encode, decode } from "@msgpack/msgpack";
"""
HEADER = ("// Vendored by tools/vendor_js.py (do not edit): {packages}, bundled with esbuild "
          "{esbuild}.\n// Their licences (MIT, ISC) are kept in the comments below.\n")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="president-vendor-") as folder:
        work = Path(folder)
        (work / "package.json").write_text('{"private": true, "type": "module"}\n')
        (work / "entry.js").write_text(ENTRY)
        specs = [f"{name}@{version}" for name, version in PACKAGES.items()]
        subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                        "--save-exact", *specs, f"esbuild@{ESBUILD}"], cwd=work, check=True)
        # esbuild's binary comes in an optional package of its platform (no install script).
        subprocess.run([str(work / "node_modules" / ".bin" / "esbuild"), "entry.js", "--bundle",
                        "--format=esm", "--legal-comments=inline", "--outfile=out.js"],
                       cwd=work, check=True)
        installed = json.loads((work / "package-lock.json").read_text())["packages"]
        bundle = HEADER.format(packages=", ".join(specs), esbuild=ESBUILD).encode() + (
            work / "out.js").read_bytes()
    BUNDLE.write_bytes(bundle)
    lock = {
        "packages": {name: {"version": version,
                            "integrity": installed[f"node_modules/{name}"]["integrity"]}
                     for name, version in PACKAGES.items()},
        "esbuild": ESBUILD,
        "entry": ENTRY,
        "bundle": str(BUNDLE.relative_to(ROOT)),
        "sha256": hashlib.sha256(bundle).hexdigest(),
    }
    LOCK.write_text(json.dumps(lock, indent=1) + "\n")
    print(f"{BUNDLE.relative_to(ROOT)}: {len(bundle)} bytes, sha256 {lock['sha256']}")


if __name__ == "__main__":
    main()
