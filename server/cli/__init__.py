"""The ``longhall`` command: ``serve`` runs the server for one table, ``simulate`` plays whole
games between bots, ``history`` lists the games a store kept and ``replay`` replays one."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..appliance.board import board_model, expert_share
from ..games.search import set_budget, set_scale

if TYPE_CHECKING:
    from ..config import Settings

# Each command imports what it needs when it runs (``serve`` never loads ``simulate``), after
# ``main`` has turned the collector off for ``serve``'s start.

# python-engineio's and python-socketio's clients come with their servers, and the engine.io
# client imports ``requests`` and ``websocket-client`` whenever they are there (an optional import,
# ``engineio/client.py``). A server never acts as a client. On Raspberry Pi OS requests is there:
# ssh-import-id brings Debian's python3-requests, and the Pi's venv sees Debian's packages
# (``--system-site-packages``, for lgpio). Loading them (155 modules with what requests needs)
# took a fifth of a start's CPU (docs/performance.md, "Start"); tests/test_transport_canaries.py
# says when an upgrade makes them a must.
SOCKETIO_CLIENT_ONLY = ("requests", "websocket")


def load_serve() -> Callable[[Settings], int]:
    """Import ``serve``, its server libraries with it, without the Socket.IO clients' HTTP and
    WebSocket libraries: kept out for the imports only (a ``None`` in ``sys.modules`` makes an
    ``import`` fail, as if they were not installed). The process may import them later, but the
    engine.io client loaded here stays without them: a Socket.IO client made in this process
    would find no transport (``longhall serve`` makes none)."""
    kept_out = [name for name in SOCKETIO_CLIENT_ONLY if name not in sys.modules]
    for name in kept_out:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        from ..web.serve import serve
    finally:
        for name in kept_out:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]
    return serve


BOT_MODES = ("expert", "greedy", "random", "mixed")
PLAYOUTS_ENV = "LONGHALL_EXPERT_PLAYOUTS"


def budget_from_env(environ: Mapping[str, str] = os.environ) -> int | None:
    """Apply ``$LONGHALL_EXPERT_PLAYOUTS`` (the expert bots' play-outs per decision), if set."""
    try:
        playouts = int(environ.get(PLAYOUTS_ENV, ""))
    except ValueError:
        playouts = 0
    set_budget(playouts if playouts > 0 else None)
    return playouts if playouts > 0 else None


def build_parser() -> argparse.ArgumentParser:
    from ..games.registry import GAMES

    parser = argparse.ArgumentParser(
        prog="longhall",
        description="Longhall: a game-night hub for board games with phones as secret boards.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play whole games between bots")
    sim.add_argument("--game", choices=list(GAMES), required=True)
    sim.add_argument("--players", type=int, default=4, help="players per game")
    sim.add_argument("--games", type=int, default=1, help="number of games")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 each)")
    sim.add_argument(
        "--bots",
        choices=BOT_MODES,
        default="greedy",
        help="mixed: greedy bots on even seats, random bots on odd seats",
    )
    sim.add_argument(
        "--playouts",
        type=int,
        help="expert bots' play-outs per decision (default: $LONGHALL_EXPERT_PLAYOUTS, else the"
        " game's own)",
    )
    sim.add_argument(
        "--deck",
        dest="data_file",
        help="a data file instead of the game's own: "
        + ", ".join(f"{spec.title}'s {spec.data[0].what}" for spec in GAMES.values() if spec.data),
    )
    sim.add_argument("--json", action="store_true", help="one JSON object per game, then totals")

    srv = sub.add_parser("serve", help="run the game-night server for one table")
    srv.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument(
        "--data-dir",
        type=Path,
        help="where the game store lives (default: $STATE_DIRECTORY, else ~/.local/state/longhall)",
    )
    srv.add_argument(
        "--gpio",
        choices=("auto", "mock", "off"),
        default="auto",
        help="buttons and LEDs: auto finds GPIO if there is any; mock simulates pins",
    )
    srv.add_argument("--gpio-config", type=Path, help="a pin map (TOML) instead of the default")
    srv.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        help="seconds a bot waits before a move everyone sees (default 0.8)",
    )
    srv.add_argument(
        "--auto-next",
        type=float,
        metavar="SECONDS",
        help="press NEXT by itself after this many seconds (a table without buttons)",
    )
    srv.add_argument(
        "--public-url", help="the address phones should use, e.g. http://10.42.0.1:8000"
    )
    srv.add_argument(
        "--hotspot-file",
        type=Path,
        help="the offline Wi-Fi's name and password, to show its QR code",
    )
    srv.add_argument("--seed", type=int, help="fixed game seeds, for tests and tournaments")
    srv.add_argument(
        "--poweroff-command",
        metavar="COMMAND",
        help='end the night with a long press on HOST: run this, e.g. "systemctl poweroff"',
    )
    srv.add_argument(
        "--rate-limit",
        type=float,
        default=20.0,
        metavar="EVENTS_PER_SECOND",
        help="events a connection may send per second, bursts of twice that (default 20)",
    )

    srv.add_argument(
        "--fresh-store",
        action="store_true",
        help="begin a new table when the game store was found damaged (it stays, kept aside)",
    )

    hist = sub.add_parser("history", help="list the nights and games stored on this server")
    hist.add_argument("--data-dir", type=Path)
    hist.add_argument("--json", action="store_true")

    rep = sub.add_parser("replay", help="replay a stored game from its log and print its scores")
    rep.add_argument("game_id", type=int)
    rep.add_argument("--data-dir", type=Path)
    return parser


