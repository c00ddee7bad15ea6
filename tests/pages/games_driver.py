"""Vikings on Board's and Vikings Gone Wild's pages driven at a chosen moment: a real phone page
or table display in Chromium whose Socket.IO client is the flow tests' stand-in
(``phone_driver.FAKE_IO``), showing the views of an engine the test set up at the phase under
test."""

from __future__ import annotations

import json
from typing import Any

from longhall.server.games import vikings_gone_wild, vikings_on_board
from longhall.server.games.registry import GAMES
from longhall.server.games.vikings_on_board import VikingsState
from longhall.server.games.vikings_on_board import rules as R
from longhall.server.table.messages import lobby_facts
from longhall.server.table.seats import COLOURS

from ..support import ServerProcess
from .conftest import PHONE, PHONE_SMALL, wait_until
from .phone_driver import NAMES, StandInPage

GAME = "vikings_on_board"


def game_table(
    game: str,
    colours: list[str],
    status: str = "playing",
    result: dict[str, Any] | None = None,
    bots: set[int] | None = None,
    stand_ins: set[int] | None = None,
    away: set[int] | None = None,
) -> dict[str, Any]:
    """The table part of a message of ``game``, seat i of colour ``colours[i]``: every seat a
    player with a phone, but ``bots`` (bots), ``stand_ins`` (a bot plays for them for now) and
    ``away`` (their phone is gone). The game's lobby facts are the server's own."""
    bots, stand_ins, away = bots or set(), stand_ins or set(), away or set()
    spec = GAMES[game]
    seats = []
    for i, colour in enumerate(colours):
        bot = i in bots
        seats.append(
            {
                "seat": i,
                "name": f"Bot {COLOURS[colour]}" if bot else NAMES[i],
                "colour": colour,
                "symbol": COLOURS[colour],
                "kind": "bot" if bot else "human",
                "bot": "greedy" if bot or i in stand_ins else None,
                "vacant": False,
                "host": i == 0,
                "connected": i not in away,
                "away_since": None if i not in away else 0,
            }
        )
    return {
        "code": "stand-in",
        "now": 0,
        "join_url": "http://127.0.0.1/join/stand-in",
        "game": game,
        "games": [game],
        "lobby_games": {game: lobby_facts(game)},
        "status": status,
        "paused": False,
        "locked": False,
        "barred": [],
        "options": spec.lobby.settings({}),
        "seats": seats,
        "host": 0,
        "start_player": 0,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "colours": {c: COLOURS[c] for c in spec.lobby.colours},
        "game_id": 1,
        "fingerprints": {},
        "reveals": [],
        "taken_back": None,
        "result": result,
        "hardware": {"status": "off", "code": None, "message": None},
        "hotspot": None,
        "notices": [],
        "language": None,
    }


def vob_table(st: VikingsState, **table: Any) -> dict[str, Any]:
    """The table part of a message of Vikings on Board (``game_table``), each seat of the colour
    its player has in ``st``."""
    return game_table(GAME, [R.COLOURS[c] for c in st.colours[: st.n]], **table)


def result_of(st: Any, table: dict[str, Any]) -> dict[str, Any]:
    """The table's result of a finished game, as the server keeps it."""
    return {
        "status": "finished",
        "scores": st.scores(),
        "winners": st.winners(),
        "seats": [{k: s[k] for k in ("name", "colour", "symbol")} for s in table["seats"]],
    }


class GamePage(StandInPage):
    """One page (a phone at ``seat``, or the table display when ``seat`` is None) showing ``st``;
    a phone's commands go to ``st`` as the server would take them. A ``small`` phone's screen is
    360x640; ``table`` holds :func:`game_table`'s seat arguments."""

    spec: Any  # the game's

    def __init__(
        self,
        browser: Any,
        server: ServerProcess,
        st: Any,
        seat: int | None,
        lang: str = "en",
        size: tuple[int, int] = (1920, 1080),
        small: bool = False,
        **table: Any,
    ) -> None:
        self.st, self.seat, self.table_args = st, seat, table
        self.version = 1
        self.refused: list[str] = []
        self.commands: list[dict[str, Any]] = []
        if seat is None:
            options: dict[str, Any] = {"viewport": {"width": size[0], "height": size[1]}}
        else:
            options = dict(PHONE_SMALL if small else PHONE)
        self.context = browser.new_context(**options, locale=lang)
        self.open(
            self.context,
            server.url + ("/join/stand-in" if seat is not None else f"/?lang={lang}"),
            "table display" if seat is None else f"phone {seat}",
        )
        self.show("snapshot")

    def table(self, **table: Any) -> dict[str, Any]:
        """The table part of a message (:func:`game_table`) for ``st``."""
        raise NotImplementedError

    def message(self) -> dict[str, Any]:
        over = self.st.phase == "over"
        table = self.table(status="over" if over else "playing", **self.table_args)
        if over:
            table["result"] = result_of(self.st, table)
        return {
            "seq": self.version,
            "version": self.version,
            "steps": self.st.version,
            "table": table,
            "you": None if self.seat is None else {"seat": self.seat, "host": self.seat == 0},
            "game": json.loads(json.dumps(self.spec.view(self.st, self.seat))),
        }

    def show(self, kind: str = "update") -> None:
        """Send the page the game as it is now (after the test changed it) and wait for it."""
        if kind == "update":
            self.advance()
        self.page.evaluate("([m, k]) => window.__longhallPush(m, k)", [self.message(), kind])
        wait_until(
            self.page,
            f"document.body.dataset.version === '{self.version}' && !!document.body.dataset.phase",
        )

    def text(self, selector: str = "#app") -> str:
        found = self.page.query_selector(selector)
        assert found is not None, f"nothing shows {selector}"
        return str(found.inner_text())

    def no_errors(self) -> None:
        assert self.watched.errors == [], self.watched.errors
        assert "⟦" not in self.text()

    def close(self) -> None:
        self.context.close()


class VobPage(GamePage):
    """A page of Vikings on Board (:class:`GamePage`), each seat of its player's colour."""

    spec = vikings_on_board.SPEC

    def table(self, **table: Any) -> dict[str, Any]:
        return vob_table(self.st, **table)


class VgwPage(GamePage):
    """A page of Vikings Gone Wild (:class:`GamePage`), the seats in the lobby's colours."""

    spec = vikings_gone_wild.SPEC

    def table(self, **table: Any) -> dict[str, Any]:
        colours = list(GAMES["vikings_gone_wild"].lobby.colours[: self.st.n])
        return game_table("vikings_gone_wild", colours, **table)
