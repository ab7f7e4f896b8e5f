"""The browser client: the page served by the host (``static/``) and its texts.

``web_server(host)`` gives ``president.net.web.WebServer`` this package's static folder
and ``texts.page_texts``, ``texts.table_texts``: the host serves the page, and the page
speaks the table protocol over a WebSocket like any other client.
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


def web_server(host: Host) -> WebServer:
    from president.net.web import WebServer

    from .texts import page_texts, table_texts

    return WebServer(host, static_files(), page_texts, table_texts)
