"""``--db`` URLs are checked before anything opens them (one line per mistake, password
hidden), and the SQLite file is created owner-only."""

from __future__ import annotations

import os
import sqlite3
import stat
import sys
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from spades.errors import SpadesError
from spades.server.dburl import check_db_url, hide_password, secure_sqlite_file, sqlite_path

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
not_root = pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")


def one_line_error(url: str | None) -> str:
    with pytest.raises(SpadesError) as info:
        check_db_url(url)
    message = str(info.value)
    assert "\n" not in message and message.strip() == message
    assert "secret" not in message  # the password never shows
    return message


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_path_under_a_regular_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a folder")
    msg = one_line_error(f"sqlite:///{tmp_path}/plain/x.db")
    assert f"{tmp_path / 'plain'} is a file, not a folder" in msg
    msg = one_line_error(f"sqlite:///{tmp_path}/plain/deeper/still/x.db")
    assert f"{tmp_path / 'plain'} is a file, not a folder" in msg


def test_etc_passwd_as_a_folder() -> None:
    if not Path("/etc/passwd").is_file():
        pytest.skip("no /etc/passwd here")
    assert "/etc/passwd is a file, not a folder" in one_line_error("sqlite:////etc/passwd/x.db")


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("mysql://root:secret@db/spades", "mysql"),
        ("mysql+pymysql://root:secret@db/spades", "mysql"),
        ("oracle://u:secret@h/x", "oracle"),
        ("http://u:secret@example.org/", "http"),
    ],
)
def test_unsupported_backends_say_what_is_supported(url: str, backend: str) -> None:
    msg = one_line_error(url)
    assert f"{backend} is not supported" in msg
    assert "sqlite:///PATH" in msg and "postgresql://" in msg
    assert "***" in msg  # the URL is named, its password hidden


@pytest.mark.parametrize("url", ["postgresql+psycopg2://u:secret@h/db", "postgresql+asyncpg://u:secret@h/db"])
def test_other_postgres_drivers_are_refused(url: str) -> None:
    msg = one_line_error(url)
    assert "driver is not supported" in msg and "psycopg 3" in msg


@pytest.mark.parametrize("url", ["::nonsense::", "/var/lib/spades.db", "spades.db", "user:secret@host/db"])
def test_unparseable_urls(url: str) -> None:
    assert "is not valid: use sqlite:///PATH or postgresql://USER@HOST/DB" in one_line_error(url)


@pytest.mark.parametrize("url", ["", "   "])
def test_empty_url(url: str) -> None:
    assert "database URL is empty" in one_line_error(url)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite+pysqlite:///"])
def test_sqlite_without_a_path(url: str) -> None:
    assert "no file path" in one_line_error(url)


def test_sqlite_in_memory_and_uri_filenames_are_refused(tmp_path: Path) -> None:
    assert "in-memory" in one_line_error("sqlite:///:memory:")
    assert "uri=true" in one_line_error(f"sqlite:///file:{tmp_path}/x.db?uri=true")
    assert "aiosqlite driver is not supported" in one_line_error(f"sqlite+aiosqlite:///{tmp_path}/x.db")


def test_a_folder_where_the_file_should_be(tmp_path: Path) -> None:
    (tmp_path / "db").mkdir()
    assert f"{tmp_path / 'db'} is a folder, not a database file" in one_line_error(f"sqlite:///{tmp_path}/db")


