"""`nonocp serve`: the workbench in a browser (solve, step, design, edit, share) and its JSON API.

Modules: app.py (the ASGI app: routes, errors as JSON, the host check), api.py (the /api/ endpoints),
codec.py (puzzles in and out of requests, clue text, limits), workers.py (every request read and every
engine run in a worker process with a hard time limit), reading.py (requests read in a worker), jobs.py
(what the workers run), puzzles.py (the shipped puzzles),
server.py (binding, uvicorn, Ctrl-C), config.py (limits). The page is static/ (HTML, CSS, JavaScript
modules; no build step, nothing loaded from elsewhere).

Imported only by `nonocp serve` and the tests: Starlette and uvicorn stay out of every other command.
"""

from nonocp.web.app import create_app
from nonocp.web.config import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]
