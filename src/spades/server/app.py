"""The ASGI app: pages, REST for tools and tests, and a websocket per seat or spectator.

The websocket speaks JSON objects with a ``type``: the client says ``hello`` (with its seat
token, or none to watch), then ``join``/``look``/``bid``/``pass``/``play``/``hint``; the
server answers with ``state`` (that connection's own view), ``hint`` or ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from spades.actions import Action, Bid, Draw, Look, PassCards, Play
from spades.bots.levels import offered
from spades.cards import CardSet, parse_card
from spades.errors import SpadesError, reply_fields
from spades.rules import CHOICES, NULLABLE, PRESETS, RANGES, Rules
from spades.server.codec import deck_view
from spades.server.howto import router as howto_router
from spades.server.limits import AddressLimits
from spades.server.manager import MAX_LIVE_TABLES, WAITING_TTL, TableManager
from spades.server.replayview import replay_body
from spades.server.schema import (
    MAX_MESSAGE_BYTES,
    BidMsg,
    ChatMsg,
    Claim,
    CreateTable,
    DrawMsg,
    Hello,
    HintMsg,
    Join,
    LookMsg,
    PassMsg,
    Ping,
    PlayMsg,
    Rematch,
    RulesCheck,
    client_message,
    first_error,
)
from spades.server.store import Store
from spades.server.tables import IDLE_S, LIST_LIMIT, Conn, TableActor

log = logging.getLogger("spades.server")
STATIC = Path(__file__).with_name("static")
RATE_PER_S = 10.0
RATE_BURST = 30.0
MAX_REFUSED = 200
MAX_BODY_BYTES = 16_384
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
MAX_RECORD_BYTES = 2_000_000
MAX_LIST_LIMIT = 1000
HELLO_TIMEOUT_S = 10.0
"""A websocket that has not said hello by then is closed."""
REPLAY_TIMEOUT_S = 20.0


CHAT_PER_S = 0.5
CHAT_BURST = 4.0
"""Table chat: four lines at once, then one every two seconds, per connection."""


class RateLimit:
    """A token bucket per connection: bursts are fine, floods are refused."""

    def __init__(self, rate: float = RATE_PER_S, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def create_app(
    db_url: str | None = None,
    *,
    store: Store | None = None,
    idle_s: float = IDLE_S,
    waiting_ttl: float | None = WAITING_TTL,
    redis_url: str | None = None,
    limits: AddressLimits | None = None,
    hint_level: str | None = None,
    pool: Any = None,
    max_live: int = MAX_LIVE_TABLES,
) -> FastAPI:
    """Build the app on a store (``db_url``; default the SQLite file in the user data dir).

    A finished table nobody uses leaves memory after ``idle_s`` seconds (it stays in the
    store); a table still waiting for people ``waiting_ttl`` seconds after its creation
    expires. With ``redis_url`` this process is one worker of a service sharing the database
    (see ``server/cluster.py``). ``pool`` runs slow bots and replays (``server/compute.py``)."""
    the_store = store or Store(db_url)
    manager = TableManager(
        the_store,
        idle_s=idle_s,
        waiting_ttl=waiting_ttl,
        redis_url=redis_url,
        hint_level=hint_level,
        pool=pool,
        max_live=max_live,
    )
    per_address = limits or AddressLimits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(the_store.migrate)
        if manager.membership is not None:
            per_address.bus = manager.membership.bus
        await manager.open()
        yield
        await manager.stop()
        if pool is not None:
            await pool.close()

    app = FastAPI(title="spades", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.manager = manager
    app.state.store = the_store
    from spades.server import accounts, profiles
    from spades.server.accountdb import AccountDB
    from spades.server.sessions import Accounts, acting, socket_session

    app.state.accounts = Accounts(AccountDB(the_store))
    app.include_router(accounts.router())
    app.include_router(profiles.router())

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(howto_router)

    @app.middleware("http")
    async def _limit_body(request: Request, call_next: Any) -> Response:
        # Refuse oversized bodies before reading them: tables are tiny, records are not.
        limit = MAX_RECORD_BYTES if request.url.path == "/api/replay" else MAX_BODY_BYTES
        size = request.headers.get("content-length")
        if size is None and "transfer-encoding" in request.headers:
            # A chunked body has no length to check up front: ask for one instead.
            return JSONResponse({"error": "a request body needs a Content-Length"}, status_code=411)
        if size is not None and (not size.isdigit() or int(size) > limit):
            return JSONResponse({"error": f"request body over {limit} bytes"}, status_code=413)
        response: Response = await call_next(request)
        return response

    @app.middleware("http")
    async def _security_headers(request: Request, call_next: Any) -> Response:
        # Pages load only their own scripts and styles and never inline code, so a name that
        # somehow reached the page as markup still could not run.
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if response.headers.get("content-type", "").startswith("text/html"):
            response.headers["Content-Security-Policy"] = CSP
        return response

    @app.exception_handler(SpadesError)
    async def _spades_error(_request: Request, exc: SpadesError) -> JSONResponse:
        return JSONResponse({"error": str(exc), **reply_fields(exc)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _bug(_request: Request, exc: Exception) -> JSONResponse:
        # A bug: logged with its traceback for us, one line for the client.
        log.error("request failed: %r", exc, exc_info=exc)
        return JSONResponse(
            {"error": "internal error: the server could not answer this request"}, status_code=500
        )

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": f"malformed request: {first_error(exc)}"}, status_code=422)

    async def table_or_404(table_id: str) -> TableActor:
        actor = await manager.get(table_id)
        if actor is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return actor

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    # ------------------------------------------------------------------ REST
    @app.get("/api/info")
    async def info() -> dict[str, Any]:
        return {
            "hint_bot": manager.hint_level,
            # The named levels first (spades.bots.levels; the expert's where this server has it),
            # then the bots by their own names.
            "bots": list(
                dict.fromkeys(
                    [
                        *offered({"random", "heuristic", manager.hint_level or "heuristic"}),
                        "random",
                        "heuristic",
                        *(["expert"] if manager.hint_level == "expert" else []),
                    ]
                )
            ),
            "chat": True,  # tables have chat (the lobby offers to turn it off)
        }

    @app.get("/api/i18n/{lang}")
    async def words(lang: str) -> Response:
        """A language's catalog for the page (``spades.i18n.catalog_json``: the same ``.po``
        files as the terminal's); an unknown language is a 404 naming the ones there are."""
        from spades.i18n import LANGUAGES, catalog_json

        if lang not in LANGUAGES:
            raise HTTPException(404, f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
        return Response(catalog_json(lang), media_type="application/json; charset=utf-8")

    @app.get("/api/rules")
    async def rules_catalog() -> dict[str, Any]:
        """The presets and every rule option with its allowed values, straight from
        ``spades.rules``: the lobby builds its form from this and never hard-codes a range."""
        return RULES_CATALOG

    @app.post("/api/rules/check")
    async def rules_check(req: RulesCheck) -> dict[str, Any]:
        """Rules as the lobby's form has them: the engine's one-line refusal, or the rules in
        full with their deck (players, cards, tricks), so the form shows the seats to fill."""
        try:
            rules = Rules.from_spec(req.rules)
        except SpadesError as e:
            return {"error": str(e), **reply_fields(e)}
        return {"error": None, "rules": rules.to_dict(), "spec": rules.to_spec(), "deck": deck_view(rules)}

    @app.post("/api/tables")
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        refusal = await per_address.create(_address(request))
        if refusal is not None:
            raise HTTPException(429, refusal)
        who = await acting(request)  # a signed-in creator sits as his account (CSRF checked)
        mine = next((i for i, s in enumerate(req.seats) if s.name is not None), None)
        if who is not None and mine is not None:
            specs = list(req.seats)
            specs[mine] = specs[mine].model_copy(update={"name": who.account.name})
            req = req.model_copy(update={"seats": specs})
        actor, secret = await manager.create(req)
        if mine is not None:
            await accounts.bind(request, actor, mine, who)
        seats = []
        for s, c in enumerate(actor.conf.seats):
            kind, value = secret.get(s, ("", None))
            seats.append(
                {
                    "seat": s,
                    "token": value if kind == "token" else None,
                    "invite": value if kind == "invite" else None,
                    "bot": c.bot,
                    "name": actor.names[s],
                }
            )
        return {"id": actor.id, "url": f"/t/{actor.id}", "seats": seats}

    @app.get("/api/tables")
    async def list_tables(status: str = "waiting", limit: int = LIST_LIMIT) -> list[dict[str, Any]]:
        """Tables by status (``waiting``, ``playing``, ``over`` or ``all``), newest first, at
        most ``limit`` of them."""
        if status not in ("waiting", "playing", "over", "all"):
            raise SpadesError(f"status {status!r} is not waiting, playing, over or all")
        if not 1 <= limit <= MAX_LIST_LIMIT:
            raise SpadesError(f"limit {limit} is not between 1 and {MAX_LIST_LIMIT}")
        return await manager.list_tables(status, limit)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return (await table_or_404(table_id)).full_public()

    @app.post("/api/tables/{table_id}/claim")
    async def claim(table_id: str, req: Claim, request: Request) -> dict[str, Any]:
        actor = await table_or_404(table_id)
        if req.seat >= len(actor.conf.seats):
            raise SpadesError(f"seat {req.seat} is not at this table")
        who = await acting(request)
        token, err = await actor.claim(req.seat, req.name if who is None else who.account.name)
        if token is None:
            raise SpadesError(err or "that seat cannot be taken")
        await accounts.bind(request, actor, req.seat, who)
        return {"id": actor.id, "seat": req.seat, "token": token}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, req: Rematch, request: Request) -> dict[str, Any]:
        """A player of a finished table starts its rematch (``server/rematch.py``); whoever is
        still at the old table is told. 403 for anyone who did not play there."""
        from spades.server.rematch import accounts_to_bind, start_rematch

        old = await table_or_404(table_id)
        who = await acting(request)
        seat = old.seat_of_token(req.token) if req.token is not None else None
        if seat is None and who is not None:
            seat = old.seat_of_account(who.account.id)
        if seat is None:
            raise HTTPException(403, "only a player of this table can start its rematch")
        if old.rematch is None:
            refusal = await per_address.create(_address(request))
            if refusal is not None:
                raise HTTPException(429, refusal)
        out = await start_rematch(manager, old, seat)
        new = await manager.get(out["id"]) if out["created"] else None
        if new is not None:
            if out["token"] is not None:
                await accounts.bind(request, new, seat, who)
            for s, account, name in accounts_to_bind(old, seat):
                if await new.bind(s, account, name) is None:
                    await app.state.accounts.db.bind_seat(new.id, s, account)
        return out

    @app.get("/api/tables/{table_id}/record")
    async def get_record(table_id: str, download: bool = False) -> Response:
        rec = (await table_or_404(table_id)).record()
        headers = (
            {"Content-Disposition": f'attachment; filename="spades-{table_id}.json"'} if download else {}
        )
        return Response(json.dumps(rec, indent=1), media_type="application/json", headers=headers)

    @app.post("/api/replay")
    async def post_replay(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_RECORD_BYTES:
            raise SpadesError(f"the record is over {MAX_RECORD_BYTES} bytes")
        if pool is not None:
            return Response(
                await pool.replay_json(body, timeout=REPLAY_TIMEOUT_S), media_type="application/json"
            )
        return JSONResponse(await asyncio.to_thread(_replay_inline, body))

    # ------------------------------------------------------------------ websocket
    @app.websocket("/ws/{table_id}")
    async def ws_endpoint(ws: WebSocket, table_id: str) -> None:
        address = _address(ws)
        refusal = per_address.open_socket(address)  # counted even when refused
        try:
            await ws.accept()
            if refusal is not None:
                await ws.send_text(json.dumps({"type": "error", "message": refusal}))
                await ws.close(code=1013)
                return
            await _serve_socket(ws, table_id)
        finally:
            per_address.close_socket(address)

    async def _serve_socket(ws: WebSocket, table_id: str) -> None:
        try:
            actor = await manager.get(table_id)
        except SpadesError as e:  # the store could not load the table
            await ws.send_text(json.dumps({"type": "error", "message": str(e)}))
            await ws.close(code=1011)
            return
        if actor is None:
            await ws.send_text(
                json.dumps({"type": "error", "code": "no_table", "message": f"no table {table_id!r}"})
            )
            await ws.close(code=4404)
            return
        conn = Conn()
        refused = actor.attach(conn)  # counted from the start, hello or not
        if refused is not None:
            await ws.send_text(json.dumps({"type": "error", "message": refused}))
            await ws.close(code=1013)
            return
        pump = asyncio.create_task(_pump(ws, conn))
        session = _Session(actor, conn)
        session.account = await socket_session(ws)
        session.bind = lambda seat: accounts.bind(ws, actor, seat, session.account)
        deadline = time.monotonic() + HELLO_TIMEOUT_S
        try:
            while True:
                try:
                    if conn.greeted:
                        msg = await ws.receive()
                    else:
                        msg = await asyncio.wait_for(ws.receive(), max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    conn.send(
                        json.dumps(
                            {"type": "error", "message": f"no hello within {HELLO_TIMEOUT_S:g} s: closing"}
                        )
                    )
                    break
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    raw = msg.get("bytes") or b""
                    text = (
                        raw.decode("utf-8", "replace")
                        if len(raw) <= MAX_MESSAGE_BYTES
                        else "x" * (MAX_MESSAGE_BYTES + 1)
                    )
                if not await session.receive(text):
                    break
        finally:
            actor.detach(conn)
            conn.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(pump, 1.0)
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()

    return app


async def _pump(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.queue.get()
        if text is None:
            break
        try:
            await ws.send_text(text)
        except Exception:
            break


class _Session:
    """One websocket's side of the conversation: schema, rate and size checks, then the actor."""

    def __init__(self, actor: TableActor, conn: Conn) -> None:
        self.actor = actor
        self.conn = conn
        self.greeted = False
        self.limit = RateLimit()
        self.refused = 0
        self.hinting = False
        self.chat_limit = RateLimit(CHAT_PER_S, CHAT_BURST)
        self.account: Any = None
        """The signed-in account's session (``sessions.socket_session``), or ``None``."""
        self.bind: Any = None
        """Binds a seat redeemed here to that account."""

    async def _hint(self, seat: int) -> None:
        try:
            reply = await self.actor.hint(seat)
        finally:
            self.hinting = False
        if reply["type"] == "error":
            self.error(reply["message"])
        else:
            self.conn.send(json.dumps(reply))

    def error(self, message: str, *, code: str | None = None) -> bool:
        """Refuse with a one-line message (and a ``code`` where the page must act on it); an
        engine refusal also carries its ``msgid`` and ``fields`` for the page to translate."""
        self.refused += 1
        reply: dict[str, Any] = (
            {"type": "error", "message": str(message)}
            if code is None
            else {"type": "error", "code": code, "message": str(message)}
        )
        reply.update(reply_fields(message))
        self.conn.send(json.dumps(reply))
        return self.refused < MAX_REFUSED

    async def receive(self, text: str) -> bool:
        """Handle one message; ``False`` closes the connection."""
        if len(text) > MAX_MESSAGE_BYTES:
            return self.error(f"message of {len(text)} bytes is over the limit of {MAX_MESSAGE_BYTES}")
        if not self.limit.take():
            return self.error("too many messages: slow down")
        try:
            msg = client_message.validate_json(text)
        except ValidationError as e:
            return self.error(f"malformed message: {first_error(e)}")
        actor, conn = self.actor, self.conn
        if isinstance(msg, Ping):
            conn.send('{"type":"pong"}')
            return True
        if isinstance(msg, Hello):
            return await self._hello(msg)
        if not conn.greeted:
            return self.error("say hello first")
        seat = conn.seat
        if seat is None:
            return self.error("spectators cannot act: open your seat's invite link to play")
        if isinstance(msg, Join):
            err = await actor.join(seat, msg.name)
            return True if err is None else self.error(err)
        if isinstance(msg, ChatMsg):
            if not actor.conf.chat:
                return self.error("chat is turned off at this table", code="chat_off")
            if (msg.quick is None) == (msg.text is None):
                return self.error("chat: give a quick phrase or a text, not both or neither")
            if not self.chat_limit.take():
                return self.error("chat: too many lines, wait a little", code="chat_slow")
            actor.chat(seat, msg.quick, msg.text)
            return True
        if isinstance(msg, HintMsg):
            if not actor.conf.hints:
                return self.error("hints are turned off at this table")
            if self.hinting:
                return self.error("a hint is already being worked out")
            self.hinting = True
            asyncio.get_running_loop().create_task(self._hint(seat))
            return True
        try:
            action = _to_action(msg)
        except SpadesError as e:
            return self.error(e.text)
        err = await actor.act(seat, action)
        return True if err is None else self.error(err)

    async def _hello(self, msg: Hello) -> bool:
        actor, conn = self.actor, self.conn
        if conn.greeted:
            return self.error("hello was already said on this connection")
        if sum(x is not None for x in (msg.token, msg.invite, msg.prior)) > 1:
            return self.error("hello: give a token or an invite, not both")
        seat = None
        if msg.invite is not None or msg.prior is not None:
            out = await (
                actor.redeem(msg.invite) if msg.invite is not None else actor.redeem_prior(str(msg.prior))
            )
            if out.get("error") is not None:
                return self.error(str(out["error"]), code=out.get("code"))
            seat = int(out["seat"])
            conn.send(json.dumps({"type": "seat", "seat": seat, "token": out["token"]}))
            if self.account is not None and self.bind is not None:
                await self.bind(seat)
        elif msg.token is not None:
            seat = actor.seat_of_token(msg.token)
            if seat is None:
                taken = actor.taken_message(msg.token)
                if taken is not None:
                    return self.error(taken, code="seat_taken")
                return self.error("that seat token is not valid at this table")
        elif self.account is not None:  # a seat bound to the account opens from any browser
            seat = actor.seat_of_account(self.account.account.id)
        conn.seat = seat
        actor.greet(conn)
        return True


def _rules_catalog() -> dict[str, Any]:
    """``GET /api/rules``: each option in ``Rules`` field order, as ``{"name", "default",
    "choices"}`` (``CHOICES``), ``{"name", "default", "min", "max", "nullable"}``
    (``RANGES``/``NULLABLE``), or for ``first_dealer`` its choices with the seats of the
    largest table (the rules refuse a seat a smaller table lacks, with their own message)."""
    defaults = Rules().to_dict()
    options: list[dict[str, Any]] = []
    for name, default in defaults.items():
        item: dict[str, Any] = {"name": name, "default": default}
        if name in CHOICES:
            item["choices"] = list(CHOICES[name])
        elif name in RANGES:
            low, high = RANGES[name]
            item |= {"min": low, "max": high, "nullable": name in NULLABLE}
        elif name == "first_dealer":
            most = max(int(p) for p in CHOICES["players"] if isinstance(p, int))
            item["choices"] = ["draw", "random", *range(most)]
        else:  # a new option without a range or choices: say so rather than guess
            item["choices"] = [default]
        options.append(item)
    return {
        "options": options,
        "presets": {name: r.to_dict() for name, r in PRESETS.items()},
    }


RULES_CATALOG = _rules_catalog()


def _address(scope_holder: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy, uvicorn puts the forwarded one here)."""
    client = scope_holder.client
    return client.host if client is not None else "unknown"


def _replay_inline(body: bytes) -> dict[str, Any]:
    """Without a compute pool (tests, tools): the same work on a thread, same budget; a body
    that does not parse is a 400 here too (its ``SpadesError`` reaches the handler)."""
    return replay_body(body)


def _to_action(msg: Any) -> Action:
    if isinstance(msg, LookMsg):
        return Look()
    if isinstance(msg, BidMsg):
        if msg.bid == "blind_nil":
            return Bid(0, blind=True)
        return Bid(0 if msg.bid == "nil" else int(msg.bid))
    if isinstance(msg, PassMsg):
        return PassCards(CardSet.parse(msg.cards))
    if isinstance(msg, PlayMsg):
        return Play(parse_card(msg.card))
    if isinstance(msg, DrawMsg):
        return Draw(msg.keep)
    raise SpadesError(f"unexpected message {msg!r}")
