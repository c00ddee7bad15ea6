// The night, as the table display and the phones show it: the games played so far with their
// winners and playing times, and the night's standings (table.night, computed on the server).
// The chart of the standings is drawn by the server (/night/<id>/chart.svg), the same one the
// night's page a phone keeps carries.

import { h, icon, seatBadge, t } from "/static/common.js";

/** Points as people write them: 3, 3½, ½. */
export function pointsText(points) {
  const whole = Math.floor(points);
  const half = points - whole >= 0.5 ? "½" : "";
  return whole || !half ? `${whole}${half}` : half;
}

/** A player of the night (a seat of one of its games, or a row of its standings), as a badge. */
export function playerBadge(player, extra = "") {
  const name = player.name === null ? t("night.former") : player.name;
  return h("span", { class: "night-player" }, seatBadge({ ...player, name }, extra),
    player.bot ? h("span", { class: "tag" }, t("night.bot")) : null);
}

/** How long a game took, in words. */
export function playedFor(game) {
  const minutes = Math.max(1, Math.round((game.finished - game.started) / 60));
  return t("night.minutes", { n: minutes });
}

function winners(game) {
  if (game.status !== "finished") return h("span", { class: "tag away" }, t("night.ended_early"));
  return h("span", { class: "night-winners" }, icon("star"), " ",
    game.winners.map((w, i) => [i ? ", " : "", playerBadge(game.players[w])]));
}

/** The night's games: each with its winner and the time it took (``last``: only the last few,
 * numbered as they were played, with how many came before). */
export function gamesList(night, last = Infinity) {
  const first = Math.max(0, night.games.length - last);
  const earlier = first ? h("p", { class: "muted night-earlier" }, t("night.earlier", { n: first })) : null;
  return [earlier, h("ol", { class: "night-games", start: first + 1 }, night.games.slice(first).map((game) =>
    h("li", { "data-game": game.game, "data-status": game.status },
      h("strong", {}, t(`games.${game.game}`)), " · ", winners(game), " · ",
      h("span", { class: "muted" }, playedFor(game)))))];
}

/** The standings, best first; ``mine``: the row of the reader's own seat is marked. */
export function standingsTable(night, mine = null) {
  return h("table", { class: "night-standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("night.player")),
      h("th", { class: "num" }, t("night.points")), h("th", { class: "num" }, t("night.games_col")),
      h("th", { class: "num" }, t("night.wins")))),
    h("tbody", {}, night.standings.map((row) =>
      h("tr", { class: row.seat !== null && row.seat === mine ? "me" : "", "data-player": row.player },
        h("td", {}, String(row.place)), h("td", {}, playerBadge(row)),
        h("td", { class: "num points" }, pointsText(row.points)),
        h("td", { class: "num" }, String(row.games)), h("td", { class: "num" }, String(row.wins))))));
}

/** The rule of the standings, in one sentence. */
export function nightRule() {
  return h("p", { class: "night-rule muted" }, t("night.rule"));
}

/** What one player did in each game of the night: their place and the points it earned them. */
export function myNight(night, seat) {
  const row = night.standings.find((r) => r.seat === seat);
  if (!row) return null;
  return h("ol", { class: "night-mine" }, night.games.map((game) => {
    const i = game.players.findIndex((p) => p.player === row.player);
    if (i < 0) return null;
    const earned = game.points ? game.points[i] : null;
    // the place: one more than the players who earned more in this game (ties share a place)
    const rank = earned === null ? null : 1 + game.points.filter((p) => p > earned).length;
    return h("li", { "data-game": game.game },
      h("strong", {}, t(`games.${game.game}`)), " · ",
      rank === null ? null : [h("span", { class: "rank" }, t("night.rank", { rank })), " · "],
      game.status !== "finished" ? t("night.ended_early")
        : game.winners.includes(i) ? [icon("star"), " ", t("night.you_won")] : t("night.you_played"),
      earned === null ? null : h("span", { class: "points" }, " · ", t("night.earned", { points: pointsText(earned) })));
  }));
}

/** The night's facts: its winners, the longest game, the closest finish, a player's best game. */
export function nightFacts(night) {
  const facts = night.facts;
  const game = (id) => night.games.find((g) => g.id === id);
  const who = (player) => night.standings.find((r) => r.player === player);
  const out = [];
  if (facts.longest) {
    const g = game(facts.longest.game);
    out.push(h("li", { class: "fact-longest" }, t("night.longest", { game: t(`games.${g.game}`), time: playedFor(g) })));
  }
  if (facts.closest) {
    const g = game(facts.closest.game);
    out.push(h("li", { class: "fact-closest" }, t("night.closest", { game: t(`games.${g.game}`), points: facts.closest.gap })));
  }
  if (facts.best) {
    const g = game(facts.best.game);
    const row = who(facts.best.player);
    const name = row && row.name !== null ? row.name : t("night.former");
    out.push(h("li", { class: "fact-best" }, t("night.best", { name, game: t(`games.${g.game}`), points: facts.best.lead })));
  }
  return out.length ? h("ul", { class: "night-facts" }, out) : null;
}

/** The night's winners, in words. */
export function nightWinners(night) {
  const names = night.facts.winners.map((p) => {
    const row = night.standings.find((r) => r.player === p);
    return row && row.name !== null ? row.name : t("night.former");
  });
  return names.length ? h("p", { class: "night-winner" }, icon("star"), " ", t("night.winner", { names: names.join(", ") })) : null;
}

/** A remembered player's record at this table: nights, and games won of played per game. */
export function recordLine(record) {
  if (!record) return null;
  const games = Object.entries(record.games).map(([game, n]) =>
    t("players.game_record", { game: t(`games.${game}`), won: n.won, played: n.played }));
  return h("span", { class: "record" }, [t("players.nights", { n: record.nights }), ...games].join(" · "));
}

/** The standings in one line ("1. Bob 3½ · 2. Cara 1½"), for a screen with no room for more. */
export function standingsLine(night) {
  return h("span", { class: "night-line" }, h("strong", {}, t("night.title")), " ",
    night.standings.map((row, i) => [i ? " · " : "", `${row.place}. `, playerBadge(row), " ", h("strong", {}, pointsText(row.points))]));
}
