"""The least a server on the design's stack does before it answers, for ``bench/start.py
--floor``: a Flask app with Flask-SocketIO in threading mode (engine.io's driver brings
simple-websocket with it) and one route, ``/healthz``, served by werkzeug's threaded server, which
Flask loads anyway. No store, no table, no games, no buttons, no gunicorn: what is left is the
interpreter and the libraries the design fixes. As ``longhall serve`` does (``cli``), the collector
is off while it loads, and the Socket.IO clients' HTTP and WebSocket libraries are kept out of the
imports.

Run with the Python that runs Longhall: ``python bench/start_floor.py PORT``.
"""

import gc
import sys

gc.disable()  # as ``longhall serve`` starts (cli.main): no collection before it answers
for client_only in ("requests", "websocket"):
    sys.modules[client_only] = None  # type: ignore[assignment]

from flask import Flask  # noqa: E402
from flask_socketio import SocketIO  # noqa: E402

app = Flask(__name__)
socketio = SocketIO(app, async_mode="threading")


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


if __name__ == "__main__":
    gc.freeze()  # and on, once what it holds is set aside (serve.LonghallServer.load)
    gc.enable()
    socketio.run(
        app, host="127.0.0.1", port=int(sys.argv[1]), allow_unsafe_werkzeug=True, log_output=False
    )
