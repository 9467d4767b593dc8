"""A static host for the browser tests: the built site below a base path, as GitHub Pages serves
a project site (``https://owner.github.io/apimap/``), with ``404.html`` for unknown addresses."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"

    def log_message(self, format: str, *args: object) -> None:
        return None

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "\0missing")
        return super().translate_path("/" + path[len(self.prefix) :])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        data = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def serving(directory: Path, prefix: str = "/") -> Iterator[http.server.ThreadingHTTPServer]:
    """Serve ``directory`` at ``http://127.0.0.1:PORT{prefix}`` in a daemon thread."""
    handler = type("Handler", (_Handler,), {"prefix": prefix})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def base_url(server: http.server.ThreadingHTTPServer, prefix: str = "/") -> str:
    """The address the site is served at."""
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}{prefix}"
