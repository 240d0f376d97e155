"""A child program spoken to in lines, with a deadline on every read.

Kept apart from ``ProgramBot`` so the bot holds only the protocol's logic: this module owns
the process, its pipes, the byte buffer and the one way each can fail (``PipeFault`` with a
kind: ``exit`` or ``timeout``). The child's stderr is forwarded line by line to logging, so a
bot's debugging output neither garbles a terminal UI nor gets lost.
"""

from __future__ import annotations

import logging
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Final

from spades.protocol.messages import MAX_LINE

EXIT: Final = "exit"
TIMEOUT: Final = "timeout"
BAD_JSON: Final = "bad_json"
ILLEGAL: Final = "illegal"


class PipeFault(Exception):
    """The program broke the protocol; ``kind`` is one of the fault kinds above."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Pipe:
    """A running program: ``send`` a line, ``recv`` a line before a deadline."""

    def __init__(self, argv: Sequence[str], *, log: logging.Logger, label: str) -> None:
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # a Ctrl-C in our terminal is ours to handle, not the bot's
            )
        except (OSError, ValueError) as e:
            raise PipeFault(EXIT, f"cannot start {' '.join(argv)!r}: {e}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        self._buf = b""
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._out_fd, selectors.EVENT_READ)
        self.label = label
        self._err = threading.Thread(target=_forward_stderr, args=(self.proc.stderr, log, label), daemon=True)
        self._err.start()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                n = os.write(self._in_fd, view)
                view = view[n:]
        except (BrokenPipeError, OSError):
            raise PipeFault(EXIT, self._exit_text()) from None

    def recv(self, timeout: float) -> bytes:
        """The next line (without its newline) within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line, self._buf = self._buf[:nl], self._buf[nl + 1 :]
                return line
            if len(self._buf) > MAX_LINE:
                self._buf = b""
                raise PipeFault(BAD_JSON, f"a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self._sel.select(left):
                raise PipeFault(TIMEOUT, f"no answer within {timeout:g} s")
            chunk = os.read(self._out_fd, 1 << 16)
            if not chunk:
                raise PipeFault(EXIT, self._exit_text())
            self._buf += chunk

    def drain(self, settle: float = 0.0) -> list[bytes]:
        """Lines nobody asked for: those already waiting, and any arriving within ``settle``
        seconds (after a bad answer, to catch the real one still in flight)."""
        deadline = time.monotonic() + settle
        while self._sel.select(max(0.0, deadline - time.monotonic())):
            chunk = os.read(self._out_fd, 1 << 16)
            if not chunk:
                break
            self._buf += chunk
        *lines, self._buf = self._buf.split(b"\n")
        return lines

    def _exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with status {code}"

    def close(self, grace: float = 1.0) -> None:
        """Let the program exit by itself within ``grace`` seconds, then kill it."""
        proc = self.proc
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._sel.close()
        if proc.stdout is not None:
            proc.stdout.close()
        self._err.join(timeout=0.5)

    def kill(self) -> None:
        """Kill the program and whatever it started (it leads its own process group)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            self.proc.kill()
        self.close(grace=1.0)


def _forward_stderr(stream: IO[bytes] | None, log: logging.Logger, label: str) -> None:
    if stream is None:
        return
    with stream:
        for raw in iter(stream.readline, b""):
            log.info("%s: %s", label, raw.decode(errors="replace").rstrip())
