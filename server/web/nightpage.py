"""The night's page and its chart: what a phone keeps of a night after it leaves the table.

``/night/<id>`` is one self-contained HTML page (its style and its chart inside it, no script,
nothing else to load), so that a phone can save it or print it and read it anywhere, in the
language of the phone's browser (or ``?lang=``). ``/night/<id>/chart.svg`` is the chart of the
standings after each game, which the table display shows in its summary. Both read the night
from the store: what they show is on the disk. A night is public by nature (who played, who won);
it holds no seat's token.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, abort, request

from ..qr import qr_svg
from ..table import Table
from ..table import night as nights
from ..table.envelope import LANGUAGES
from .catalogs import merged_catalog

# The colours as the pages draw them (server/static/common.css), for a page that carries its own.
INK = {
    "red": "#d64541",
    "blue": "#3d7bd9",
    "yellow": "#e9c23b",
    "green": "#3fa45b",
    "white": "#f2f2f2",
    "black": "#1a1a1a",
}
WIDTH, HEIGHT = 640, 320
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 40, 190, 16, 32


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def points_text(value: float) -> str:
    whole = int(value)
    half = "½" if value - whole >= 0.5 else ""
    return f"{whole}{half}" if whole or not half else half


def chart_svg(night: Mapping[str, Any], table: list[dict[str, Any]], words: Words) -> str:
    """The standings after each game as lines, one per player in their colour, with their symbol
    at each game (colour is never the only cue) and their name and points on the right."""
    games = len(night["games"])
    top = max([1.0, *(float(r["points"]) for r in table)])
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + inner_w * i / max(games, 1)

    def y(p: float) -> float:
        return PAD_TOP + inner_h * (1 - p / top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' class="night-chart" role="img" font-family="sans-serif" font-size="13">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
    ]
    step = max(1, int(top) // 5 or 1)
    for p in range(0, int(top) + 1, step):
        out.append(
            f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(p):.1f}" y2="{y(p):.1f}"'
            f' stroke="#ddd"/><text x="{PAD_LEFT - 6}" y="{y(p) + 4:.1f}" text-anchor="end"'
            f' fill="#555">{p}</text>'
        )
    for i in range(games + 1):
        out.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle" fill="#555">{i}</text>'
        )
    for row in reversed(table):  # the leader drawn last, on top
        ink = INK.get(row["colour"], "#888")
        # from no points before their first game (a player may join later in the night)
        first = next((i for i, p in enumerate(row["after"]) if p is not None), 0)
        dots = [(first, 0.0)] + [(i + 1, p) for i, p in enumerate(row["after"]) if p is not None]
        line = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in dots)
        pale = row["colour"] in ("white", "yellow")  # outlined, to be seen on white paper
        outline = "#1a1a1a" if pale else "none"
        if pale:
            out.append(
                f'<polyline points="{line}" fill="none" stroke="#1a1a1a" stroke-width="5"'
                f' stroke-linejoin="round"/>'
            )
        out.append(
            f'<polyline points="{line}" fill="none" stroke="{ink}" stroke-width="3"'
            f' stroke-linejoin="round"/>'
        )
        for i, p in dots[1:]:
            out.append(
                f'<text x="{x(i):.1f}" y="{y(p) + 5:.1f}" text-anchor="middle" font-size="15"'
                f' fill="{ink}" stroke="{outline}" stroke-width="0.6">{_e(row["symbol"])}</text>'
            )
    # the labels on the right, best first, 15 apart: moved down where another sits, and up
    # from the foot where they would run off it
    spots: list[float] = []
    for row in table:
        spots.append(max(y(row["points"]) + 4, spots[-1] + 15 if spots else 0.0))
    floor = HEIGHT - 6.0
    for n in range(len(spots) - 1, -1, -1):
        spots[n] = min(spots[n], floor)
        floor = spots[n] - 15
    for row, at in zip(table, spots, strict=True):
        ink = INK.get(row["colour"], "#888")
        outline = "#1a1a1a" if row["colour"] in ("white", "yellow") else "none"
        name = words("night.former") if row["name"] is None else row["name"]
        bot = f" ({words('night.bot')})" if row["bot"] else ""
        out.append(
            f'<text x="{WIDTH - PAD_RIGHT + 8}" y="{at:.1f}" fill="#1a1a1a">'
            f'<tspan fill="{ink}" stroke="{outline}" stroke-width="0.6">{_e(row["symbol"])}</tspan>'
            f" {_e(name)}{bot} {points_text(row['points'])}</text>"
        )
    out.append("</svg>")
    return "".join(out)


class Words:
    """One language's catalog, for a page drawn on the server (the pages' own rules for
    placeholders and plural forms, as ``server/static/common.js`` reads them)."""

    def __init__(self, lang: str, catalog: dict[str, Any]) -> None:
        self.lang, self.catalog = lang, catalog

    def __call__(self, key: str, **params: Any) -> str:
        node: Any = self.catalog
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, str):
            return f"⟦{key}⟧"
        return self.fill(node, params)

    def plural(self, value: float) -> str:
        if self.lang == "fr":
            return "one" if 0 <= value < 2 else "other"
        return "one" if value == 1 else "other"

    def fill(self, text: str, params: Mapping[str, Any]) -> str:
        out, at = "", 0
        while at < len(text):
            start = text.find("{", at)
            end = _closing(text, start) if start >= 0 else -1
            if end < 0:
                return out + text[at:]
            out += text[at:start] + self.one(text[start + 1 : end], params)
            at = end + 1
        return out

    def one(self, inner: str, params: Mapping[str, Any]) -> str:
        head = re.match(r"\s*(\w+)\s*,\s*plural\s*,", inner)
        if head is None:
            return str(params.get(inner, "{" + inner + "}"))
        value = params[head.group(1)]
        forms: dict[str, str] = {}
        rest = inner[head.end() :]
        while (form := re.match(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{", rest)) is not None:
            end = _closing(rest, form.end() - 1)
            forms[form.group(1)] = rest[form.end() : end]
            rest = rest[end + 1 :]
        chosen = forms.get(f"={value}", forms.get(self.plural(value), forms.get("other", "")))
        return self.fill(chosen.replace("#", str(value)), params)


def _closing(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:44rem;padding:1rem;color:#1a1a1a;
background:#fff;line-height:1.4}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.2rem 0 .4rem}
table{border-collapse:collapse;width:100%}th,td{padding:.3rem .4rem;text-align:left;
border-bottom:1px solid #ddd}td.num,th.num{text-align:right}
.sym{display:inline-block;min-width:1.4em;text-align:center;border-radius:.3em;margin-right:.3em}
.muted{color:#555}.tag{font-size:.8em;border:1px solid #aaa;border-radius:.6em;padding:0 .4em;
margin-left:.3em}svg{width:100%;height:auto;border:1px solid #ddd}
@media print{body{max-width:none}}
"""


