"""The fake's wire: what it records of each exchange, and the stdlib HTTP server that hands each
request to the fake and writes its answer (or drops the connection, for a scripted fault)."""

from __future__ import annotations

import select
import socket
import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .faults import Fault


@dataclass(frozen=True)
class LoggedRequest:
    """One request as received. `headers` has lower-case names; `json` is the parsed body (None if none)."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: Mapping[str, str]
    json: Any
    raw_body: bytes
    route: str | None  # operation id, None when no route matched
    status: int = 0  # the status the fake answered with
    received_at: float = 0.0  # time.monotonic() when the request arrived, to measure a client's waits

    @property
    def query_dict(self) -> dict[str, str]:
        return dict(self.query)


@dataclass(frozen=True)
class Violation:
    """Something that would make the real GitHub reject the request, or a response breaking the description."""

    kind: str  # "route", "auth", "json", "request" (description), "limit" (GitHub's limits), "response", "crash"
    method: str
    path: str
    messages: tuple[str, ...]

    def __str__(self) -> str:
        lines = "\n".join(f"    - {m}" for m in self.messages)
        return f"{self.kind}: {self.method} {self.path}\n{lines}"


@dataclass
class Incoming:
    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def header_map(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.headers}


@dataclass
class Outgoing:
    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    drop: Fault | None = None  # no answer at all: see Fault.drop


class HTTPServer(ThreadingHTTPServer):
    """Serves each request to `handle` (the fake's), on its own thread."""

    daemon_threads = True
    handle: Callable[[Incoming], Outgoing]


class Handler(BaseHTTPRequestHandler):
    server: HTTPServer
    protocol_version = "HTTP/1.1"  # keep-alive, as clients pool connections
    disable_nagle_algorithm = True  # headers and body go out in two writes: without this, +40 ms per request

    def _serve(self) -> None:
        split = urlsplit(self.path)
        incoming = Incoming(
            method=self.command,
            path=split.path,
            query=tuple(parse_qsl(split.query, keep_blank_values=True)),
            headers=list(self.headers.items()),
            body=self._read_body(),
        )
        out = self.server.handle(incoming)
        if out.drop is not None:
            self._drop(out.drop)
            return
        self.send_response(out.status)
        for name, value in out.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(out.body)))
        self.end_headers()
        if out.body and self.command != "HEAD":
            self.wfile.write(out.body)

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return b"".join(read_chunks(self.rfile))
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _drop(self, fault: Fault) -> None:
        """No answer: wait silently while the fault says (the client's timeout usually ends it first: its
        closing makes the socket readable), then close with a reset (SO_LINGER 0) rather than a clean end."""
        if fault.drop == "hang":
            select.select([self.connection], [], [], fault.hang_seconds)
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _serve

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the request log is on the FakeGitHub object."""


def read_chunks(stream: Any) -> Iterator[bytes]:
    while True:
        size = int(stream.readline().split(b";")[0].strip() or b"0", 16)
        if size == 0:
            stream.readline()
            return
        yield stream.read(size)
        stream.readline()
