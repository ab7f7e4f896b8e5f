"""Type-check the three folders as the one package they install as: ``python tools/typecheck.py``.

The repository keeps ``net/`` and ``cli/`` beside ``president/`` and maps them to
``president.net`` and ``president.cli`` at install time (pyproject's package-dir),
which mypy cannot follow. So this lays out that package in a temporary folder of
links (president/ with net/ and cli/ inside) and runs ``mypy -p president`` on it
with the settings of pyproject.toml; the paths it reports are mapped back to the
repository's. Exit code: mypy's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {"net": "net", "cli": "cli", "locales": "locales"}  # inside president/ -> folder


def link_tree(target: Path) -> Path:
    package = target / "president"
    package.mkdir()
    for item in (ROOT / "president").iterdir():
        if item.name != "__pycache__":
            (package / item.name).symlink_to(item)
    for name, folder in MAPPED.items():
        (package / name).symlink_to(ROOT / folder)
    return package


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="president-types-") as tmp:
        package = link_tree(Path(tmp))
        command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                   "--cache-dir", str(ROOT / ".mypy_cache"), "-p", "president"]
        done = subprocess.run(command, cwd=tmp, capture_output=True, text=True,
                              env={**os.environ, "MYPYPATH": tmp})
        out = done.stdout + done.stderr
        for name, folder in MAPPED.items():
            out = out.replace(f"president/{name}/", f"{folder}/")
        print(out.replace(str(package) + "/", "president/"), end="")
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
