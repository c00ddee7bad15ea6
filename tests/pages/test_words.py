"""Words a player reads once: plural forms chosen by the browser's own plural
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

# per language: ((catalog key, its parameters or a place's name), the sentence it reads)
Cases = list[tuple[tuple[str, dict[str, Any] | str], str]]

EXPECTED: dict[str, Cases] = {
    "en": [
        # Vikings Gone Wild: a Drakkar's kept card is not drawn; it is in hand (W2.3, W2.8)
        (
            ("vgw.production_line", {"gold": 0, "beer": 1, "draw": 7, "hand": 8}),
            "produce 0 gold, 1 beer; draw 7: 8 cards in hand",
        ),
        (
            ("vgw.sum_draw", {"taverns": 2, "kept": 1, "draw": 7, "hand": 8}),
            "draw 5 + 2 Taverns = 7 cards; with 1 card kept by a Drakkar, 8 cards in hand",
        ),
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
        # the print: « il a 8 cartes en main (5 + 2 Tavernes + 1 qu'il a gardé) »
        (
            ("vgw.sum_draw", {"taverns": 2, "kept": 1, "draw": 7, "hand": 8}),
            "piochez 5 + 2 Tavernes = 7 cartes\u00a0; avec 1 carte gardée par un Drakkar, 8 cartes"
            " en main",
        ),
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
            "Eketorp ist für höchstens 6 Spieler, und 1 sitzt am Tisch: Entferne einen Platz, um"
            " es zu wählen.",
        ),
    ],
}


# Vikings on Board's counts (its log lines through its own words module).
READ_VOB = """async ([lang, asks]) => {
  const common = await import("/static/common.js");
  const vob = await import("/static/games/vikings_on_board.js");
  await common.loadLanguage(lang);
  const pub = { colours: ["red", "green"], drakkars: [] };
  const who = (seat) => ["Anna", "Bram"][seat];
  return asks.map(([key, params]) => key === "log" ? vob.logLine(params, pub, who)
    : key === "piece" ? vob.pieceWords(params) : common.t(key, params));
}"""

EXPECTED_VOB: dict[str, Cases] = {
    "en": [
        (("log", {"e": "end", "winners": [0]}), "The game is over: Anna wins."),
        (("log", {"e": "end", "winners": [0, 1]}), "The game is over: Anna, Bram win."),
        (
            ("log", {"e": "take_chests", "seat": 1, "count": 2}),
            "Bram takes the 2 chests left on the prow, face down.",
        ),
        (("vob.pile", {"n": 2, "count": 1}), "Warehouse 2: 1 chest"),
        (
            ("vob.table.tie", {"a": "Red", "b": "Blue", "n": 1}),
            "Red and Blue have 1 shield each: Red leads, nearer the prow.",
        ),
    ],
    "nl": [
        (
            ("log", {"e": "draw", "seat": 0, "warehouse": 2, "chests": 1}),
            "Anna trekt 1 kist uit pakhuis 2 en bekijkt die.",
        ),
        (("piece", {"colour": "red", "shields": 1}), "het rompdeel (rood) met 1 schild"),
        (("vob.pile", {"n": 3, "count": 2}), "Pakhuis 3: 2 kisten"),
        # a colour before "wedvak" agrees with it: het blauwe wedvak
        (
            ("log", {"e": "bet", "seat": 0, "colour": "blue", "drakkar": 2, "came": "hand"}),
            "Leg het vat van Anna gesloten op het blauwe wedvak van drakkar 3.",
        ),
        (
            ("log", {"e": "bet_won", "seat": 0, "colour": "green", "drakkar": 2}),
            "Geef Anna het vat van het groene vak van drakkar 3 gesloten terug.",
        ),
    ],
    "fr": [  # French counts 0 and 1 as one
        (("vob.pile", {"n": 1, "count": 0}), "Entrepôt 1\u00a0: 0 Coffre"),
        # a colour agrees with the zone (la zone bleue); a colour alone is a noun (le vert)
        (
            ("log", {"e": "bet", "seat": 0, "colour": "blue", "drakkar": 2, "came": "hand"}),
            "Posez le Tonneau de Anna face cachée sur la zone de pari bleue du drakkar 3.",
        ),
        (
            ("vob.you.discard", {"colour": "vert"}),
            "Le vert n\u2019est pas joué\u00a0: choisissez le Coffre qu\u2019il prend. Ce Coffre"
            " quitte la partie.",
        ),
        (
            ("vob.table.choosing", {"name": "Anna", "building": "Entrepôt 1"}),
            "Anna choisit un bâtiment pour son Viking qui est sur Entrepôt 1.",
        ),
        (
            ("log", {"e": "end", "winners": [0, 1]}),
            "La partie est finie\u00a0: Anna, Bram gagnent.",
        ),
    ],
    "de": [
        (("vob.table.count", {"colour": "Anna", "pieces": "1", "n": 1}), "Anna: 1 = 1 Schild"),
        (
            ("log", {"e": "bet_won", "seat": 0, "colour": "yellow", "drakkar": 2}),
            "Gebt Anna das Fass vom gelben Feld von Drakkar 3 verdeckt zurück.",
        ),
        (("vob.you.sail", {}), "Du hast ein Heck: Tippe auf den Drakkar, der jetzt ablegt."),
        (
            ("vob.log.chest_returned", {"kind": "Getreide", "drakkar": 3, "n": 1}),
            "Legt eine Truhe Getreide offen auf den Bug von Drakkar 3; 1 kommt unter Stapel 2.",
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
    for lang, cases in EXPECTED_VOB.items():  # Vikings on Board's counts too
        asks = [[key, params] for (key, params), _ in cases]
        got = page.evaluate(READ_VOB, [lang, asks])
        assert got == [text for _, text in cases], lang
    assert watched.errors == []
    context.close()
