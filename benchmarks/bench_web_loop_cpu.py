"""The CPU time `nonocp serve`'s own process (its event loop) spends on one request, by kind of request.

Each kind is sent N times, one connection each (as the flood of bench_web_hostile.py does), from raw
sockets whose requests are built in advance (the client costs little); the server process's CPU seconds
(/proc, without its workers) are read before and after. Kinds: GET /api/info; a POST from another site
(refused 403 on its headers); a same-origin text/plain POST (refused 415 after routing); a GET of a path
that does not exist (404). CPU time, not the clock: the figure holds at any load (within the noise of
the machine's caches).

    python benchmarks/bench_web_loop_cpu.py [--requests 3000] [--server-src DIR] [--plain-io]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_web_hostile import PLAIN_IO, own_cpu, start_server  # noqa: E402

BODY = b'{"puzzle": {"rows": [[[1, "1"]]], "columns": [[[1, "1"]]]}}'


def requests(host: str) -> dict[str, bytes]:
    post = ("POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: {ctype}\r\n{extra}"
            "Content-Length: {n}\r\nConnection: close\r\n\r\n")
    return {
        "GET /api/info": f"GET /api/info HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode(),
        "POST from another site (403)": post.format(host=host, ctype="text/plain", n=len(BODY),
                                                    extra="Origin: http://evil.example\r\n"
                                                          "Sec-Fetch-Site: cross-site\r\n").encode() + BODY,
        "text/plain POST (415)": post.format(host=host, ctype="text/plain", n=len(BODY), extra="").encode() + BODY,
        "GET of nothing (404)": f"GET /api/nothing HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode(),
    }


def send(address: tuple[str, int], request: bytes) -> bytes:
    with socket.create_connection(address) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data


def measure(src: str | None, plain_io: str | None, n: int, rounds: int = 3) -> dict[str, float]:
    """Microseconds of server CPU a request, the median of `rounds` rounds of n requests, by kind."""
    proc, url = start_server(src, plain_io)
    try:
        host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
        address = (host, int(port))
        out = {}
        for kind, request in requests(f"{host}:{port}").items():
            status = send(address, request).split(b" ", 2)[1]
            per = []
            for _ in range(rounds):
                before = own_cpu(proc.pid)
                for _ in range(n):
                    send(address, request)
                per.append((own_cpu(proc.pid) - before) / n * 1e6)
            out[f"{kind} [{status.decode()}]"] = statistics.median(per)
        return out
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--server-src", default=None, help="run the server from this source tree too (a baseline)")
    ap.add_argument("--plain-io", action="store_true", help="also on asyncio and h11 (uvloop, httptools hidden)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sitecustomize.py").write_text(PLAIN_IO)
        runs = {"this tree": measure(None, None, args.requests)}
        if args.plain_io:
            runs["this tree, asyncio + h11"] = measure(None, tmp, args.requests)
        if args.server_src:
            runs[f"baseline ({args.server_src})"] = measure(args.server_src, None, args.requests)
    kinds = list(next(iter(runs.values())))
    print(f"Server process CPU per request, µs (median of 3 rounds of {args.requests}; load "
          f"{os.getloadavg()[0]:.1f})\n")
    print("| request | " + " | ".join(runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(f"{r.get(kind, float('nan')):.0f}" for r in runs.values()) + " |")


if __name__ == "__main__":
    main()