def _symbol(row: Mapping[str, Any]) -> str:
    return f'<span class="sym sym-{_e(row["colour"])}">{_e(row["symbol"])}</span>'


SYMBOLS = "".join(
    f".sym-{c}{{background:{ink};color:{'#1a1a1a' if c in ('white', 'yellow') else '#fff'}}}"
    for c, ink in INK.items()
)


def night_page(night: Mapping[str, Any], words: Words) -> str:
    """The night's page: its winner, its standings and chart, its games and a few facts."""
    shown = nights.shown(dict(night), [])
    assert shown is not None
    table, facts = shown["standings"], shown["facts"]
    t = words

    def name(row: Mapping[str, Any]) -> str:
        label = t("night.former") if row["name"] is None else row["name"]
        bot = f'<span class="tag">{_e(t("night.bot"))}</span>' if row["bot"] else ""
        return f"{_symbol(row)}{_e(label)}{bot}"

    def by_player(player: str) -> Mapping[str, Any]:
        return next(r for r in table if r["player"] == player)

    def title(game: Mapping[str, Any]) -> str:
        return t(f"games.{game['game']}")

    def minutes(game: Mapping[str, Any]) -> str:
        return t("night.minutes", n=max(1, round((game["finished"] - game["started"]) / 60)))

    when = time.strftime("%Y-%m-%d", time.localtime(night["started"]))
    parts = [
        f'<!doctype html><html lang="{words.lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(t('night.page_title', when=when))}</title>"
        f"<style>{STYLE}{SYMBOLS}</style></head><body>",
        f"<h1>Longhall · {_e(t('night.page_title', when=when))}</h1>",
    ]
    if night["ended"] is None:
        parts.append(f'<p class="muted">{_e(t("night.going_on"))}</p>')
    if facts["winners"]:
        names = ", ".join(
            (t("night.former") if by_player(p)["name"] is None else by_player(p)["name"])
            for p in facts["winners"]
        )
        parts.append(f'<p class="winner">★ {_e(t("night.winner", names=names))}</p>')
    parts.append(f"<h2>{_e(t('night.standings'))}</h2>")
    parts.append(
        f'<table class="standings"><thead><tr><th>#</th><th>{_e(t("night.player"))}</th>'
        f'<th class="num">{_e(t("night.points"))}</th>'
        f'<th class="num">{_e(t("night.games_col"))}</th>'
        f'<th class="num">{_e(t("night.wins"))}</th></tr></thead><tbody>'
    )
    for row in table:
        parts.append(
            f"<tr><td>{row['place']}</td><td>{name(row)}</td>"
            f'<td class="num">{points_text(row["points"])}</td>'
            f'<td class="num">{row["games"]}</td><td class="num">{row["wins"]}</td></tr>'
        )
    parts.append(f'</tbody></table><p class="muted">{_e(t("night.rule"))}</p>')
    if night["games"]:
        parts.append(f"<h2>{_e(t('night.chart'))}</h2>{chart_svg(night, table, words)}")
        parts.append(f'<h2>{_e(t("night.games"))}</h2><ol class="games">')
        for game in night["games"]:
            if game["status"] == "finished":
                won = ", ".join(name(game["players"][w]) for w in game["winners"])
                result = f"★ {won}"
            else:
                result = f'<span class="tag">{_e(t("night.ended_early"))}</span>'
            parts.append(
                f"<li><strong>{_e(title(game))}</strong> · {result} · {_e(minutes(game))}</li>"
            )
        parts.append("</ol>")
    said = []
    by_id = {g["id"]: g for g in night["games"]}
    if facts["longest"]:
        game = by_id[facts["longest"]["game"]]
        said.append(t("night.longest", game=title(game), time=minutes(game)))
    if facts["closest"]:
        game = by_id[facts["closest"]["game"]]
        said.append(t("night.closest", game=title(game), points=facts["closest"]["gap"]))
    if facts["best"]:
        row, game = by_player(facts["best"]["player"]), by_id[facts["best"]["game"]]
        label = t("night.former") if row["name"] is None else row["name"]
        said.append(t("night.best", name=label, game=title(game), points=facts["best"]["lead"]))
    if said:
        parts.append('<ul class="facts">' + "".join(f"<li>{_e(s)}</li>" for s in said) + "</ul>")
    parts.append("</body></html>")
    return "".join(parts)


