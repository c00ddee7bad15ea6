"""Every user-facing string comes from a catalog in English, Dutch, French and German."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from longhall.server.web.catalogs import catalog_files, merged_catalog
from longhall.server.web.pages import GAME_ROOTS

from ..support import ROOT

I18N = ROOT / "server" / "static" / "i18n"
KIOSK_STARTING = ROOT / "systemd" / "kiosk-starting"  # the kiosk's starting page reads "starting"
LANGUAGES = ("en", "nl", "fr", "de")
# the pages' shells, their shared modules and every game's page modules
PAGES = sorted(
    path
    for folder in ("phone_ui", "table_display", "server/static")
    for path in (ROOT / folder).rglob("*.js")
    if "vendor" not in path.parts
)
# Values every dynamic key may take: phases, stones, sides, stations, colours, bots, decks...
DYNAMIC = {
    "phase": [
        "lobby",
        "setup",
        "materials",
        "planning",
        "reveal",
        "pick",
        "swap",
        "choose",
        "loot",
        "sharing",
        "building",
        "round_end",
        "over",
    ],
    "stone": ["grass", "wood", "clay", "stone"],
    "stone_count": ["grass", "wood", "clay", "stone"],
    "side": ["catapult", "boat", "ram"],
    "station": ["3-4-5", "1-2", "0", "healthy"],
    "colour": ["red", "blue", "yellow", "green", "white", "black"],
    "score": ["amulets", "grass", "wood", "clay", "stone", "complete"],
    "hardware": ["hardware_failed", "hardware_pin_map", "hardware_no_gpio", "hardware_mock"],
    "games": ["eketorp", "vikings_on_board", "vikings_gone_wild"],
}


def flatten(node: Any, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def catalog(lang: str) -> dict[str, str]:
    """One language's catalog as the pages load it: the shared words and every game's."""
    body, _ = merged_catalog(lang, I18N, GAME_ROOTS)
    return flatten(json.loads(body))


def placeholders(text: str) -> set[str]:
    """The params a text takes: {name}, and the number of each {n, plural, ...}."""
    return set(re.findall(r"\{(\w+)(?:\}|\s*,\s*plural\s*,)", text))


PLURAL = re.compile(r"\{(\w+)\s*,\s*plural\s*,")
FORM = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


def plural_forms(text: str) -> list[tuple[str, dict[str, str]]]:
    """Every {n, plural, one {...} other {...}} of a text: its number and its forms."""
    out = []
    for head in PLURAL.finditer(text):
        forms: dict[str, str] = {}
        at = head.end()
        while form := FORM.match(text, at):
            depth, end = 0, form.end() - 1
            for end in range(form.end() - 1, len(text)):
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                if depth == 0:
                    break
            assert depth == 0, f"unbalanced braces in {text!r}"
            forms[form.group(1)] = text[form.end() : end]
            at = end + 1
        assert text[at : at + 1].strip() == "}", f"a plural that does not close: {text!r}"
        out.append((head.group(1), forms))
    return out


# Every string that counts something, with the number whose plural changes its words: each has
# plural forms in every language ("Costs 1 amulets", "Swap all 1 cards").
COUNTED = {
    "planning.in_hospital": "n",
    "fight.field_stake": "vikings",
    "fight.swap": "n",
    "fight.swap_cost": "n",
    "fight.swapped": "n",
    "round_end.hospital": "n",
    "table.draw_pile": "n",
    "log.swap": "cards",
    "errors.not_enough_amulets": "cost",
    "errors.stones_left": "left",
    "errors.card_too_many": "max",
    "errors.table_full": "max",
    "errors.bad_name": "max",
    "stone_count.stone": "n",
    "vob.pile": "count",
    "vob.table.tie": "n",
    "vob.table.count": "n",
    "vob.log.draw_2": "n",
    "vob.log.chest_returned": "n",
    "vob.log.take_chests": "count",
    "vob.log.end": "n",
    # Vikings Gone Wild: every string whose words change with a number (VP, PV, OP and SP are
    # the same for one and for many)
    "vgw.sum_gold": "n",
    "vgw.sum_beer": "n",
    "vgw.sum_draw": "draw",
    "vgw.attack_sum": "cards",
    "vgw.defend.question": "cards",
    "vgw.you.successes": "n",
    "vgw.build.limit": "max",
    "vgw.build.no_limit": "n",
    "vgw.village.favours": "n",
    "vgw.table.target": "n",
    "vgw.table.attack": "cards",
    "vgw.table.split": "n",
    "vgw.table.answered": "n",
    "vgw.log.attack": "cards",
    "vgw.log.full_reserves": "n",
    "vgw.log.kept": "cards",
    "vgw.lobby.kept": "n",
    "vgw.host.kept": "n",
    "errors.village_full": "max",
    "errors.kind_limit": "max",
    "errors.bad_attack": "cards",
    "errors.bad_defence": "max",
}
# The browser's plural categories of each language (Intl.PluralRules): "one" and "other" in all
# four; French also has "many" (a million), which "other" covers.
CATEGORIES = {
    "en": {"one", "other"},
    "nl": {"one", "other"},
    "de": {"one", "other"},
    "fr": {"one", "many", "other"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_the_language_s_own(lang: str) -> None:
    texts = catalog(lang)
    for key, number in COUNTED.items():
        assert number in {n for n, _ in plural_forms(texts[key])}, f"{lang}:{key} has no plural"
    for key, text in texts.items():
        for _number, forms in plural_forms(text):
            assert "other" in forms and "one" in forms, f"{lang}:{key} lacks one or other"
            for form in forms:
                assert form in CATEGORIES[lang] or form.startswith("="), f"{lang}:{key}: {form}"
            for body in forms.values():
                assert "#" in body or not re.search(r"\d", body), f"{lang}:{key}: {body!r}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert set(other) == set(english), set(other) ^ set(english)
    for key, text in english.items():
        assert other[key].strip(), f"{lang}:{key} is empty"
        assert placeholders(other[key]) == placeholders(text), f"{lang}:{key} placeholders differ"


def test_every_key_the_pages_use_exists() -> None:
    english = catalog("en")
    used: set[str] = set()
    for page in PAGES:
        source = page.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*"([a-z0-9_.]+)"\s*[,)]""", source))
        for a, b in re.findall(
            r"""\?\s*"([a-z0-9_]+\.[a-z0-9_.]+)"\s*:\s*"([a-z0-9_]+\.[a-z0-9_.]+)\"""", source
        ):
            used |= {a, b}
    for prefix, values in DYNAMIC.items():
        used |= {f"{prefix}.{v}" for v in values}
    used |= {
        f"fatal.{code}.{part}"
        for code in ("bad_token", "bad_code", "replaced", "revoked")
        for part in ("title", "text")
    }
    used |= {f"lobby.bot_{b}" for b in ("greedy", "random")}
    used |= {f"host.deck_{d}" for d in ("house", "physical")} | {
        f"host.deck_{d}_help" for d in ("house", "physical")
    }
    used |= {f"help.{p}" for p in DYNAMIC["phase"]}
    used |= {"games.eketorp"}
    missing = sorted(k for k in used if k not in english)
    assert not missing, missing
    assert len(used) > 250


