"""Running the app: bind the socket ourselves (a clear error for a port in use, port 0 for tests), warn when
the address is not loopback, serve with uvicorn, stop cleanly on Ctrl-C (running workers are killed).

uvicorn: the reference ASGI server, one process and one event loop here, which is all this needs: the
engines run in worker processes (nonocp.web.workers), never in the server's loop.
"""

from __future__ import annotations

import importlib
import ipaddress
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable

from nonocp.core.errors import NonocpError
from nonocp.web.config import LOOPBACK_HOSTS, Settings


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; NonocpError naming the address when that is not possible."""
    if not 0 <= port <= 65535:
        raise NonocpError(f"--port {port}: choose a port from 1 to 65535 (0 picks a free one)")
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise NonocpError(f"--host {host}: cannot resolve it ({e.strerror})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        reason = "the port is in use; choose another with --port" if e.errno == 98 else (e.strerror or str(e))
        raise NonocpError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def event_loop_and_parser() -> tuple[str, str]:
    """uvicorn's event loop and HTTP parser: uvloop's and httptools' (C, dependencies of nonocp) when they can
    be imported, else asyncio's and h11 (pure Python; uvloop is not built for every platform). With the pure
    Python pair, answering or refusing a request costs the loop about twice the CPU time, and under a flood
    of requests an honest one waits that much longer (benchmarks/results/web.md)."""

    def importable(module: str) -> bool:
        try:
            importlib.import_module(module)
        except ImportError:
            return False
        return True

    return ("uvloop" if importable("uvloop") else "asyncio", "httptools" if importable("httptools") else "h11")


SHORT_SLICE_NS = 100_000
_SCHED_SETATTR = {"x86_64": 314, "aarch64": 274}  # the system call's number by machine (Linux)


def ask_for_short_slices() -> None:
    """The calling thread (the event loop's) asks Linux for a 0.1 ms time slice (6.12+, no privilege needed):
    on a busy machine its wake-ups then preempt sooner, with no more CPU share than before (under the
    flood, other sessions' work made an honest request wait for a core: benchmarks/results/web.md).
    Threads and processes started afterwards keep the default slice (SCHED_FLAG_RESET_ON_FORK). Best effort:
    elsewhere, or for a thread a user put under another policy, nothing changes."""
    import platform

    number = _SCHED_SETATTR.get(platform.machine())
    if not sys.platform.startswith("linux") or number is None:
        return
    try:
        import ctypes
        import os
        import struct

        if os.sched_getscheduler(0) != os.SCHED_OTHER:
            return
        # struct sched_attr: size, policy, flags, nice, priority, runtime, deadline, period
        attr = struct.pack("IIQiIQQQ", 48, os.SCHED_OTHER, 1, os.nice(0), 0, SHORT_SLICE_NS, 0, 0)
        ctypes.CDLL(None, use_errno=True).syscall(number, 0, ctypes.create_string_buffer(attr), 0)
    except (OSError, AttributeError, ValueError):
        pass


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = False,
    settings: Settings | None = None,
    say: Callable[[str], None] | None = None,
) -> None:
    """Serve until Ctrl-C (or SIGTERM). Messages for the person at the terminal go to `say` (stderr)."""
    import uvicorn

    from nonocp.web.app import create_app

    say = say or (lambda text: print(f"nonocp serve: {text}", file=sys.stderr, flush=True))
    settings = settings or Settings()
    loopback = is_loopback(host)
    if not loopback:
        say(f"warning: listening on {host}, not on this machine's loopback address: anyone who can reach "
            "it can use this server (it has no accounts or passwords)")
        settings = Settings(**{**settings.__dict__, "allowed_hosts": None})
    elif settings.allowed_hosts is not None and host not in settings.allowed_hosts:
        settings = Settings(**{**settings.__dict__, "allowed_hosts": (*settings.allowed_hosts, host)})
    sock = bind(host, port)
    url = url_of(sock)
    if url.startswith("http://127.0.0.1") and host.lower() == "localhost":
        url = url.replace("127.0.0.1", "localhost", 1)
    app = create_app(settings)
    loop, http = event_loop_and_parser()
    # no proxy sits in front of this server: X-Forwarded-* headers are not read (they would cost the loop too)
    config = uvicorn.Config(
        app, loop=loop, http=http, log_level="warning", access_log=False, lifespan="on",
        timeout_graceful_shutdown=5, server_header=False, proxy_headers=False,
    )
    workers = app.state.workers

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            workers.stop_soon()  # running solves end now (killed), so the shutdown need not wait for them
            super().handle_exit(sig, frame)

    server = Server(config)
    threading.Thread(target=_announce, args=(server, url, open_browser, say), daemon=True).start()
    ask_for_short_slices()  # this thread runs the event loop
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it handled, after its clean shutdown
        pass
    finally:
        sock.close()
    say("stopped")


def _announce(server, url: str, open_browser: bool, say: Callable[[str], None]) -> None:
    """Say where the server is once it answers (and open the page if asked)."""
    import time

    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    say(f"{url} (Ctrl-C stops it)")
    if open_browser:
        webbrowser.open(url)


__all__ = ["LOOPBACK_HOSTS", "bind", "is_loopback", "serve"]
