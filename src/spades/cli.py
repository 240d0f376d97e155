"""The ``spades`` command: a click group whose subcommands live in ``spades.commands``.

Each module there exposes ``command`` (a ``click.Command``) and is found by name, so a new
subcommand is a new file. Errors users can cause are ``SpadesError``s and print one line.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import click

import spades.commands
from spades.errors import SpadesError


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(
            m.name.replace("_", "-")
            for m in pkgutil.iter_modules(spades.commands.__path__)
            if not m.name.startswith("_")
        )

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        name = cmd_name.replace("-", "_")
        if name.startswith("_"):
            return None
        try:
            module = importlib.import_module(f"spades.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"spades.commands.{name}":
                return None
            raise
        cmd = getattr(module, "command", None)
        return cmd if isinstance(cmd, click.Command) else None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spades")
def cli() -> None:
    """Spades: play in the terminal or the browser, replay, analyse and pit bots."""


def _sentence(text: str) -> str:
    """Click's message as a clause of our one line: one line, no final period, lower case."""
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _option_name(param: click.Parameter) -> str:
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)  # --jobs, not -j
    return param.human_readable_name


def usage_line(e: click.UsageError) -> str:
    """A usage error (bad or missing option or argument, unknown option or command) as the one
    line every ``spades`` error is: ``spades: --port: 'abc' is not a valid integer``."""
    path = e.ctx.command_path if e.ctx is not None else "spades"
    if isinstance(e, click.MissingParameter) and e.param is not None:
        what = "option" if isinstance(e.param, click.Option) else "argument"
        pieces = e.ctx.command.collect_usage_pieces(e.ctx) if e.ctx is not None else []
        return f"spades: missing {what} {_option_name(e.param)} (usage: {' '.join([path, *pieces])})"
    if isinstance(e, click.BadParameter) and e.param is not None:
        return f"spades: {_option_name(e.param)}: {_sentence(e.message)}"
    if isinstance(e, click.NoSuchOption):
        maybe = f"; did you mean {' or '.join(sorted(e.possibilities))}?" if e.possibilities else ""
        return f"spades: {e.option_name}: no such option of '{path}'{maybe} (see '{path} --help')"
    return f"spades: {_sentence(e.format_message())} (see '{path} --help')"


def main(argv: list[str] | None = None) -> int:
    """The ``spades`` command: every error a user can cause is one line on stderr and exit 1."""
    try:
        cli.main(args=argv, prog_name="spades", standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.exceptions.NoArgsIsHelpError as e:  # a bare `spades`: the help, not an error
        assert e.ctx is not None
        click.echo(e.ctx.get_help())
        return 0
    except click.UsageError as e:
        click.echo(usage_line(e), err=True)
        return 1
    except click.ClickException as e:
        click.echo(f"spades: {_sentence(e.format_message())}", err=True)
        return 1
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 130
    except SpadesError as e:
        click.echo(f"spades: {e}", err=True)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
