"""Vikings on Board's pages driven at a chosen moment: a real phone page or table display in
Chromium whose Socket.IO client is the flow tests' stand-in (``phone_driver.FAKE_IO``), showing
the views of a Vikings on Board engine the test set up at the phase under test."""

from __future__ import annotations

import json
from typing import Any

from longhall.server.games.vikings_on_board import SPEC, VikingsState
from longhall.server.games.vikings_on_board import rules as R

from ..support import ServerProcess
from .conftest import PHONE, wait_until
from .phone_driver import COLOURS, NAMES, StandInPage

GAME = "vikings_on_board"


def vob_table(
    st: VikingsState,
    status: str = "playing",
    result: dict[str, Any] | None = None,
    bots: set[int] | None = None,
    stand_ins: set[int] | None = None,
    away: set[int] | None = None,
) -> dict[str, Any]:
    """The table part of a message: every seat a player with a phone, but ``bots`` (bots),
    ``stand_ins`` (a bot plays for them for now) and ``away`` (their phone is gone)."""
    bots, stand_ins, away = bots or set(), stand_ins or set(), away or set()
    seats = []
    for i in range(st.n):
        colour = R.COLOURS[st.colours[i]]
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
        "game": GAME,
        "games": [GAME],
        "lobby_games": {
            GAME: {
                "min_players": 2,
                "max_players": 4,
                "minutes": [30, 60],
                "bots": ["greedy", "random", "expert"],
                "options": [],
                "table_facts": False,
                "start_player": False,  # V1.2: drawn
            }
        },
        "status": status,
        "paused": False,
        "locked": False,
        "barred": [],
        "options": {},
        "seats": seats,
        "host": 0,
        "start_player": 0,
        "min_players": 2,
        "max_players": 4,
        "colours": {c: COLOURS[c] for c in R.COLOURS},
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


def vob_result(st: VikingsState) -> dict[str, Any]:
    """The table's result of a finished game, as the server keeps it."""
    table = vob_table(st)
    return {
        "status": "finished",
        "scores": st.scores(),
        "winners": st.winners(),
        "seats": [{k: s[k] for k in ("name", "colour", "symbol")} for s in table["seats"]],
    }


class VobPage(StandInPage):
    """One page (a phone at ``seat``, or the table display when ``seat`` is None) showing ``st``;
    a phone's commands go to ``st`` as the server would take them."""

    def __init__(
        self,
        browser: Any,
        server: ServerProcess,
        st: VikingsState,
        seat: int | None,
        lang: str = "en",
        size: tuple[int, int] = (1920, 1080),
        **table: Any,
    ) -> None:
        self.st, self.seat, self.table_args = st, seat, table
        self.version = 1
        self.refused: list[str] = []
        self.commands: list[dict[str, Any]] = []
        if seat is None:
            options: dict[str, Any] = {"viewport": {"width": size[0], "height": size[1]}}
        else:
            options = dict(PHONE)
        self.context = browser.new_context(**options, locale=lang)
        self.open(
            self.context,
            server.url + ("/join/stand-in" if seat is not None else f"/?lang={lang}"),
            "table display" if seat is None else f"phone {seat}",
        )
        self.show("snapshot")

    def message(self) -> dict[str, Any]:
        over = self.st.phase == "over"
        table = vob_table(
            self.st,
            status="over" if over else "playing",
            result=vob_result(self.st) if over else None,
            **self.table_args,
        )
        return {
            "seq": self.version,
            "version": self.version,
            "steps": self.st.version,
            "table": table,
            "you": None if self.seat is None else {"seat": self.seat, "host": self.seat == 0},
            "game": json.loads(json.dumps(SPEC.view(self.st, self.seat))),
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
