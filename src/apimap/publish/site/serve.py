"""``apimap serve``: a local preview that rebuilds when a source changes."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from apimap.checking.diagnostics import Pending
from apimap.files.stamps import STAMPS_DIR
from apimap.publish.site.build import SiteLayout, build_site

Snapshot = dict[str, tuple[int, int]]


def watched_folders(layout: SiteLayout) -> list[Path]:
    """The inputs of a build: records, stamps, templates, hand-written site files."""
    sources = layout.sources
    return [layout.mappings, layout.mappings.parent / STAMPS_DIR, sources.templates, layout.confdir]


def snapshot(folders: Iterable[Path], ignore: Iterable[Path]) -> Snapshot:
    """Path -> (mtime in ns, size) of every file below ``folders`` outside ``ignore``."""
    skipped = [folder.resolve() for folder in ignore]
    state: Snapshot = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            resolved = path.resolve()
            if any(resolved.is_relative_to(skip) for skip in skipped):
                continue
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.is_file():
                state[str(resolved)] = (stat.st_mtime_ns, stat.st_size)
    return state


class Watcher:
    """Tells whether anything under the watched folders changed since the last look."""

    def __init__(self, folders: list[Path], ignore: list[Path]) -> None:
        self.folders = folders
        self.ignore = ignore
        self.last = snapshot(folders, ignore)

    def changed(self) -> bool:
        """Whether files were added, removed or modified; remembers the new state."""
        current = snapshot(self.folders, self.ignore)
        if current == self.last:
            return False
        self.last = current
        return True


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return None


def start_server(directory: Path, host: str, port: int) -> http.server.ThreadingHTTPServer:
    """Serve ``directory`` over HTTP in a daemon thread."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve(
    layout: SiteLayout,
    out: TextIO,
    host: str,
    port: int,
    interval: float,
    keep_going: Callable[[], bool] = lambda: True,
    pending: Pending = Pending.ERROR,
) -> int:
    """Build, serve, and rebuild on every change until interrupted."""
    build_site(layout, out, pending=pending)
    layout.html.mkdir(parents=True, exist_ok=True)
    server = start_server(layout.html, host, port)
    address, bound_port = server.server_address[:2]
    out.write(f"预览地址 (serving at): http://{address!s}:{bound_port}/ （Ctrl-C 退出）\n")
    out.flush()
    ignore = [layout.generated, layout.html, layout.doctrees, layout.confdir / "_build"]
    watcher = Watcher(watched_folders(layout), ignore)
    try:
        while keep_going():
            time.sleep(interval)
            if watcher.changed():
                out.write("检测到改动，重新构建 (change detected: rebuilding)\n")
                build_site(layout, out, pending=pending)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0
