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


def main(argv: list[str] | None = None) -> int:
    try:
        cli.main(args=argv, prog_name="spades", standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.ClickException as e:
        e.show()
        return e.exit_code
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
