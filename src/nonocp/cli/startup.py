"""The garbage collector while `nonocp` starts: off while it imports and reads its arguments (many objects
made, no garbage worth a collection), back on when the command starts its work."""

import gc


def pause_collector() -> None:
    gc.disable()


def start_work() -> None:
    """The collector back on; everything made so far (modules, the parsed command) is frozen, so later
    collections do not walk it again."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