def board_budget() -> float:
    """Scale the expert bots' play-outs to the board this runs on (``appliance.board``), and say
    so when it is a Raspberry Pi; return the share."""
    model = board_model()
    share = expert_share(model)
    set_scale(share)
    if share < 1:
        print(
            f"{model}: the expert bots play {share:.0%} of their default play-outs"
            f" (set {PLAYOUTS_ENV} to choose another number)",
            flush=True,
        )
    return share


def main(argv: Sequence[str] | None = None) -> int:
    # The server's start makes tens of thousands of objects that live as long as it does
    # (modules, the app, the table): collecting them on the way only costs a small board's CPU.
    # The collector is off from the first import on, and back on once they are set aside
    # (``LonghallServer.load``); the other commands have it back at once.
    collecting = gc.isenabled()
    gc.disable()
    try:
        args = build_parser().parse_args(argv)
    except BaseException:  # --help, or what argparse refuses: it exits
        if collecting:
            gc.enable()
        raise
    if collecting and args.command != "serve":
        gc.enable()
    playouts = budget_from_env()  # the expert bots' budget, for simulate and serve alike
    if args.command == "simulate":
        from .simulate import run

        return run(args, sys.stdout)
    from ..config import Settings, default_data_dir

    data_dir = args.data_dir or default_data_dir()
    if args.command == "serve":
        serve = load_serve()
        if playouts is None:  # the host's number wins over the board's
            board_budget()

        settings = Settings(
            host=args.host,
            port=args.port,
            data_dir=data_dir,
            gpio=args.gpio,
            gpio_config=args.gpio_config,
            bot_delay=args.bot_delay,
            auto_next=args.auto_next,
            public_url=args.public_url,
            hotspot_file=args.hotspot_file,
            seed=args.seed,
            poweroff_command=args.poweroff_command,
            rate=args.rate_limit,
            burst=max(1, int(args.rate_limit * 2)),
            fresh_store=args.fresh_store,
        )
        return serve(settings)
    from ..store.damaged import diagnose
    from .history import print_history, print_replay

    db = Settings(data_dir=data_dir).db_path
    problem = diagnose(db)
    if problem is not None:  # opening it for writing could make SQLite drop its -wal
        print(
            f"The game store {db} {problem}: start `longhall serve` to keep it aside, "
            "then see docs/pi-setup.md, Backups.",
            file=sys.stderr,
        )
        return 3

    if args.command == "history":
        return print_history(Settings(data_dir=data_dir), args.json, sys.stdout)
    if args.command == "replay":
        return print_replay(Settings(data_dir=data_dir), args.game_id, sys.stdout)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