def _language() -> str:
    asked = request.args.get("lang", "")
    if asked in LANGUAGES:
        return asked
    best = request.accept_languages.best_match(LANGUAGES)
    return best or "en"


def register_night_pages(
    app: Flask, table: Table, catalogs: Path, roots: Mapping[str, Path]
) -> None:
    def catalog(lang: str) -> Words:
        body, _ = merged_catalog(lang, catalogs, roots)
        return Words(lang, json.loads(body))

    def stored(night_id: int) -> dict[str, Any]:
        night = table.store.night(night_id)
        if night is None:
            abort(404)
        return night

    @app.get("/night/<int:night_id>")
    def night_html(night_id: int) -> Response:
        words = catalog(_language())
        page = night_page(stored(night_id), words)
        style = re.search(r"<style>(.*?)</style>", page, re.S)
        assert style is not None
        digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
        response = Response(page, mimetype="text/html")
        # the page's own style and nothing else: no script at all, nothing from elsewhere
        response.headers["Content-Security-Policy"] = (
            f"default-src 'none'; style-src 'sha256-{digest}'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'"
        )
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Language"] = words.lang
        return response

    @app.get("/night/<int:night_id>/qr.svg")
    def night_qr(night_id: int) -> Response:
        stored(night_id)
        where = urlsplit(table.join_url)  # the address phones reach this table at
        page = urlunsplit((where.scheme, where.netloc, f"/night/{night_id}", "", ""))
        response = Response(qr_svg(page), mimetype="image/svg+xml")
        response.headers["Cache-Control"] = "no-cache"
        return response

    @app.get("/night/<int:night_id>/chart.svg")
    def night_chart(night_id: int) -> Response:
        night = stored(night_id)
        shown = nights.shown(night, [])
        assert shown is not None
        words = catalog(_language())
        response = Response(chart_svg(night, shown["standings"], words), mimetype="image/svg+xml")
        response.headers["Cache-Control"] = "no-cache"
        return response
