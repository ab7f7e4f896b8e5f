"""The browser client: the page served by the host (``static/``) and its texts.

``web_server(host)`` gives ``president.net.web.WebServer`` this package's static folder
and ``texts.page_texts``: the host serves the page, and the page speaks the table
protocol over a WebSocket like any other client.
"""

from __future__ import annotations

from importlib import resources

from president.net.host import Host
from president.net.web import StaticFiles, WebServer

from .texts import page_texts


def static_files() -> StaticFiles:
    return StaticFiles.from_folder(resources.files("president.cli.web") / "static")


def web_server(host: Host) -> WebServer:
    return WebServer(host, static_files(), page_texts)
