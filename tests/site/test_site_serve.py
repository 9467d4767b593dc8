"""``apimap serve``: serves the built site and rebuilds when a record changes."""

from __future__ import annotations

import io
import re
import urllib.request
from pathlib import Path

from apimap.publish.site.serve import Watcher, serve, start_server
from conftest import copy_corpus, corpus_layout


def test_watcher_sees_added_changed_and_removed_files(tmp_path: Path) -> None:
    watched = tmp_path / "mappings"
    ignored = watched / "_build"
    ignored.mkdir(parents=True)
    record = watched / "a.yaml"
    record.write_text("a", encoding="utf-8")
    watcher = Watcher([watched, tmp_path / "absent"], [ignored])
    assert not watcher.changed()
    (ignored / "out.html").write_text("x", encoding="utf-8")
    assert not watcher.changed()
    record.write_text("ab", encoding="utf-8")
    assert watcher.changed()
    assert not watcher.changed()
    record.unlink()
    assert watcher.changed()


def test_server_serves_the_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>你好</p>", encoding="utf-8")
    server = start_server(tmp_path, "127.0.0.1", 0)
    try:
        port = server.server_address[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10) as answer:
            assert answer.read().decode("utf-8") == "<p>你好</p>"
    finally:
        server.shutdown()
        server.server_close()


def test_serve_rebuilds_after_a_record_changes(tmp_path: Path) -> None:
    layout = corpus_layout(tmp_path, copy_corpus(tmp_path))
    record = layout.mappings / "torch" / "torch.clamp.yaml"
    out = io.StringIO()
    state = {"edited": False, "served": ""}

    def keep_going() -> bool:
        if not state["edited"]:
            text = record.read_text(encoding="utf-8")
            record.write_text(text.replace("裁剪区间的下界", "裁剪范围的下界"), encoding="utf-8")
            state["edited"] = True
            return True
        if out.getvalue().count("站点已生成") < 2:
            return True
        url = re.search(r"http://\S+/", out.getvalue())
        assert url is not None
        with urllib.request.urlopen(url.group(0) + "api/torch.clamp.html", timeout=10) as page:
            state["served"] = page.read().decode("utf-8")
        return False

    assert serve(layout, out, "127.0.0.1", 0, interval=0.05, keep_going=keep_going) == 0
    assert "检测到改动，重新构建" in out.getvalue()
    assert "裁剪范围的下界" in state["served"]
