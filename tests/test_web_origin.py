"""A page on another origin cannot make `nonocp serve` work for it: real Chromium opens a page served from
another origin (another port on 127.0.0.1: the same site; `localhost`: another site) whose script sends what
a hostile page can send without asking (fetch in no-cors mode with text/plain, form and multipart bodies,
a form posted to the API) and what it would have to ask for (JSON, which needs a CORS preflight). The
server refuses each (the browser shows it the status even where the page cannot read it) and starts no
worker for any of them."""

from __future__ import annotations

import json
import signal
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from test_web_browser import CHROMIUM, PATIENCE_MS, launch_chromium, sync_api  # noqa: F401 - skips without a browser
from test_web_serve import get, start

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable on PATH")

HEART = {"rows": [[[2, "1"], [2, "1"]], [[7, "1"]], [[3, "1"]], [[1, "1"]]],
         "columns": [[[2, "1"]], [[3, "1"]], [[3, "1"]], [[2, "1"]], [[3, "1"]], [[3, "1"]], [[2, "1"]]]}

# What the foreign page runs: every request a page may send to another origin, then says it is done.
SCRIPT = """
const api = TARGET + "api/";
const body = JSON.stringify({puzzle: PUZZLE, engine: "native"});
const form = () => { const f = new FormData(); f.append("puzzle", body); return f; };
const tries = [
  () => fetch(api + "solve", {method: "POST", mode: "no-cors", body}),                      // text/plain
  () => fetch(api + "solve", {method: "POST", mode: "no-cors", body: new URLSearchParams({x: body})}),
  () => fetch(api + "solve", {method: "POST", mode: "no-cors", body: form()}),                // multipart
  () => fetch(api + "open?name=x.non", {method: "POST", mode: "no-cors", body: new Blob(["width 1"])}),
  () => fetch(api + "solve", {method: "POST", headers: {"Content-Type": "application/json"}, body}),  // preflight
  () => fetch(api + "info"),
];
(async () => {
  for (const t of tries) { try { await t(); } catch (e) { /* refused or unreadable: expected */ } }
  document.title = "done";
})();
"""


def foreign_page(target: str) -> bytes:
    # the classic "JSON through a text/plain form": name and value join into a JSON document
    name, value = json.dumps({"puzzle": HEART, "x": ""})[:-2], '"}'
    script = SCRIPT.replace("TARGET", json.dumps(target)).replace("PUZZLE", json.dumps(HEART))
    return f"""<!doctype html><title>foreign</title>
<form id=f method=post enctype=text/plain action="{target}api/solve" target=sink>
<input type=hidden name='{name}' value='{value}'></form><iframe name=sink></iframe>
<script>document.getElementById("f").submit();{script}</script>""".encode()


@pytest.fixture(scope="module")
def server():
    proc, url, _ = start("--port", "0")
    yield url
    proc.send_signal(signal.SIGINT)
    proc.wait(15)


@pytest.fixture(scope="module")
def foreign(tmp_path_factory, server):
    folder = tmp_path_factory.mktemp("foreign")
    (folder / "index.html").write_bytes(foreign_page(server))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])  # the same site on another port; another site
def test_a_page_on_another_origin_gets_nothing_done(server, foreign, host):
    seen: list[tuple[str, str, int]] = []
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page = browser.new_page()
            page.on("response", lambda r: seen.append((r.request.method, r.url, r.status)))
            page.goto(f"http://{host}:{foreign}/index.html")
            page.wait_for_function("document.title === 'done'")

            def api_posts() -> int:
                return sum(1 for m, u, _ in seen if m == "POST" and u.startswith(server + "api/"))

            # the form's navigation in the frame may answer after the script is done: wait for its answer
            deadline = time.monotonic() + PATIENCE_MS / 1000
            while api_posts() < 5 and time.monotonic() < deadline:
                page.wait_for_timeout(20)  # Playwright delivers the responses while it waits
        finally:
            browser.close()
    to_api = [(m, u.split("/api/", 1)[1], s) for m, u, s in seen if u.startswith(server + "api/")]
    posts = [(u, s) for m, u, s in to_api if m == "POST"]
    assert len(posts) >= 5, to_api  # the form and the four no-cors fetches reached the server ...
    assert all(s == 403 for _, s in posts), to_api  # ... and every one was refused
    assert all(s in (403, 405) for m, _, s in to_api), to_api  # the preflight too (never granted)
    assert get(server + "api/info")["workers"]["started"] == 0  # nothing was read or solved
