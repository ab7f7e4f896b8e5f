"""The browser tests, run inside a private network namespace holding only ``lo``: the
host, the page and Chromium cannot reach anything beyond this machine (the issue asks
for the browser tests "in a network namespace"; Chromium's dead proxy stays as well)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser_kit import skip_without_browser
from netns import child_env, missing_tools, unshare_argv

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [skip_without_browser(), pytest.mark.slow, pytest.mark.netns,
              pytest.mark.skipif(missing_tools() is not None, reason=missing_tools() or "")]


def test_the_browser_tests_pass_inside_a_private_network_namespace() -> None:
    here = Path(__file__).resolve()
    modules = sorted(str(path.relative_to(ROOT)) for path in here.parent.glob(
        "test_browser*.py") if path != here)   # every browser test but this one
    argv = unshare_argv([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                         "-o", "addopts=", "-q", *modules])
    result = subprocess.run(argv, cwd=ROOT, env=child_env(), capture_output=True,
                            text=True, timeout=900)
    report = result.stdout[-6000:] + result.stderr[-2000:]
    assert result.returncode == 0, report
    passed = re.search(r"(\d+) passed", result.stdout)
    assert passed and int(passed.group(1)) >= 5, report
    assert "skipped" not in result.stdout, report
