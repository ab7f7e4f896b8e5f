"""The page's address as a QR code made of text, for the host's terminal and the lobby.

Two rows of modules per line with half blocks; the code is drawn dark on light with
explicit colours (``qr_text``: ANSI; the lobby styles ``qr_lines`` itself), so that
it scans on a dark terminal too.
"""

from __future__ import annotations

import segno

BORDER = 2  # quiet zone, in modules (scanners manage with less than the standard 4)
_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def qr_lines(data: str) -> list[str]:
    """The QR code of ``data``: ``█▀▄`` are dark modules, spaces light ones."""
    rows = [[bool(module) for module in row]
            for row in segno.make(data, error="l", micro=False).matrix_iter(border=BORDER)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return ["".join(_BLOCKS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
            for upper, lower in zip(rows[::2], rows[1::2], strict=True)]


def qr_text(data: str) -> str:
    """``qr_lines`` in black on white for an ANSI terminal."""
    return "\n".join(f"\x1b[30;107m{line}\x1b[0m" for line in qr_lines(data))
