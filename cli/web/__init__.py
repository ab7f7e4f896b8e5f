"""The browser client: the page served by the host (``static/``) and its texts.

``web_server(host)`` gives ``president.net.web.WebServer`` this package's static folder
and ``texts.page_texts``, ``texts.table_texts``: the host serves the page, and the page
speaks the table protocol over a WebSocket like any other client. Learn to play is
stepped for the page by ``lesson.lesson_reply``.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # aiohttp is imported when a page is served, not with the package
    from president.net.host import Host
    from president.net.web import StaticFiles, WebServer


def static_files() -> StaticFiles:
    from president.net.web import StaticFiles

    return StaticFiles.from_folder(resources.files("president.cli.web") / "static")


def web_server(host: Host, journal: str | None = None, language: str = "en") -> WebServer:
    """``journal``: the file the evening's story is read from (None: the default);
    ``language``: the host's, the TV view's by default."""
    from functools import partial

    from president.net.web import WebServer

    from .lesson import lesson_reply
    from .texts import page_texts, table_texts
    from .tv import tv_texts

    return WebServer(host, static_files(), page_texts, table_texts, tv_texts,
                     partial(evening_text, journal=journal), language, lesson_reply)


def evening_text(language: str, journal: str | None = None) -> str | None:
    """``/evening/<language>``: the night's story (cli/evening.py) as plain text."""
    from president.cli.evening import tell
    from president.cli.i18n import LANGUAGES
    from president.cli.text import text_for

    if language not in LANGUAGES:
        return None
    return "\n".join(tell(text_for(language), 79, journal)) + "\n"
