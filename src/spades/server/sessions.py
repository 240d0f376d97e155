"""Who is asking: the session cookie, the CSRF check, password hashes and the server's words.

The session cookie holds a random secret (the store keeps its hash): HttpOnly (no script
reads it), SameSite=Lax (a cross-site form or fetch does not carry it), Secure and named
``__Host-spades_session`` when the page is served over https (behind a TLS proxy run uvicorn
with ``--proxy-headers`` or set ``SPADES_SECURE_COOKIES=1``). Over plain http, in
development, it goes without Secure, since a browser would drop a Secure cookie there.

CSRF: a synchronizer token. Each session has its own random token, stored with it; the page
reads it from the ``spades_csrf`` cookie (readable by the page's own script, SameSite=Strict)
and sends it back in the ``X-CSRF-Token`` header, which a cross-site page can neither read nor
forge. Before there is a session (sign up, sign in) the same header must equal the cookie
(double submit), which stops a login CSRF. Requests that carry no session are guests: they
have no ambient authority to steal, so the JSON REST used by tools keeps working without it.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import HTTPException, Request, WebSocket
from starlette.responses import Response

from spades.server.accountdb import AccountDB, Session

SESSION_COOKIE = "spades_session"
SECURE_SESSION_COOKIE = "__Host-spades_session"
CSRF_COOKIE = "spades_csrf"
CSRF_HEADER = "x-csrf-token"
LANG_HEADER = "x-spades-lang"
NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 128


def N_(message: str) -> str:
    """Mark a message for the catalogs; it is translated when a request is answered."""
    return message


@dataclass
class AccountSettings:
    """The knobs of accounts; tests make the hashes cheap and the limits small."""

    session_ttl_s: float = 30 * 24 * 3600
    fail_window_s: float = 15 * 60
    fail_per_account: int = 10
    """Failed sign-ins on one account per window before it refuses further tries."""
    fail_per_address: int = 50
    """Failed sign-ins from one address per window (across accounts)."""
    signup_per_address: int = 20
    signup_window_s: float = 3600
    secure_cookies: bool | None = field(
        default_factory=lambda: {"1": True, "0": False}.get(os.environ.get("SPADES_SECURE_COOKIES", ""))
    )
    """``None``: Secure exactly when the request came over https."""
    time_cost: int = 3
    memory_cost: int = 65536
    parallelism: int = 4
    hashing_at_once: int = 2
    """Argon2 runs at once at most (each takes ``memory_cost`` KiB and a core)."""


class Passwords:
    """argon2id hashes (argon2-cffi), computed off the event loop, a few at a time."""

    def __init__(self, settings: AccountSettings) -> None:
        self.hasher = PasswordHasher(
            time_cost=settings.time_cost, memory_cost=settings.memory_cost, parallelism=settings.parallelism
        )
        self.gate = asyncio.Semaphore(settings.hashing_at_once)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self.gate:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, pw_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; an unknown account (``None``) costs the same time,
        so timing does not tell which names exist."""
        if pw_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(16))
            pw_hash = self._dummy
            password = "\0" + password  # never matches the dummy
        async with self.gate:
            try:
                return await asyncio.to_thread(self.hasher.verify, pw_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    def needs_rehash(self, pw_hash: str) -> bool:
        return self.hasher.check_needs_rehash(pw_hash)


class Accounts:
    """What the account routes share: the rows, the hasher and the settings (``app.state``)."""

    def __init__(self, db: AccountDB, settings: AccountSettings | None = None) -> None:
        self.db = db
        self.settings = settings or AccountSettings()
        self.passwords = Passwords(self.settings)
        self.stats_cache: dict[str, tuple[tuple[str, ...], Any]] = {}
        """Profile statistics by account, with the finished games they were made from."""

    def configure(self, settings: AccountSettings) -> None:
        self.settings = settings
        self.passwords = Passwords(settings)


def accounts_of(holder: Request | WebSocket) -> Accounts:
    acc: Accounts = holder.app.state.accounts
    return acc


# ---------------------------------------------------------------------- words
def language(request: Request | WebSocket) -> str:
    """The language of the page asking (its header, or ``?lang=`` for an image), else the
    browser's, else English."""
    from spades.i18n import LANGUAGES

    asked = request.headers.get(LANG_HEADER) or request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def say(request: Request | WebSocket, message: str, **values: Any) -> str:
    """A message id in the asker's language, its ``{named}`` values filled in."""
    from spades.i18n import translations

    return translations(language(request)).gettext(message).format(**values)


def refuse(request: Request, status: int, message: str, **values: Any) -> HTTPException:
    return HTTPException(status, say(request, message, **values))


# ---------------------------------------------------------------------- names
def name_key(name: str) -> str:
    """How names are compared: ``Ana`` and ``ana`` (and look-alike forms) are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def name_problem(name: str) -> str | None:
    """Why a user name cannot be used (a message id), or ``None``."""
    n = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(n) <= NAME_MAX:
        return N_("the user name must have 3 to 24 characters")
    if not all(ch.isalnum() or ch in "_-." for ch in n):
        return N_("the user name may hold only letters, digits, '_', '-' and '.'")
    return None


def password_problem(password: str) -> str | None:
    if len(password) < PASSWORD_MIN:
        return N_("the password must have at least 8 characters")
    if len(password) > PASSWORD_MAX:
        return N_("the password must have at most 128 characters")
    return None


# ---------------------------------------------------------------------- cookies
def secure(request: Request, settings: AccountSettings) -> bool:
    if settings.secure_cookies is not None:
        return settings.secure_cookies
    return request.url.scheme == "https"


def session_token(holder: Request | WebSocket) -> str | None:
    token = holder.cookies.get(SECURE_SESSION_COOKIE) or holder.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= 128 else None


def set_session(
    response: Response, request: Request, settings: AccountSettings, token: str, csrf: str
) -> None:
    is_secure = secure(request, settings)
    response.set_cookie(
        SECURE_SESSION_COOKIE if is_secure else SESSION_COOKIE,
        token,
        max_age=int(settings.session_ttl_s),
        path="/",
        secure=is_secure,
        httponly=True,
        samesite="lax",
    )
    set_csrf(response, request, settings, csrf)


def set_csrf(response: Response, request: Request, settings: AccountSettings, csrf: str) -> None:
    response.set_cookie(
        CSRF_COOKIE, csrf, path="/", secure=secure(request, settings), httponly=False, samesite="strict"
    )


def clear_session(response: Response, request: Request, settings: AccountSettings) -> None:
    for name in (SESSION_COOKIE, SECURE_SESSION_COOKIE):
        response.delete_cookie(name, path="/", secure=name.startswith("__Host-") or secure(request, settings))
    set_csrf(response, request, settings, secrets.token_urlsafe(32))


# ---------------------------------------------------------------------- who is asking
async def current(holder: Request | WebSocket) -> Session | None:
    """The live session of the request's cookie, looked up once per request."""
    if hasattr(holder.state, "spades_session"):
        found: Session | None = holder.state.spades_session
        return found
    token = session_token(holder)
    got = None if token is None else await accounts_of(holder).db.session(token)
    holder.state.spades_session = got
    return got


def same_origin(holder: Request | WebSocket) -> bool:
    """A request without an Origin header (tools) or from this server's own pages."""
    origin = holder.headers.get("origin")
    if origin is None:
        return True
    # Behind a reverse proxy that rewrites Host, the public one arrives as X-Forwarded-Host
    # (a cross-site page cannot add that header to a request without a CORS preflight).
    hosts = {holder.headers.get("host", "").lower(), holder.headers.get("x-forwarded-host", "").lower()}
    return urlsplit(origin).netloc.lower() in hosts - {""}


def check_csrf(request: Request, session: Session | None) -> None:
    """Refuse a state-changing request whose CSRF token is missing or wrong (403)."""
    if not same_origin(request):
        raise refuse(request, 403, N_("request refused: it came from another site"))
    sent = request.headers.get(CSRF_HEADER, "")
    expected = session.csrf if session is not None else request.cookies.get(CSRF_COOKIE, "")
    if not sent or not expected or not secrets.compare_digest(sent.encode(), expected.encode()):
        raise refuse(
            request, 403, N_("request refused: the CSRF token is missing or wrong (reload the page)")
        )


async def acting(request: Request) -> Session | None:
    """The session a state-changing table request acts for: ``None`` for a guest (no
    session cookie), else the session, once its CSRF token checks (403 if not)."""
    session = await current(request)
    if session is not None:
        check_csrf(request, session)
    return session


async def socket_session(ws: WebSocket) -> Session | None:
    """A websocket's session: only from this server's own pages (a cross-site page could
    otherwise open a socket with the visitor's cookie)."""
    if session_token(ws) is None or not same_origin(ws):
        return None
    return await current(ws)
