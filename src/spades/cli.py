"""The ``spades`` command: a click group whose subcommands live in ``spades.commands``.

Each module there exposes ``command`` (a ``click.Command``) and is found by name, so a new
subcommand is a new file. Errors users can cause are ``SpadesError``s and print one line.

Everything is said in the language ``spades --lang``, ``SPADES_LANG`` or the locale picks
(``spades.i18n``): our help texts are ``N_()``-marked ids translated when the help is shown,
click's headings and help option too, and an engine error through ``i18n.localized``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import click

import spades.commands
from spades.clickwords import click_speaks, metavar_words
from spades.errors import SpadesError
from spades.i18n import N_, _, choose_language, language, localized, set_language

_CLICK_WORDS = {
    "Usage: ": N_("Usage: "),
    "Options": N_("Options"),
    "Commands": N_("Commands"),
    "Arguments": N_("Arguments"),
    "Show this message and exit.": N_("Show this message and exit."),
    "Show the version and exit.": N_("Show the version and exit."),
}
"""Click's own words in a help page, translated from our catalogs."""


class _Formatter(click.HelpFormatter):
    """Click's help page with its headings, the help option and ``[default: ...]`` in the
    reader's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        # click's metavars for the options and the subcommand are plain strings, not messages
        args = args.replace("COMMAND [ARGS]...", _("COMMAND [ARGS]...")).replace("[OPTIONS]", _("[OPTIONS]"))
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        said = _("{heading}:").format(heading=_(_CLICK_WORDS.get(heading, heading)))
        self.write(f"{'':>{self.current_indent}}{said}\n")

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(metavar_words(term), _said(text)) for term, text in rows], col_max, col_spacing)


def _said(text: str) -> str:
    if text in _CLICK_WORDS:
        return _(_CLICK_WORDS[text])
    text = re.sub(r"\[default: (.*?)\]", lambda m: _("[default: {value}]").format(value=m[1]), text)
    return text.replace("[required]", _("[required]"))


class _Context(click.Context):
    formatter_class = _Formatter


def localize(cmd: click.Command) -> click.Command:
    """Show ``cmd``'s help (and its options') in the current language: the English ids are
    kept aside once and translated again each time, so a later language change is followed."""
    ids: dict[int, str | None] | None = getattr(cmd, "_spades_help_ids", None)
    objs: list[Any] = [cmd, *cmd.params]
    if ids is None:
        ids = {id(o): o.help for o in objs}
        cmd._spades_help_ids = ids  # type: ignore[attr-defined]
    for o in objs:
        text = ids.get(id(o))
        if text:
            o.help = _(text)
    cmd.context_class = _Context
    return cmd


class _Group(click.Group):
    context_class = _Context

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        localize(self)
        super().format_help(ctx, formatter)

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
        return localize(cmd) if isinstance(cmd, click.Command) else None


LANG_ENV = "SPADES_LANG"


_IN_MAIN = [False]
"""Whether ``main`` runs the command (it puts the language back itself, after the error line)."""


def _restorer(before: str, env: str | None) -> Callable[[], None]:
    def restore() -> None:
        set_language(before)
        if env is None:
            os.environ.pop(LANG_ENV, None)
        else:
            os.environ[LANG_ENV] = env

    return restore


def _set_lang(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """``spades --lang it ...``: the language of every command, as ``SPADES_LANG`` (so the
    subcommand's own choice and any program it starts agree); put back when the command ends
    (by ``main`` once its error line is out, else when click closes the command)."""
    if value is None:
        return
    lang = choose_language(value)
    restore = _restorer(language(), os.environ.get(LANG_ENV))
    set_language(lang)
    os.environ[LANG_ENV] = lang
    if not _IN_MAIN[0]:
        ctx.call_on_close(restore)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--lang",
    metavar="LANG",
    is_eager=True,
    expose_value=False,
    callback=_set_lang,
    help=N_("Language of every message: en, it, sl or fr (default: SPADES_LANG, then the system locale)."),
)
@click.option(
    "--version",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=lambda ctx, _param, value: _show_version(ctx) if value else None,
    help=N_("Show the version and exit."),
)
def cli() -> None:
    """Spades: play in the terminal or the browser, replay, analyse and pit bots."""


cli.help = N_("Spades: play in the terminal or the browser, replay, analyse and pit bots.")


def _show_version(ctx: click.Context) -> None:
    """``spades --version``: click's own option says its sentence in the language of the
    moment the command was defined (import), this one in the reader's."""
    from importlib.metadata import version

    click.echo(_("%(prog)s, version %(version)s") % {"prog": "spades", "version": version("spades")})
    ctx.exit()


def _sentence(text: str) -> str:
    """Click's message as a clause of our one line: one line, no final period, lower case
    (an acronym such as UUID keeps its capitals)."""
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:] if not text[1:2].isupper() else text


def _option_name(param: click.Parameter) -> str:
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)  # --jobs, not -j
    return param.human_readable_name


def usage_line(e: click.UsageError) -> str:
    """A usage error (bad or missing option or argument, unknown option or command) as the one
    line every ``spades`` error is: ``spades: --port: 'abc' is not a valid integer``."""
    path = e.ctx.command_path if e.ctx is not None else "spades"
    if isinstance(e, click.MissingParameter) and e.param is not None:
        pieces = e.ctx.command.collect_usage_pieces(e.ctx) if e.ctx is not None else []
        usage = " ".join([path, *pieces]).replace("[OPTIONS]", _("[OPTIONS]"))
        what = (
            N_("spades: missing option {name} (usage: {usage})")
            if isinstance(e.param, click.Option)
            else N_("spades: missing argument {name} (usage: {usage})")
        )
        return _(what).format(name=_option_name(e.param), usage=usage)
    if isinstance(e, click.BadParameter) and e.param is not None:
        return _("spades: {option}: {error}").format(option=_option_name(e.param), error=_sentence(e.message))
    if isinstance(e, click.NoSuchOption):
        if e.possibilities:
            return _(
                "spades: {option}: no such option of '{path}'; did you mean {maybe}? (see '{path} --help')"
            ).format(option=e.option_name, path=path, maybe=_(" or ").join(sorted(e.possibilities)))
        return _("spades: {option}: no such option of '{path}' (see '{path} --help')").format(
            option=e.option_name, path=path
        )
    return _("spades: {error} (see '{path} --help')").format(error=_sentence(e.format_message()), path=path)


@contextmanager
def _speaking() -> Iterator[None]:
    """The language of ``SPADES_LANG`` or the locale for the whole command (the help included,
    which click shows before ``--lang``'s own turn), click's own sentences too
    (``spades.clickwords``), then the caller's language again."""
    restore = _restorer(language(), os.environ.get(LANG_ENV))
    _IN_MAIN[0] = True
    try:
        set_language(choose_language(None))
        with click_speaks():
            yield
    finally:
        _IN_MAIN[0] = False
        restore()


def main(argv: list[str] | None = None) -> int:
    """The ``spades`` command: every error a user can cause is one line on stderr and exit 1."""
    try:
        with _speaking():
            return _main(argv)
    except SpadesError as e:  # SPADES_LANG names no catalog
        click.echo(f"spades: {localized(e)}", err=True)
        return 1


def _main(argv: list[str] | None) -> int:
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
        click.echo(_("Aborted."), err=True)
        return 130
    except SpadesError as e:
        click.echo(f"spades: {localized(e)}", err=True)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
