"""`nonocp serve` against a hostile but fair client, through real HTTP to the running command: a request that
is costly to read does not stall the others (requests are read in worker processes, the event loop only
moves bytes), a client that disconnects mid-body costs one quiet line at most, not tracebacks, and two
pictures of 7000x7000 pixels imported at once cost the server under 256 MiB (they took 2.4 GB).

No wall-clock limits: what is checked is the order in which the server answers (a request it is still
reading cannot hold up another), and what it prints."""

from __future__ import annotations

import json
import select
import socket
import threading
import time
import urllib.request

import pytest

from test_web_serve import descendants, get, start


def raw_request(url: str, path: str, body: bytes, content_type: str = "application/json",
                extra: str = "") -> socket.socket:
    """A socket on which a whole POST request was sent (its answer not read yet)."""
    host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n{extra}"
                 f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    return sock


def answer_of(sock: socket.socket) -> tuple[int, dict]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def answered(sock: socket.socket) -> bool:
    """Whether the server has sent anything on `sock` yet."""
    return bool(select.select([sock], [], [], 0)[0])


def million_clues() -> bytes:
    """The issue's reproducer: one row of a million clues, about 2 MB (under the body limit)."""
    row = ",".join(["1"] * 999_000)
    return f"width 5\nheight 1\n\nrows\n{row}\n\ncolumns\n1\n1\n1\n1\n1\n".encode()


@pytest.fixture(scope="module")
def server():
    proc, url, _ = start("--port", "0")
    yield proc, url
    proc.terminate()
    proc.wait(15)


def test_a_body_that_is_slow_to_read_does_not_hold_up_another_request(server):
    """/api/info is answered while a 2 MB /api/open body is being read (the read worker running; it used to
    wait for the whole parse: 5.6 s), and the costly body is still answered, with the reason."""
    _, url = server
    slow = raw_request(url, "/api/open?name=wide.non", million_clues(), "application/octet-stream")
    while not answered(slow):
        info = get(url + "api/info")
        if info["workers"]["running"] >= 1 and not answered(slow):
            break  # answered while the slow body was being read
    else:
        pytest.fail("no /api/info was answered while the slow request was being read")
    status, error = answer_of(slow)
    assert status == 400 and "the clue needs 1997999 cells" in error["error"]


def test_a_client_that_disconnects_mid_body_leaves_no_traceback():
    proc, url, _ = start("--port", "0")
    try:
        host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
        for _ in range(20):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100000\r\n\r\n" + b"{" * 1000)
            sock.close()
        assert get(url + "api/info")["version"]  # still serving
    finally:
        proc.terminate()
        said = proc.stderr.read()
        proc.wait(15)
    assert "Traceback" not in said and "ClientDisconnect" not in said, said[-2000:]


def private_memory(pid: int) -> int:
    """Bytes only this process holds (private pages: what it decoded, not the libraries it shares)."""
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, value = line.split(":", 1)
                if key in ("Private_Clean", "Private_Dirty"):
                    total += int(value.split()[0]) * 1024
    except OSError:
        pass  # the process ended meanwhile
    return total


def test_two_big_pictures_imported_at_once_cost_under_256_mib(server, tmp_path):
    """Sampled while both uploads are read: the server, its fork server and the two workers together."""
    from test_image_memory import MIB, big_one_bit_png

    proc, url = server
    data = big_one_bit_png(tmp_path / "big.png").read_bytes()
    answers: list[dict] = []

    def upload() -> None:
        req = urllib.request.Request(url + "api/design/import?name=big.png&width=20", data,
                                     {"Content-Type": "application/octet-stream"})
        with urllib.request.urlopen(req, timeout=300) as r:
            answers.append(json.loads(r.read()))

    threads = [threading.Thread(target=upload) for _ in range(2)]
    for t in threads:
        t.start()
    peak = 0
    while any(t.is_alive() for t in threads):
        peak = max(peak, sum(private_memory(p) for p in {proc.pid, *descendants(proc.pid)}))
        time.sleep(0.005)
    assert [a["puzzle"]["width"] for a in answers] == [20, 20]
    assert peak < 256 * MIB, f"peak {peak / MIB:.0f} MiB"
