"""Every catalog string whose words depend on a number takes plural forms in all four languages
("Costs 1 amulets", "Swap all 1 cards", "Anna swaps 1 cards for 1 amulets").

The rule, precisely: each placeholder of the catalogs is a count (a number of things), a label (a
number that names or measures something: round 3, site 4, damage 5) or words (a name, a place, a
list). A count that some language writes with a word right after it ("{n} cards", "{seated} are
seated") changes that word with the number, so in every language it must sit in a
``{n, plural, ...}`` choice, and no bare ``{n}`` may be followed by a word. A count written as a
bare figure ("Amulets: {n}", "{free} of {total}") changes no word and needs no plural.
"""

from __future__ import annotations

import re

import pytest

from .test_catalogs import LANGUAGES, catalog, placeholders, plural_forms

# -- what each placeholder holds -------------------------------------------------------------------

COUNTS = {
    "n", "count", "cost", "have", "max", "min", "seated", "free", "total", "vikings", "left",
    "amulets", "gold", "beer", "draw", "taverns", "done", "favours", "missions", "shields",
    "points", "stock", "mark", "reward", "of", "hand",
    "won", "played",  # a remembered player's games won, of those played
}  # fmt: skip
# A label's number never counts things, so no word agrees with it.
LABELS = {
    "round": "which round (Round 3)",
    "turn": "which turn (Turn 5)",
    "site": "which building site (Site 4)",
    "sites": "which building sites, as a list (3 and 4)",
    "drakkar": "which drakkar (drakkar 2)",
    "from": "which drakkar a piece leaves",
    "to": "which drakkar a piece joins",
    "level": "the town hall's level",
    "line": "which line of a file (line 3)",
    "damage": "a fight's damage, a value",
    "value": "a value of stones, a barrel or an attack",
    "attack": "an attack's value",
    "defence": "a defence's value",
    "added": "the value the cards add",
    "sum": "a sum of points",
    "ca": "a combat card's value",
    "cb": "a combat card's value",
    "most": "a field's size limit (at most 24)",
    "space": "which space of the score track (the space 12)",
    "rank": "a player's place in one game of the night (place 2)",
}
WORDS = {
    "attacker", "bonus", "building", "buildings", "card", "castles", "colour", "colours",
    "effect", "field", "fp", "from_colour", "fstype", "game", "goods", "host", "kind", "list",
    "name", "names", "numbers", "owner", "phase", "piece", "place", "reason", "removed",
    "resource", "result", "seat", "side", "ssid", "start", "station", "stone", "target", "url",
    "waiting", "when", "why", "winner", "winners",
    "amount",  # an amount of a resource in words, with its plural: "3 beer", "2 Bières"
    "pieces",  # a sum in figures, such as 2 + 1 + 3
    "file",  # a file's name
    "players",  # a range of players in figures, such as 3 to 6
    "minutes",  # a range of minutes in figures, such as 45 to 60
    "time",  # a duration already in words: "5 minutes"
    "what", "before", "after",  # a corrected thing, and its values in figures or "on"/"off"
    "password",  # the hotspot's password, as typed
    "text",  # a line of longhall.txt, as written
    "error",  # the system's own words for a storage failure ("No space left on device")
    "was",  # the colour a seat chose, which the chosen game has not
}  # fmt: skip
# Placeholders that hold a number in some strings and words in others: where they are not words.
MIXED: dict[str, dict[str, str]] = {
    "a": {"table.swaps": "count", "fight.siege_stake": "label", "fight.siege_field_stake": "label"},
    "b": {"table.swaps": "count", "fight.siege_stake": "label", "fight.siege_field_stake": "label"},
    "cards": {
        key: "count"
        for key in (
            "log.swap",
            "errors.bad_attack",
            "vgw.attack_sum",
            "vgw.defend.question",
            "vgw.table.attack",
            "vgw.log.attack",
            "vgw.log.kept",
        )
    },  # elsewhere the cards themselves: "Discard: 3 5 6"
    "stones": {"end.castle": "count"},  # elsewhere the stones in words: "2 grass, 1 wood"
    "kept": {"vgw.sum_draw": "count"},  # elsewhere the stone kept: "keeps the clay"
}
# Single strings where a count's name holds a label: "Drakkar {n}" names a drakkar, an attack is
# "1 to {max}" in value, a defence "{total}" is a value.
KINDS_BY_KEY = {
    ("vob.drakkar", "n"): "label",
    ("errors.bad_attack", "max"): "label",
    ("vgw.defend.falls", "total"): "label",
    ("vgw.defend.holds", "total"): "label",
}


def kind(key: str, name: str) -> str:
    """What a placeholder holds in one string: "count", "label" or "words"."""
    if (key, name) in KINDS_BY_KEY:
        return KINDS_BY_KEY[(key, name)]
    if name in MIXED:
        return MIXED[name].get(key, "words")
    if name in COUNTS:
        return "count"
    if name in LABELS:
        return "label"
    assert name in WORDS, f"{key}: say what {{{name}}} holds (COUNTS, LABELS, WORDS or MIXED)"
    return "words"


