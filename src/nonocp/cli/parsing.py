"""How `nonocp` parses its arguments, shows help and reports usage errors: typer's Command and Group with
three changes.

- **Coercion without pydantic.** typer builds a pydantic TypeAdapter for each parameter while parsing
  (importing pydantic and building schemas costs more than the rest of a small solve). Parameters of the
  plain types our commands use (str, int, float, bool, lists of them, optional) get a direct conversion
  instead; anything else keeps typer's own. Range limits (`min=`, `max=`) are checked the same way.
- **Plain help.** Usage, description, arguments and options with a metavar (`--timeout SECONDS`, never
  `<float>` or `<bool>`), defaults as `(default: X)`, no rich import: `nonocp -h` stays instant.
- **One-line usage errors.** `nonocp: no such option: --bogus (see 'nonocp solve --help')` on stderr, exit 2,
  instead of click's usage block or typer's boxed panel.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperCommand, TyperGroup

from nonocp.cli import startup

USAGE_ERROR = 2
# Option names that work but are not shown in help (old spellings kept for scripts; see cli/options.py).
HIDDEN_ALIASES: set[str] = set()
# (command, option) -> what to give instead, for an option a command no longer takes under that name: the
# usage error says it (`generate -n 5`: "the number of puzzles is --count N").
MOVED: dict[tuple[str, str], str] = {}

# --- coercion ---------------------------------------------------------------------------------------

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{value!r} is not true or false")


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a whole number")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"{value!r} is not a whole number") from None


def _to_float(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    try:
        number = float(str(value).strip())
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(f"{value!r} is not a finite number")
    return number


_CONVERTERS: dict[Any, Callable[[Any], Any]] = {str: str, int: _to_int, float: _to_float, bool: _to_bool}


class PlainCoercion:
    """Converts one parameter's raw value(s) to its annotation's type; a `typer.BadParameter` otherwise.

    Duck-types typer's RuntimeParam (its `coerce(value, param, ctx)` is all typer calls)."""

    def __init__(self, convert: Callable[[Any], Any], many: bool, low: float | None, high: float | None) -> None:
        self.convert = convert
        self.many = many
        self.low = low
        self.high = high

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = getattr(param, "multiple", False) or getattr(param, "nargs", 1) == -1
        if value is None:
            return () if multi else None
        if self.many or multi:
            items = value if isinstance(value, (list, tuple)) else [value]
            return [self._one(v, param, ctx) for v in items]
        return self._one(value, param, ctx)

    def _one(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            out = self.convert(value)
        except ValueError as e:
            raise typer.BadParameter(str(e), ctx=ctx, param=param) from None
        if self.low is not None and out < self.low:
            raise typer.BadParameter(f"{value} is less than {self.low:g}", ctx=ctx, param=param)
        if self.high is not None and out > self.high:
            raise typer.BadParameter(f"{value} is more than {self.high:g}", ctx=ctx, param=param)
        return out


def plain_coercion(param: Any) -> PlainCoercion | None:
    """A PlainCoercion for `param` when its type is a plain one, else None (typer's own coercion stays)."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return None
    info = descriptor.parameter_info
    if getattr(info, "parser", None) is not None or getattr(info, "click_type", None) is not None:
        return None
    annotation = descriptor.annotation
    many = False
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation) or (str,)
        many = True
    convert = _CONVERTERS.get(annotation)
    if convert is None:
        return None
    return PlainCoercion(convert, many, getattr(info, "min", None), getattr(info, "max", None))


def install_plain_coercion(params: Sequence[Any]) -> None:
    """Give each plain parameter its direct conversion before typer builds a pydantic adapter for it.

    typer keeps the adapter in `_runtime_param` and builds it only while that is None; a typer without
    that attribute (older releases, which use click's types) is left alone."""
    for param in params:
        if getattr(param, "_runtime_param", "absent") is None:
            coercion = plain_coercion(param)
            if coercion is not None:
                param._runtime_param = coercion


# --- help -------------------------------------------------------------------------------------------


def metavar_of(param: Any) -> str:
    """What stands for the value in help: the declared metavar, else the parameter's name in capitals."""
    if param.metavar:
        return str(param.metavar)
    name = (param.name or "value").upper()
    if param.param_type_name == "argument" and param.nargs != 1:
        return name + "..."
    return name


def option_record(param: Any) -> tuple[str, str] | None:
    """(`-b, --backend ENGINE`, `help (default: auto)`) for one option; None for hidden ones."""
    if param.hidden:
        return None
    shown = [o for o in param.opts if o not in HIDDEN_ALIASES]
    shorts = [o for o in shown if not o.startswith("--")]
    longs = [o for o in shown if o.startswith("--")]
    names = ", ".join(shorts + longs)
    if not shorts:
        names = "    " + names
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    if not param.is_flag:
        names += " " + metavar_of(param)
    help_text = (param.help or "").strip()
    default = param.default
    show = param.show_default
    shown = None
    if isinstance(show, str):
        shown = show
    elif show and not param.is_flag and default not in (None, "", (), []) and not callable(default):
        shown = ",".join(map(str, default)) if isinstance(default, (list, tuple)) else str(default)
    elif show and param.secondary_opts and param.is_flag:
        shown = (param.opts if default else param.secondary_opts)[0]
    if shown is not None:
        help_text = (f"{help_text[:-1]} (default: {shown})." if help_text.endswith(".")
                     else f"{help_text} (default: {shown})".strip())
    if param.required:
        help_text = f"Required. {help_text}"
    return names, help_text.strip()


def format_command_help(command: Any, ctx: Any, formatter: Any) -> None:
    command.format_usage(ctx, formatter)
    command.format_help_text(ctx, formatter)
    arguments = [(metavar_of(p), p.help or "") for p in command.get_params(ctx)
                 if p.param_type_name == "argument" and not getattr(p, "hidden", False)]
    if arguments:
        with formatter.section("Arguments"):
            formatter.write_dl(arguments)
    options = [r for p in command.get_params(ctx) if p.param_type_name == "option" for r in [option_record(p)] if r]
    if options:
        with formatter.section("Options"):
            formatter.write_dl(options)
    command.format_epilog(ctx, formatter)


def usage_pieces(command: Any, ctx: Any) -> list[str]:
    pieces = [command.options_metavar] if command.options_metavar else []
    for p in command.get_params(ctx):
        if p.param_type_name == "argument":
            name = metavar_of(p)
            pieces.append(name if p.required else f"[{name}]")
    return pieces


# --- errors -----------------------------------------------------------------------------------------


def one_line(error: Any) -> str:
    """A click usage error as one line naming the command and where its help is."""
    message = " ".join(error.format_message().split())
    if message and message[0].isupper() and not message[1:2].isupper():
        message = message[0].lower() + message[1:]
    ctx = getattr(error, "ctx", None)
    name = getattr(error, "option_name", None)
    instead = MOVED.get((getattr(ctx, "info_name", None) or "", name or ""))
    if instead is not None:
        message = f"no such option: {name}; {instead}"
    where = f" (see '{ctx.command_path} --help')" if ctx is not None and ctx.command_path else ""
    return f"nonocp: {message.rstrip('.')}{where}"


def run_main(command: Any, main: Callable[..., Any], args: Any, kwargs: dict[str, Any]) -> Any:
    """Run typer's `main` without its error presentation, and present usage errors on one line."""
    try:
        from typer._click.exceptions import ClickException, NoArgsIsHelpError
    except ImportError:  # typer releases that use click itself
        from click.exceptions import ClickException, NoArgsIsHelpError

    standalone = kwargs.pop("standalone_mode", True)
    try:
        code = main(args, standalone_mode=False, **kwargs)
    except NoArgsIsHelpError as e:  # `nonocp` alone: the help, as click does
        if not standalone:
            raise
        print(e.ctx.get_help() if e.ctx is not None else e.format_message())
        sys.exit(USAGE_ERROR)
    except ClickException as e:
        if not standalone:
            raise
        print(one_line(e), file=sys.stderr)
        sys.exit(getattr(e, "exit_code", USAGE_ERROR) or USAGE_ERROR)
    except typer.Abort:
        if not standalone:
            raise
        print("nonocp: aborted", file=sys.stderr)
        sys.exit(1)
    if not standalone:
        return code
    sys.exit(code if isinstance(code, int) else 0)


class NonocpCommand(TyperCommand):
    """A typer command with plain coercion, plain help and one-line usage errors (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["rich_markup_mode"] = None
        super().__init__(*args, **kwargs)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        install_plain_coercion(params)  # the help option is made here, lazily
        return params

    def format_help(self, ctx: Any, formatter: Any) -> None:
        format_command_help(self, ctx, formatter)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return usage_pieces(self, ctx)

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        return run_main(self, super().main, args, kwargs)

    def invoke(self, ctx: Any) -> Any:
        startup.start_work()
        try:
            return super().invoke(ctx)
        finally:
            # a command's text-grid width (--compact, the terminal's) is its own, not the next caller's in
            # this process (tests, the Python API after a command ran in-process)
            text = sys.modules.get("nonocp.render.text")
            if text is not None:
                text.fit_to(None)


class NonocpGroup(TyperGroup):
    """The `nonocp` group: the same three changes as NonocpCommand, and commands listed in one column."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["rich_markup_mode"] = None
        super().__init__(*args, **kwargs)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        install_plain_coercion(params)  # the help option is made here, lazily
        return params

    def format_help(self, ctx: Any, formatter: Any) -> None:
        format_command_help(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [*usage_pieces(self, ctx), "COMMAND [ARGS]..."]

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        return run_main(self, super().main, args, kwargs)
