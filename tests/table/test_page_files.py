"""The pages' files as the server sends them: compressed text, byte ranges, nothing outside."""

from __future__ import annotations

import gzip
from pathlib import Path

from longhall.server.web.app import Longhall

ROOT = Path(__file__).resolve().parents[2]


def test_text_files_are_sent_compressed(longhall: Longhall) -> None:
    client = longhall.app.test_client()
    answer = client.get("/phone/phone.js", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(answer.data) == (ROOT / "phone_ui" / "phone.js").read_bytes()
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]


def test_the_keep_awake_video_is_served_in_byte_ranges(longhall: Longhall) -> None:
    """Safari plays a video only from a server that answers byte-range requests."""
    whole = (ROOT / "phone_ui" / "wake.mp4").read_bytes()
    client = longhall.app.test_client()
    answer = client.get("/phone/wake.mp4", headers={"Range": "bytes=0-99"})
    assert answer.status_code == 206
    assert answer.headers["Content-Range"] == f"bytes 0-99/{len(whole)}"
    assert answer.data == whole[:100]
    assert client.get("/phone/wake.mp4").headers["Accept-Ranges"] == "bytes"


def test_nothing_outside_the_pages_folders(longhall: Longhall) -> None:
    client = longhall.app.test_client()
    for path in ("/phone/../server/web/app.py", "/static/../../pyproject.toml", "/phone/nope.js"):
        assert client.get(path).status_code == 404


def test_every_page_module_is_served_compressed(longhall: Longhall) -> None:
    """The shells' shared modules and each game's page modules (loaded with import()) are
    served like the pages themselves."""
    client = longhall.app.test_client()
    modules = [
        ("/phone/page.js", ROOT / "phone_ui" / "page.js"),
        ("/table/page.js", ROOT / "table_display" / "page.js"),
    ]
    for prefix, folder in (("/phone", "phone_ui"), ("/table", "table_display")):
        for path in sorted((ROOT / folder / "games").glob("*.js")):
            modules.append((f"{prefix}/games/{path.name}", path))
    for path in sorted((ROOT / "server" / "static" / "games").glob("*.js")):
        modules.append((f"/static/games/{path.name}", path))
    assert len(modules) >= 5
    for url, path in modules:
        answer = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, url
        assert answer.headers["Content-Type"].startswith("text/javascript"), url
        assert gzip.decompress(answer.data) == path.read_bytes(), url