def error_codes() -> set[str]:
    """Every code the server, the engines and the hardware can send to a page."""
    names = {"IllegalAction", "CommandError", "refusal", "_refused", "_error", "notify"}
    codes: set[str] = set()
    for folder in ("server", "hardware"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    fn = node.func
                    name = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)
                    first = node.args[0] if node.args else None
                    if (
                        name in names
                        and isinstance(first, ast.Constant)
                        and isinstance(first.value, str)
                    ):
                        codes.add(first.value)
    # the hardware's status codes travel in table.hardware and in notices
    for path in (ROOT / "hardware").rglob("*.py"):
        codes |= set(re.findall(r'"(hardware_[a-z_]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_every_error_and_notice_has_a_sentence_in_every_language() -> None:
    codes = error_codes()
    assert {"own_castle", "stale_version", "next_too_early", "card_not_in_hand"} <= codes
    for lang in LANGUAGES:
        cat = catalog(lang)
        missing = sorted(
            code for code in codes | {"offline", "timeout"} if f"errors.{code}" not in cat
        )
        assert not missing, f"{lang}: {missing}"


def test_game_terms_follow_the_printed_rules() -> None:
    # Dutch and French terms from the printed rules; German from the German edition
    assert (
        catalog("nl")["planning.fields"] and "burcht" in catalog("nl")["planning.castle_of"].lower()
    )
    assert "veldhospitaal" in catalog("nl")["table.hospital"].lower()
    assert "village" in catalog("fr")["planning.castle_of"].lower()
    assert "hôpital" in catalog("fr")["table.hospital"].lower()
    assert "burg" in catalog("de")["planning.castle_of"].lower()
    # in Eketorp the phone is the planning board behind its screen: Dutch "planbord" (behind the
    # "zichtscherm"), French "tableau personnel" behind the "paravent"; the shared words, read
    # whatever the game, say "secret board" (test_the_shared_words_speak_of_no_game)
    nl, fr = catalog("nl"), catalog("fr")
    assert "planbord" in nl["help.planning"].lower()
    assert "paravent" in fr["help.planning"].lower()
    assert "tableau personnel" in fr["help.planning"].lower()
    assert "geheime bord" in nl["join.intro"] and "plateau secret" in fr["join.intro"]


def test_help_speaks_to_players_not_to_developers() -> None:
    """The rules help sends players to the rulebook in the box, never to a file of this
    repository, and says how to win."""
    for lang in LANGUAGES:
        cat = catalog(lang)
        for key, text in cat.items():
            assert not re.search(r"docs/|\.md\b|rules/", text), f"{lang}:{key} names a file"
        assert "18" in cat["help.goal"] and "10" in cat["help.goal"], lang


def test_french_punctuation_keeps_its_no_break_space() -> None:
    """French puts a no-break space before : ; ? ! (so they never start a line)."""
    for key, text in catalog("fr").items():
        assert not re.search(r" [:;?!]", text), f"fr:{key} has a plain space before punctuation"


# What the table display says to everyone at the table, in German to them all (ihr); everything
# else speaks to one player, as du.
TO_THE_TABLE = re.compile(r"^(lobby_table|table|vob\.table|vob\.log|vgw\.table|vgw\.log)\.")
IHR = re.compile(
    r"\b(euer|eure|euren|eurem|eurer|eures|euch)\b|(^|[:.!?]\s+|„)(Ihr|Setzt|Tippt|Wählt|Zieht|Legt"
    r"|Nehmt|Tauscht|Holt|Führt|Gebt|Erhöht|Versetzt|Stellt|Entfernt|Drückt|Spielt|Lasst) "
)


# Sie and Ihr(e) in the middle of a sentence: the formal address, which Longhall never uses.
SIE = re.compile(r"(?<![.!?:„(]\s)(?<=\s)(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b")


def test_german_speaks_to_a_player_as_du() -> None:
    """A player is du in every German string that speaks to them (never ihr, never both, never
    the formal Sie)."""
    for key, text in catalog("de").items():
        assert not SIE.search(text), f"de:{key} speaks to a player as Sie: {text}"
        if not TO_THE_TABLE.match(key):
            assert not IHR.search(text), f"de:{key} speaks to a player as ihr: {text}"


def test_no_user_facing_text_is_written_into_the_pages() -> None:
    """Strings shown to people come from t(); the pages hold only keys, symbols and numbers."""
    for page in (p for p in PAGES if "static" not in p.parts):  # the pages, not common.js
        source = page.read_text(encoding="utf-8")
        for literal in re.findall(r'h\("[a-z0-9]+",\s*\{[^}]*\},\s*"([^"]{4,})"\)', source):
            if literal == "Longhall":  # the product's name is the same in every language
                continue
            pytest.fail(f"{page.name}: a literal text {literal!r} instead of t()")


def test_vikings_on_board_words_are_complete_in_every_language() -> None:
    """Every building (V0.4), goods kind, phase and log event of the engine has its words."""
    from longhall.server.games.vikings_on_board import rules as R
    from longhall.server.games.vikings_on_board.phases import PHASES

    events = set()
    for path in (ROOT / "server" / "games" / "vikings_on_board").glob("*.py"):
        events |= set(re.findall(r'record\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert {"go", "sail", "bet_won", "end"} <= events
    variants = {"go": ["go", "go_idle"], "move": ["move", "move_to"], "draw": ["draw_1", "draw_2"]}
    for lang in LANGUAGES:
        cat = catalog(lang)
        keys = [f"vob.{part}.{b}" for b in R.BUILDINGS for part in ("building", "effect")]
        keys += [f"vob.reason.{b}" for b in R.BUILDINGS if b != "first_player"]  # V3.1: always
        keys += [f"vob.goods.{g}" for g in R.GOODS] + [f"vob.score.{g}" for g in R.GOODS]
        keys += [f"colour.{c}" for c in R.COLOURS]
        keys += [f"vob.{part}.{p}" for p in PHASES if p != "setup" for part in ("phase", "help")]
        keys += [f"vob.log.{v}" for e in events for v in variants.get(e, [e])]
        missing = [k for k in keys if k not in cat]
        assert not missing, f"{lang}: {missing}"


def test_vikings_gone_wild_words_are_complete_in_every_language() -> None:
    """Every building kind (W0.2), phase, source of points, bonus card and log event of the
    engine has its words; French takes the printed rules' terms."""
    from longhall.server.games.vikings_gone_wild import SPEC
    from longhall.server.games.vikings_gone_wild import rules as R
    from longhall.server.games.vikings_gone_wild.phases import PHASES
    from longhall.server.table.gamedata import load_data

    events, whys = set(), set()
    for path in (ROOT / "server" / "games" / "vikings_gone_wild").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        events |= set(re.findall(r'record\(\s*"([a-z_]+)"', source))
        whys |= set(re.findall(r'gain\([^)]*"([a-z_]+)"\)', source))
    assert {"attack", "attack_answered", "bonus_split", "game_over"} <= events
    assert {"attacks", "defence", "missions", "bonus"} <= whys
    bonuses = [b["id"] for b in load_data(SPEC)["cards"]["bonuses"]]
    variants = {
        "attack_answered": ["attack_success", "attack_repelled"],
        "turn_over": ["turn_over", "last_turn_over"],
    }
    for lang in LANGUAGES:
        cat = catalog(lang)
        keys = [f"vgw.kind.{k}" for k in R.BUILDING_KINDS] + [
            f"vgw.resource.{r}" for r in R.RESOURCES
        ]
        keys += [f"vgw.phase.{p}" for p in PHASES] + [
            f"vgw.help.{p}" for p in PHASES if p != "setup"
        ]
        keys += [f"vgw.why.{w}" for w in whys] + [f"vgw.bonus.{b}" for b in bonuses]
        keys += [f"vgw.log.{v}" for e in events for v in variants.get(e, [e])]
        keys += ["games.vikings_gone_wild", "vgw.marker.new", "vgw.marker.damaged"]
        missing = [k for k in keys if k not in cat]
        assert not missing, f"{lang}: {missing}"
    fr = catalog("fr")
    assert (
        fr["vgw.kind.gold_factory"] == "Fabrique d'Or"
        and "Hôtel de Ville" in fr["vgw.village.hall"]
    )
    assert fr["vgw.phase.storage"] == "Phase de Stockage" and "Faveur Divine" in fr["vgw.favour"]


# -- where each word lives: the shared catalog, or its game's own --------------------------------

SHELLS = [
    path
    for path in PAGES
    if "games" not in path.relative_to(ROOT).parts
    or path.parent.name != "games"  # server/static/common.js and the two shells
]
# the night's page, drawn on the server in the pages' words (server/web/nightpage.py)
NIGHT_PAGE = ROOT / "server" / "web" / "nightpage.py"
KEYS = re.compile(r"""["'`]([a-z_]+(?:\.[a-z0-9_]+)+)["'`]""")
PREFIXES = re.compile(r"""\b(?:t|has)\(\s*`([a-z_.]+)\$\{""")


def used_by(paths: list[Path]) -> tuple[set[str], set[str]]:
    """The keys these files name whole, and the prefixes of those they make (``phase.${x}``)."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in paths:
        source = path.read_text(encoding="utf-8")
        whole |= set(KEYS.findall(source))
        prefixes |= set(PREFIXES.findall(source))
    return whole, prefixes


def named(key: str, uses: tuple[set[str], set[str]]) -> bool:
    whole, prefixes = uses
    return key in whole or any(key.startswith(p) for p in prefixes)


def game_modules(game: str) -> list[Path]:
    root = GAME_ROOTS[game]
    return [
        root / folder / "games" / f"{game}.js"
        for folder in ("phone_ui", "table_display", "server/static")
        if (root / folder / "games" / f"{game}.js").exists()
    ]


def engine_codes(game: str) -> set[str]:
    """The error codes a game's package can raise: by its rules, or declared (an option's)."""
    codes = set()
    for path in (ROOT / "server" / "games" / game).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None)
                if name == "IllegalAction" and node.args:
                    first: ast.expr | None = node.args[0]
                elif (
                    name == "Entries" and len(node.args) > 1 and isinstance(node.args[1], ast.Tuple)
                ):
                    first = node.args[1].elts[0]
                else:
                    first = None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
    return codes


def test_a_key_two_catalogs_hold_says_the_same_in_both() -> None:
    """The pages load one merged catalog: two games may share an error's words, never with two
    meanings."""
    for lang in LANGUAGES:
        seen: dict[str, tuple[str, str]] = {}
        for path in catalog_files(lang, I18N, GAME_ROOTS):
            for key, text in flatten(json.loads(path.read_text(encoding="utf-8"))).items():
                if key in seen:
                    assert seen[key][1] == text, (lang, key, seen[key][0], path.parent.name)
                seen[key] = (path.parent.name, text)


def table_strings() -> set[str]:
    """Every string the server outside the games' packages, and the hardware, may send: the
    codes of the errors and notices the table, the web layer and the appliance raise."""
    found: set[str] = set()
    games = ROOT / "server" / "games"
    for folder in ("server", "hardware"):
        for path in (ROOT / folder).rglob("*.py"):
            if games in path.parents and path.parent != games:
                continue  # a game's own package
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
    return found


def test_each_game_s_words_live_in_its_own_catalog() -> None:
    """A game's catalog holds its title, its page modules' words and its own error codes; the
    shared catalog only what the shells, the table's own errors and every game use."""
    shell = used_by([*SHELLS, NIGHT_PAGE])
    table = table_strings() | {"offline", "timeout"}  # and the two the pages make themselves
    every_game: set[str] | None = None
    for game in GAME_ROOTS:
        words = flatten(json.loads((I18N / game / "en.json").read_text(encoding="utf-8")))
        uses, codes = used_by(game_modules(game)), engine_codes(game)
        for key in words:
            where, _, name = key.partition(".")
            assert (
                key == f"games.{game}" or named(key, uses) or (where == "errors" and name in codes)
            ), f"{game}'s catalog holds {key}, which neither its pages nor its engine use"
        whole, prefixes = uses
        every_game = whole if every_game is None else every_game & whole
    shared = flatten(json.loads((I18N / "en.json").read_text(encoding="utf-8")))
    for key in shared:
        where, _, name = key.partition(".")
        assert (
            named(key, shell)
            or where == "notices"
            or (where == "starting" and '["starting"]' in KIOSK_STARTING.read_text())
            or (where == "errors" and name in table)
            or key in (every_game or set())
        ), f"the shared catalog holds {key}, which no shell, no table code and not every game use"


# What belongs to one game and not to the hub (English; the other languages follow the same keys).
# An SD card is the Pi's, not a game's.
GAME_TERMS = re.compile(
    r"\b(castles?|vikings?|(?<!SD )cards?|plans?|amulets?|stones?|drakkars?|barrels?|chests?"
    r"|missions?|favours?|fights?|sieges?|rounds?)\b",
    re.IGNORECASE,
)


def test_the_shared_words_speak_of_no_game() -> None:
    """The join page, the lobby, the offline overlay and every other shared word are read
    whatever the game: none speaks of one game's pieces (a hand of cards, a castle, a plan)."""
    shared = flatten(json.loads((I18N / "en.json").read_text(encoding="utf-8")))
    found = [f"{key}: {text}" for key, text in shared.items() if GAME_TERMS.search(text)]
    assert not found, "\n".join(found)
