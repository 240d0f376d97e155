"""Accounts over HTTP: sign up, sign in, sign out (here or everywhere), delete; seats bound.

Every route here changes something and so checks the CSRF token (``sessions.check_csrf``);
``GET /api/account`` hands the page its token. Failed sign-ins are counted in the database per
account and per address (``AccountSettings``), so every worker of the service sees the same
counts; past a limit the route refuses before it even checks the password. Each sign-in
mints a fresh session and ends the one the browser held (no session fixation).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from spades.server.accountdb import ANONYMOUS, Session
from spades.server.sessions import (
    CSRF_COOKIE,
    N_,
    accounts_of,
    check_csrf,
    clear_session,
    current,
    name_key,
    name_problem,
    password_problem,
    refuse,
    set_csrf,
    set_session,
)

if TYPE_CHECKING:
    from spades.server.tables import TableActor

STATIC = Path(__file__).with_name("static")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Credentials(_Body):
    name: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=1024)]


class Confirm(_Body):
    password: Annotated[str, Field(min_length=1, max_length=1024)]


def _address(request: Request) -> str:
    client = request.client
    return client.host if client is not None else "unknown"


def _me(session: Session) -> dict[str, Any]:
    return {"id": session.account.id, "name": session.account.name}


def router() -> APIRouter:
    r = APIRouter()

    # ------------------------------------------------------------------ pages
    for path, page in (("/signin", "signin.html"), ("/account", "account.html")):

        async def serve(page: str = page) -> FileResponse:
            return FileResponse(STATIC / page)

        r.add_api_route(path, serve, methods=["GET"], include_in_schema=False)

    # ------------------------------------------------------------------ api
    @r.get("/api/account")
    async def whoami(request: Request) -> JSONResponse:
        """Who is signed in here (``account``: ``null`` for a guest) and the CSRF token the
        page sends back with every change (also in the ``spades_csrf`` cookie)."""
        accounts = accounts_of(request)
        session = await current(request)
        if session is not None:
            csrf = session.csrf
        else:
            csrf = request.cookies.get(CSRF_COOKIE) or ""
            if not 16 <= len(csrf) <= 128:
                csrf = secrets.token_urlsafe(32)
        out = JSONResponse({"account": None if session is None else _me(session), "csrf": csrf})
        if request.cookies.get(CSRF_COOKIE) != csrf:
            set_csrf(out, request, accounts.settings, csrf)
        return out

    @r.post("/api/account/signup")
    async def signup(request: Request, body: Credentials) -> JSONResponse:
        accounts = accounts_of(request)
        st = accounts.settings
        held = await current(request)
        check_csrf(request, held)
        problem = name_problem(body.name) or password_problem(body.password)
        if problem is not None:
            raise refuse(request, 400, problem)
        key = f"signup:{_address(request)}"
        made = (await accounts.db.failures([key], st.signup_window_s))[key]
        if made >= st.signup_per_address:
            raise refuse(
                request,
                429,
                N_("too many accounts made from your address: try again in {minutes} min"),
                minutes=int(st.signup_window_s // 60),
            )
        if await accounts.db.by_key(name_key(body.name)) is not None:
            raise refuse(request, 409, N_("the user name {name} is taken"), name=body.name)
        pw_hash = await accounts.passwords.hash(body.password)
        acc = await accounts.db.create_account(body.name, name_key(body.name), pw_hash)
        if acc is None:
            raise refuse(request, 409, N_("the user name {name} is taken"), name=body.name)
        await accounts.db.add_failure([key], st.signup_window_s)  # counts accounts made, too
        return await _signed_in(request, held, acc.id, acc.name, status=201)

    @r.post("/api/account/signin")
    async def signin(request: Request, body: Credentials) -> JSONResponse:
        accounts = accounts_of(request)
        st = accounts.settings
        held = await current(request)
        check_csrf(request, held)
        keys = [f"acct:{name_key(body.name)}"[:120], f"addr:{_address(request)}"]
        counts = await accounts.db.failures(keys, st.fail_window_s)
        minutes = max(1, int(st.fail_window_s // 60))
        if counts[keys[0]] >= st.fail_per_account:
            raise refuse(
                request,
                429,
                N_("too many failed sign-ins for this account: try again in {minutes} min"),
                minutes=minutes,
            )
        if counts[keys[1]] >= st.fail_per_address:
            raise refuse(
                request,
                429,
                N_("too many failed sign-ins from your address: try again in {minutes} min"),
                minutes=minutes,
            )
        acc = await accounts.db.by_key(name_key(body.name))
        ok = await accounts.passwords.verify(None if acc is None else acc.pw_hash, body.password)
        if acc is None or not ok:
            await accounts.db.add_failure(keys, st.fail_window_s)
            raise refuse(request, 401, N_("wrong user name or password"))
        if acc.pw_hash is not None and accounts.passwords.needs_rehash(acc.pw_hash):
            await accounts.db.set_hash(acc.id, await accounts.passwords.hash(body.password))
        await accounts.db.clear_failures(keys[0])
        return await _signed_in(request, held, acc.id, acc.name)

    @r.post("/api/account/signout")
    async def signout(request: Request) -> JSONResponse:
        accounts = accounts_of(request)
        session = await current(request)
        check_csrf(request, session)
        if session is not None:
            await accounts.db.end_session(session.id_sha)
        out = JSONResponse({"account": None})
        clear_session(out, request, accounts.settings)
        return out

    @r.post("/api/account/signout-all")
    async def signout_all(request: Request) -> JSONResponse:
        accounts = accounts_of(request)
        session = await _required(request)
        ended = await accounts.db.end_all_sessions(session.account.id)
        out = JSONResponse({"account": None, "ended": ended})
        clear_session(out, request, accounts.settings)
        return out

    @r.post("/api/account/delete")
    async def delete(request: Request, body: Confirm) -> JSONResponse:
        """Delete the signed-in account after its password is given again: the games stay,
        its name leaves them (``deleted player``), its sessions and ratings go."""
        accounts = accounts_of(request)
        session = await _required(request)
        st = accounts.settings
        key = f"acct:{name_key(session.account.name)}"[:120]
        if (await accounts.db.failures([key], st.fail_window_s))[key] >= st.fail_per_account:
            # A stolen session must not become a way to guess the password either.
            raise refuse(
                request,
                429,
                N_("too many failed sign-ins for this account: try again in {minutes} min"),
                minutes=max(1, int(st.fail_window_s // 60)),
            )
        if not await accounts.passwords.verify(session.account.pw_hash, body.password):
            await accounts.db.add_failure([key], st.fail_window_s)
            raise refuse(request, 401, N_("wrong password: the account was not deleted"))
        seats = await accounts.db.delete_account(session.account.id)
        accounts.stats_cache.clear()  # partners' lists may name the deleted account
        _forget_names(request, seats)
        out = JSONResponse({"account": None, "deleted": True, "games": len(seats)})
        clear_session(out, request, accounts.settings)
        return out

    return r


async def _required(request: Request) -> Session:
    session = await current(request)
    check_csrf(request, session)
    if session is None:
        raise refuse(request, 401, N_("you are not signed in"))
    return session


async def _signed_in(
    request: Request, held: Session | None, account_id: str, name: str, *, status: int = 200
) -> JSONResponse:
    """A new session for the account; the one this browser held before ends (rotation)."""
    accounts = accounts_of(request)
    if held is not None:
        await accounts.db.end_session(held.id_sha)
    token, csrf = await accounts.db.new_session(account_id, accounts.settings.session_ttl_s)
    out = JSONResponse({"account": {"id": account_id, "name": name}, "csrf": csrf}, status_code=status)
    set_session(out, request, accounts.settings, token, csrf)
    return out


def _forget_names(request: Request, seats: list[tuple[str, int]]) -> None:
    """The renamed seats of tables this worker holds in memory show the new name at once;
    other workers hear it through the bus (``Membership.publish_anonymised``)."""
    manager = request.app.state.manager
    for table_id, seat in seats:
        if manager.membership is not None:
            manager.membership.publish_anonymised(table_id, seat)
        actor = manager.tables.get(table_id)
        if actor is None:
            continue
        actor.anonymise(seat, ANONYMOUS)
        manager.write_listing(actor)


# ---------------------------------------------------------------------- seats of accounts
async def bind(request: Any, actor: TableActor, seat: int, session: Session | None) -> None:
    """Bind a seat just taken to the signed-in account (nothing for a guest): the seat then
    opens for that account from any browser, and the account's history lists the table."""
    if session is None:
        return
    err = await actor.bind(seat, session.account.id, session.account.name)
    if err is None:
        await accounts_of(request).db.bind_seat(actor.id, seat, session.account.id)