def test_an_existing_file_that_is_not_sqlite(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("dear diary")
    assert "is not an SQLite database" in one_line_error(f"sqlite:///{tmp_path}/notes.txt")


def deny(monkeypatch: pytest.MonkeyPatch, *denied: Path) -> None:
    """Make ``os.access`` say no for ``denied`` (chmod cannot lock out root, who runs CI here)."""
    real = os.access

    def access(path: str | os.PathLike[str], mode: int, **kw: object) -> bool:
        return Path(path) not in denied and real(path, mode)

    monkeypatch.setattr(os, "access", access)


def test_a_folder_we_cannot_write_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    deny(monkeypatch, locked)
    assert f"the folder {locked} is not writable" in one_line_error(f"sqlite:///{locked}/x.db")
    msg = one_line_error(f"sqlite:///{locked}/sub/deeper/x.db")
    assert f"cannot create the folder {locked / 'sub' / 'deeper'}: {locked} is not writable" in msg


def test_a_file_we_cannot_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "ro.db"
    sqlite3.connect(db).close()
    deny(monkeypatch, db)
    assert f"{db} is not readable and writable" in one_line_error(f"sqlite:///{db}")


@posix_only
@not_root
def test_a_folder_locked_by_its_mode(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert "is not writable" in one_line_error(f"sqlite:///{locked}/x.db")
    finally:
        locked.chmod(0o700)


def test_good_urls_pass_and_postgres_gets_psycopg_3(tmp_path: Path) -> None:
    assert check_db_url(f"sqlite:///{tmp_path}/new/deeper/x.db") == f"sqlite:///{tmp_path}/new/deeper/x.db"
    assert not (tmp_path / "new").exists()  # checking creates nothing
    existing = tmp_path / "old.db"
    sqlite3.connect(existing).execute("create table t (x)").connection.close()
    assert check_db_url(f"sqlite:///{existing}") == f"sqlite:///{existing}"
    empty = tmp_path / "empty.db"
    empty.touch()
    assert check_db_url(f"sqlite+pysqlite:///{empty}") == f"sqlite+pysqlite:///{empty}"
    assert (
        check_db_url("postgresql://u:p%40ss@db:5432/spades") == "postgresql+psycopg://u:p%40ss@db:5432/spades"
    )
    assert check_db_url("postgres://u@db/spades") == "postgresql+psycopg://u@db/spades"
    assert check_db_url("postgresql+psycopg://u@db/spades") == "postgresql+psycopg://u@db/spades"


def test_home_is_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    url = check_db_url("sqlite:///~/games/spades.db")
    assert url == f"sqlite:///{tmp_path}/games/spades.db"
    assert sqlite_path(url) == tmp_path / "games" / "spades.db"


def test_the_default_is_an_sqlite_file_in_the_user_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")  # platformdirs reads it at call time
    url = check_db_url(None)
    path = sqlite_path(url)
    assert path is not None and path.name == "spades.db"
    assert path.is_relative_to(tmp_path)


def test_sqlite_path() -> None:
    assert sqlite_path("sqlite:////srv/spades/x.db") == Path("/srv/spades/x.db")
    assert sqlite_path("sqlite:///rel.db") == Path("rel.db")
    assert sqlite_path("postgresql+psycopg://u@h/db") is None
    assert sqlite_path("sqlite://") is None


def test_passwords_are_hidden_even_in_urls_that_do_not_parse() -> None:
    assert hide_password("postgresql://u:secret@h/db") == "postgresql://u:***@h/db"
    assert "secret" not in hide_password("weird+://u:secret@h:notaport/db")
    assert hide_password("u:secret@host/db") == "u:***@host/db"
    assert "secret" not in hide_password("weird://u:sec@ret@h/db")
    assert hide_password("sqlite:///x.db") == "sqlite:///x.db"
    assert hide_password("sqlite:////srv/a@b/x.db") == "sqlite:////srv/a@b/x.db"


@posix_only
def test_the_file_and_a_new_folder_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = tmp_path / "fresh" / "spades.db"
        secure_sqlite_file(path)
        assert path.is_file() and path.stat().st_size == 0
        assert mode(path) == 0o600
        assert mode(path.parent) == 0o700
        # SQLite opens the prepared file as it is, and its -wal and -shm files take its mode
        conn = sqlite3.connect(path)
        conn.execute("pragma journal_mode=wal")
        conn.execute("create table t (x)")
        conn.execute("insert into t values (1)")
        conn.commit()
        for suffix in ("", "-wal", "-shm"):
            assert mode(path.with_name(path.name + suffix)) == 0o600, suffix
        conn.close()
    finally:
        os.umask(old)


@posix_only
def test_existing_files_are_made_private_and_kept(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        folder = tmp_path / "shared"
        folder.mkdir(mode=0o755)
        path = folder / "spades.db"
        conn = sqlite3.connect(path)
        conn.execute("pragma journal_mode=wal")
        conn.execute("create table t (x)")
        conn.execute("insert into t values (42)")
        conn.commit()
        siblings = [path, path.with_name("spades.db-wal"), path.with_name("spades.db-shm")]
        for p in siblings:
            p.chmod(0o644)
        secure_sqlite_file(path)
        assert [mode(p) for p in siblings] == [0o600, 0o600, 0o600]
        assert mode(folder) == 0o755  # a folder that was there already is the owner's business
        assert conn.execute("select x from t").fetchall() == [(42,)]  # nothing truncated
        conn.close()
    finally:
        os.umask(old)


@posix_only
def test_secure_file_failures_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(
        SpadesError, match=r"^cannot create the database file .*plain/x\.db privately: [^\n]+$"
    ):
        secure_sqlite_file(tmp_path / "plain" / "x.db")