# Counts that some language writes with a word after them and that still have no plural forms,
# each with its reason. An entry whose string is fixed fails the test: remove it then.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("vob.piece", "shields"): "English makes it an adjective that never takes a plural: a "
    "2-shield hull piece",
    ("vgw.table.answered", "of"): "the players of a game: always 2 or more, so the plural holds",
    ("vgw.log.mission_taken", "n"): "the words after the number do not change with it: held, "
    "in handen, en main, auf der Hand",
    ("vgw.log.favour", "left"): "the words after the number do not change with it: left, over, "
    "übrig (French puts it last)",
}

# -- the rule ------------------------------------------------------------------------------------

# Words that join two numbers ("3 of 6", "1 to 4", "2 and 3"): the words after the last number agree
# with it, not with the first.
JOINS = {
    "en": {"of", "to", "and"},
    "nl": {"van", "tot", "en"},
    "fr": {"sur", "à", "et"},
    "de": {"von", "bis", "und"},
}
# Abbreviations that stay the same for one and for many: victory points.
UNCHANGED = {"en": {"VP"}, "nl": {"OP"}, "fr": {"PV"}, "de": {"SP"}}
SPACE = "[ \u00a0\u202f]*"
WORD = re.compile(r"[^\W\d_]+")


def a_word_follows(text: str, at: int, lang: str, key: str) -> bool:
    """True when a word comes right after text[:at] (a space apart at most)."""
    rest = text[at:].lstrip(" \u00a0\u202f")
    if word := WORD.match(rest):
        after = rest[word.end() :].lstrip(" \u00a0\u202f")
        joined = word.group().lower() in JOINS[lang] and after[:1] in set("{0123456789")
        return not joined and word.group() not in UNCHANGED[lang]
    placeholder = re.match(r"\{(\w+)\}", rest)
    return placeholder is not None and kind(key, placeholder.group(1)) == "words"


def bare_count_with_word(text: str, lang: str, key: str, name: str) -> bool:
    """True when a bare {name} (outside a plural choice) has a word right after it."""
    return any(
        a_word_follows(text, m.end(), lang, key)
        for m in re.finditer(re.escape(f"{{{name}}}"), text)
    )


def has_plural(text: str, name: str) -> bool:
    return name in {number for number, _ in plural_forms(text)}


TEXTS = {lang: catalog(lang) for lang in LANGUAGES}


def counts_to_check() -> list[tuple[str, str]]:
    """Every (key, count) whose words change with the number in some language."""
    out = []
    for key, english in TEXTS["en"].items():
        for name in sorted(placeholders(english)):
            if kind(key, name) != "count":
                continue
            texts = [TEXTS[lang][key] for lang in LANGUAGES]
            if any(has_plural(text, name) for text in texts) or any(
                bare_count_with_word(text, lang, key, name)
                for lang, text in zip(LANGUAGES, texts, strict=True)
            ):
                out.append((key, name))
    return out


def follows_the_rule(key: str, name: str) -> bool:
    return all(
        has_plural(TEXTS[lang][key], name)
        and not bare_count_with_word(TEXTS[lang][key], lang, key, name)
        for lang in LANGUAGES
    )


# -- the tests -----------------------------------------------------------------------------------


def test_every_placeholder_is_known_as_a_count_a_label_or_words() -> None:
    for key, text in TEXTS["en"].items():
        for name in placeholders(text):
            kind(key, name)  # asserts
    for name, keys in MIXED.items():
        for key in keys:
            assert name in placeholders(TEXTS["en"][key]), f"MIXED: {key} has no {{{name}}}"
    assert not (COUNTS & WORDS or COUNTS & set(LABELS) or WORDS & set(LABELS))


def test_the_rule_checks_the_strings_issue_12_found_wrong() -> None:
    checked = set(counts_to_check())
    # the rule cannot pass vacuously: it holds these strings to it, and many more
    assert {
        ("fight.swap_cost", "n"),
        ("fight.swap", "n"),
        ("log.swap", "cards"),
        ("end.castle", "stones"),
        ("host.game_too_many", "seated"),
    } <= checked
    assert len(checked) >= 30
    # and it tells a count from a figure and a label
    assert ("hand.amulets_text", "n") not in checked  # "Amulets: 3"
    assert ("planning.left", "free") not in checked  # "Vikings to place: 3 of 8"
    assert ("game.round", "round") not in checked  # "Round 3 of 7"
    assert a_word_follows("{n} cards", 3, "en", "x")
    assert not a_word_follows("{n} of {max}", 3, "en", "x")
    assert not a_word_follows("{n}.", 3, "en", "x")
    assert bare_count_with_word("Costs {n} amulets", "en", "x", "n")
    assert not bare_count_with_word(
        "Costs {n, plural, one {# amulet} other {# amulets}}", "en", "x", "n"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_count_that_changes_words_has_plural_forms(lang: str) -> None:
    wrong = []
    for key, name in counts_to_check():
        if (key, name) in EXCEPTIONS:
            continue
        text = TEXTS[lang][key]
        if not has_plural(text, name) or bare_count_with_word(text, lang, key, name):
            wrong.append(f"{lang}:{key} {{{name}}}: {text}")
    assert wrong == [], "\n".join(wrong)


def test_every_exception_is_still_needed() -> None:
    checked = set(counts_to_check())
    for (key, name), reason in EXCEPTIONS.items():
        assert reason, f"{key}: say why"
        assert (key, name) in checked and not follows_the_rule(key, name), (
            f"{key} {{{name}}} follows the rule now: remove it from EXCEPTIONS"
        )
