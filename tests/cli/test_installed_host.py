"""The README's path: ``pip install .`` (not editable) in a clone, then hosting from the
lobby in the clone's folder. The background host must start from the installed package:
the clone's own ``president/`` folder (the engine alone) is in the current folder there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SOURCE = Path(__file__).resolve().parents[2]
TREE = ("pyproject.toml", "setup.py", "README.md", "president", "net", "cli", "locales")

# What the lobby does on "Open the table" (cli.netbridge.host_table), then a seat taken
# at the table it opened; run from a script file as the `president` command is (the
# script's folder, not the current one, starts sys.path).
LOBBY = textwrap.dedent("""
    import asyncio, json, sys
    from types import SimpleNamespace
    from president.cli import hosting, netbridge
    from president.net.client import Client
    from president.rules import PRESETS

    setup = SimpleNamespace(name="Clone", preset="classic", rules=PRESETS["classic"],
                            players=3, bots=2, pin=None, turn_timer=0, level="easy", levels=())

    async def main():
        _, owner = await netbridge.host_table(setup, "Ada", "en")
        client = owner.client
        await client.connect()
        await client.wait_for(lambda c: c.view is not None)
        (mine,) = hosting.my_tables()
        hosting.stop(mine, now=True)
        await client.close()
        return {"seat": client.seat, "cli": hosting.__file__}

    print(json.dumps(asyncio.run(main())))
""")


def test_hosting_from_the_lobby_in_the_clone_folder_after_a_plain_install(
        tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in TREE:
        if (SOURCE / name).is_dir():
            shutil.copytree(SOURCE / name, clone / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy2(SOURCE / name, clone / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # The dependencies (and setuptools for the build) come from the test's own
    # environment, added after the new venv's site-packages: no network needed.
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-build-isolation", "--no-index", str(clone)],
                   check=True, cwd=clone, timeout=300)
    script = tmp_path / "lobby_opens_a_table.py"
    script.write_text(LOBBY)
    env = {**os.environ, "PRESIDENT_INTERFACES": "127.0.0.1",
           "PRESIDENT_DATA_DIR": str(tmp_path / "data"),
           "PRESIDENT_CONFIG_DIR": str(tmp_path / "config"),
           "PRESIDENT_JOURNAL": str(tmp_path / "journal.sqlite3")}
    env.pop("PYTHONPATH", None)
    result = subprocess.run([str(python), str(script)], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=120)
    logs = "\n".join(p.read_text() for p in (tmp_path / "data" / "tables").glob("*.log"))
    assert result.returncode == 0, result.stderr + logs
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["seat"] is not None
    assert seen["cli"].startswith(purelib), seen  # the installed package, not the clone's
