"""Words a player reads once (issue 12, item 6): plural forms chosen by the browser's own plural
rules (Intl.PluralRules) in all four languages, and names that cannot be misread."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, wait_until

pytestmark = pytest.mark.slow

# Loads a language into the page's own translation module and reads the texts asked for.
READ = """async ([lang, asks]) => {
  const common = await import("/static/common.js");
  const eketorp = await import("/static/games/eketorp.js");
  await common.loadLanguage(lang);
  const seats = [{ name: "Anna", symbol: "▲" }, { name: "Bram", symbol: "●" }];
  return asks.map(([key, params]) => key === "log"
    ? eketorp.logLine(params, seats)
    : key === "place" ? eketorp.placeName(params, seats) : common.t(key, params));
}"""

EXPECTED = {
    "en": [
        (
            ("fight.swap_cost", {"n": 1, "amulets": 5}),
            "Costs 1 amulet, that is 1 point at the end. You have 5.",
        ),
        (
            ("fight.swap_cost", {"n": 4, "amulets": 5}),
            "Costs 4 amulets, that is 4 points at the end. You have 5.",
        ),
        (("fight.swap", {"n": 1}), "Swap your card"),
        (("fight.swap", {"n": 3}), "Swap all 3 cards"),
        (("log", {"e": "swap", "seat": 0, "cards": 1}), "▲ Anna swaps 1 card for 1 amulet."),
        (
            ("round_end.hospital", {"n": 0}),
            "Vikings in the field hospital move one station (none came home).",
        ),
        (
            ("log", {"e": "card", "placed": {"B": {"stone": 1}, "C": {"grass": 2}}}),
            "Material card: B: 1 grey stone; C: 2 grass.",
        ),
        (("place", "siege:1:catapult"), "Bram\u2019s catapult"),
        (("away.seconds", {"n": 1}), "1 second"),
        (("away.minutes", {"n": 2}), "2 minutes"),
        (
            ("host.game_too_many", {"game": "Eketorp", "max": 6, "seated": 1}),
            "Eketorp is for at most 6 players and 1 is seated: remove a seat to choose it.",
        ),
        (
            ("errors.plan_incomplete", {"left": 1}),
            "Place every viking before committing: 1 viking left.",
        ),
    ],
    "nl": [
        (
            ("fight.swap_cost", {"n": 1, "amulets": 2}),
            "Kost 1 amulet, dus 1 punt aan het einde. Je hebt er 2.",
        ),
        (("table.draw_pile", {"n": 1}), "Trekstapel: 1 kaart"),
        (("table.draw_pile", {"n": 30}), "Trekstapel: 30 kaarten"),
        (
            ("errors.too_many_for_game", {"game": "Eketorp", "min": 3, "max": 6, "seated": 7}),
            "Eketorp is voor 3 tot 6 spelers en er zitten er 7: haal eerst een plaats weg.",
        ),
    ],
    "fr": [  # French counts 0 and 1 as one
        (("table.draw_pile", {"n": 0}), "Talon\u00a0: 0 carte"),
        (("table.draw_pile", {"n": 2}), "Talon\u00a0: 2 cartes"),
        (
            ("fight.swapped", {"n": 1}),
            "Vous avez échangé votre main pour 1 amulette. Votre nouvelle main\u00a0:",
        ),
        (
            ("lobby_table.need", {"game": "Eketorp", "min": 3}),
            "Eketorp se joue à 3 joueurs minimum\u00a0: rejoignez la table, ou demandez à"
            " l\u2019hôte d\u2019ajouter des bots.",
        ),
    ],
    "de": [
        (("fight.swap", {"n": 1}), "Deine Karte tauschen"),
        (("errors.stones_left", {"left": 2}), "Verbaue zuerst deine 2 Steine."),
        (
            ("planning.in_hospital", {"n": 1}),
            "1 Wikinger liegt im Feldlazarett und kann nicht eingesetzt werden.",
        ),
        (("side.ram", {}), "Ramme"),
        (("away.gone", {"time": "2 Minuten"}), ": Handy seit 2 Minuten weg"),
        (("away.minutes", {"n": 1}), "1 Minute"),
        (
            ("host.game_too_many", {"game": "Eketorp", "max": 6, "seated": 1}),
            "Eketorp ist für höchstens 6 Spieler, und 1 sitzt am Tisch: Entfernt einen Platz, um"
            " es zu wählen.",
        ),
    ],
}


def test_plural_forms_follow_each_language_s_rules(browser: Any, server: ServerProcess) -> None:
    context = browser.new_context()
    watched = Watched(context.new_page(), "table display")
    page = watched.page
    page.goto(server.url + "/")
    wait_until(page, "document.body.dataset.version !== undefined")
    for lang, cases in EXPECTED.items():
        asks = [[key, params] for (key, params), _ in cases]
        got = page.evaluate(READ, [lang, asks])
        assert got == [text for _, text in cases], lang
    assert watched.errors == []
    context.close()
