"""HTTP servers on 127.0.0.1 for the endpoint tests (fault injection only): what every one of
them shares — a free port, a thread that serves, a quiet handler, JSON replies sent to a client
that may have given up, a clean stop — so each test's server says only how it answers."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LocalServer:
    """Answers every POST with :meth:`respond` and every GET with :meth:`respond_get` on 127.0.0.1 at a free port, in a daemon thread
    (each request in a thread of its own). ``url`` is the OpenAI-style base (``…/v1``);
    ``root_url`` the server's root."""

    def __init__(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                server.respond(self)

            def do_GET(self):
                server.respond_get(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.root_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.root_url + "/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def respond(self, handler: BaseHTTPRequestHandler) -> None:
        raise NotImplementedError

    def respond_get(self, handler: BaseHTTPRequestHandler) -> None:
        """A GET (``/v1/models``, asked before a step begins): by default "no such method",
        which shows a server that answers, as a server without that route does."""
        handler.send_error(501)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def read_body(handler: BaseHTTPRequestHandler) -> bytes:
    return handler.rfile.read(int(handler.headers.get("Content-Length", 0)))


def send_bytes(
    handler: BaseHTTPRequestHandler, status: int, data: bytes, headers: dict | None = None
) -> None:
    """A whole reply; a client that gave up meanwhile (a timeout under test) is no error."""
    try:
        handler.send_response(status)
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except OSError:
        pass


def send_json(
    handler: BaseHTTPRequestHandler, status: int, payload: object, headers: dict | None = None
) -> None:
    send_bytes(handler, status, json.dumps(payload, ensure_ascii=False).encode(), headers)


def completion(text: str, **extra) -> dict:
    """An OpenAI-style reply carrying ``text`` for both the completions and the chat API."""
    return {"choices": [{"text": text, "message": {"content": text}, **extra}]}
