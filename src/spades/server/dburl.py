"""The database URL of ``spades serve``, checked before anything opens it; and a private
SQLite file.

Why check first: SQLAlchemy and SQLite fail late and loudly (a traceback from deep inside a
driver, or a dialect that is not installed), while the person who typed ``--db`` needs one
line saying what is wrong with what they typed. Why private: the database holds every
seat's token and the deck of the hand in play, so a file other users of the machine can
read lets them sit in anyone's seat and see every hand.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from spades.errors import SpadesError

__all__ = ["check_db_url", "default_db_url", "hide_password", "secure_sqlite_file", "sqlite_path"]

SUPPORTED = "use sqlite:///PATH or postgresql://USER@HOST/DB"
SQLITE_MAGIC = b"SQLite format 3\x00"


def default_db_url() -> str:
    """An SQLite file in the user's data directory (created by ``secure_sqlite_file``)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('spades', appauthor=False)) / 'spades.db'}"


def hide_password(url: str) -> str:
    """``url`` as typed, with the password of its ``USER:PASSWORD@`` replaced by ``***``
    (whether or not SQLAlchemy can parse it; up to the last ``@``, since a malformed URL may
    hold one unescaped in its password)."""
    scheme = r"[^:/@]*://" if "://" in url else ""
    return re.sub(rf"^({scheme}[^/@:]*:)[^@]*@", r"\1***@", url)


def check_db_url(url: str | None) -> str:
    """The SQLAlchemy URL to open for ``--db url`` (``None``: the default SQLite file), or a
    one-line ``SpadesError`` naming the URL (password hidden) and what is wrong with it.

    Only SQLite (the stdlib driver) and PostgreSQL (psycopg 3) are supported;
    ``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://``. For SQLite the file
    must be a path (``~`` is expanded), its folder must be a folder we can write in (or one
    we can create), and an existing file must be an SQLite database we can write. Nothing
    is created here: ``secure_sqlite_file`` does that.
    """
    if url is None:
        url = default_db_url()
    shown = hide_password(url)
    if not url.strip():
        raise SpadesError(f"database URL is empty: {SUPPORTED}")
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SpadesError(f"database URL {shown!r} is not valid: {SUPPORTED}") from None
    except Exception as e:
        raise SpadesError(f"database URL {shown!r} is not valid: {e}") from None
    backend, _, driver = parsed.drivername.partition("+")
    if backend in ("postgresql", "postgres"):
        if driver not in ("", "psycopg"):
            raise SpadesError(
                f"database URL {shown}: the {driver} driver is not supported (spades uses psycopg 3: "
                "postgresql://USER@HOST/DB)"
            )
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if backend != "sqlite":
        raise SpadesError(f"database URL {shown}: {backend} is not supported ({SUPPORTED})")
    if driver not in ("", "pysqlite"):
        raise SpadesError(f"database URL {shown}: the {driver} driver is not supported (use sqlite:///PATH)")
    return _check_sqlite(url, parsed, shown)


def _check_sqlite(url: str, parsed: URL, shown: str) -> str:
    database = parsed.database or ""
    if not database.strip():
        raise SpadesError(
            f"database URL {shown}: no file path (write sqlite:///PATH, e.g. sqlite:///spades.db)"
        )
    if database == ":memory:":
        raise SpadesError(
            f"database URL {shown}: an in-memory database would lose every table when the server "
            "stops; give a file path"
        )
    if parsed.query.get("uri") not in (None, "false", "0"):
        raise SpadesError(
            f"database URL {shown}: SQLite URI filenames (uri=true) are not supported; give a path"
        )
    path = Path(database).expanduser()
    if str(path) != database:
        url = parsed.set(database=str(path)).render_as_string(hide_password=False)
    where = f"database URL {shown}"
    st = _stat(path, where)
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise SpadesError(f"{where}: {path} is a folder, not a database file")
        if not stat.S_ISREG(st.st_mode):
            raise SpadesError(f"{where}: {path} is not a regular file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise SpadesError(f"{where}: {path} is not readable and writable by this user")
        if st.st_size > 0:
            try:
                with open(path, "rb") as f:
                    head = f.read(len(SQLITE_MAGIC))
            except OSError as e:
                raise SpadesError(f"{where}: cannot read {path}: {e.strerror or e}") from None
            if head != SQLITE_MAGIC:
                raise SpadesError(f"{where}: {path} exists and is not an SQLite database")
    folder = path.parent
    existing = folder
    while (st := _stat(existing, where)) is None:
        if existing.parent == existing:
            raise SpadesError(f"{where}: no part of {folder} exists")
        existing = existing.parent
    if not stat.S_ISDIR(st.st_mode):
        raise SpadesError(f"{where}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        if existing == folder:
            raise SpadesError(
                f"{where}: the folder {folder} is not writable by this user "
                "(SQLite writes its -wal and -shm files beside the database)"
            )
        raise SpadesError(
            f"{where}: cannot create the folder {folder}: {existing} is not writable by this user"
        )
    return url


def _stat(path: Path, where: str) -> os.stat_result | None:
    """``path``'s status, ``None`` when nothing is there; any other failure is the user's
    one-line error (a folder we may not enter, a loop of links...)."""
    try:
        return path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise SpadesError(f"{where}: cannot look at {path}: {e.strerror or e}") from None


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (as returned by ``check_db_url``); ``None`` for PostgreSQL
    and for SQLite without a file."""
    parsed = make_url(url)
    if parsed.drivername.partition("+")[0] != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database or "")


def secure_sqlite_file(path: Path) -> None:
    """Create the database file owner-only (0600) before SQLite opens it, in a folder made
    0700 if it is new, and take group and world access off an existing file and its -wal
    and -shm files. (SQLite gives the -wal and -shm files it creates the mode of the database
    file, so they stay private too.) Raises a one-line ``SpadesError`` on failure."""
    folder = path.parent
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(folder, 0o700)  # mkdir's mode passes through the umask
        if not path.exists():
            # Only a new file is opened here: closing any descriptor of a file drops the POSIX
            # locks this process holds on it, which SQLite's open connections rely on.
            os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if p == path or p.exists():
                os.chmod(p, 0o600)
    except OSError as e:
        raise SpadesError(f"cannot create the database file {path} privately: {e.strerror or e}") from None
