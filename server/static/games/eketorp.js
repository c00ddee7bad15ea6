// Eketorp's words, shared by its two page modules (phone_ui/games/eketorp.js and
// table_display/games/eketorp.js): the stones, the fields, the siege sides, the log lines. Loaded
// only when a table plays Eketorp.

import { addIcons, h, sharedLogLine, styleSheet, t } from "/static/common.js";

// the stones, the combat cards and a castle's sites look the same on both pages
await styleSheet(new URL("./eketorp.css", import.meta.url).href);

// Eketorp's own icons: drawn here, so they look the same on every phone (no emoji font needed)
addIcons({
  // Thor's hammer, as on the amulets
  amulet: "M4 3h16v6h-6v12h-4V9H4z",
  hospital: "M9 3h6v6h6v6h-6v6H9v-6H3V9h6z",
  // the three siege fields, as drawn on the board: a catapult, a longship, a battering ram
  catapult: "M2 17h15v2H2zM4 20.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM11 20.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM6 16l11-11 1.4 1.4-11 11zM16 4.5a3 3 0 1 0 6 0a3 3 0 1 0-6 0zM17 17V9h2v8z",
  boat: "M1 13h22l-3.5 6h-15zM11 2h2v11h-2zM5 4h14l-1.5 7h-11z",
  ram: "M1 8h15l6 3-6 3H1zM4 14h2v3H4zM11 14h2v3h-2zM2 19.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM10 19.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM3 16h12v2H3z",
});

export const STONES = ["grass", "wood", "clay", "stone"];
export const STONE_VALUE = { grass: 1, wood: 2, clay: 3, stone: 4 };
export const FIELDS = ["A", "B", "C", "D", "E", "F", "G"];
export const SIDES = ["catapult", "boat", "ram"];
export const SIDE_SITES = { catapult: [1, 2], boat: [3, 4], ram: [5, 6] };
export const STATIONS = ["3-4-5", "1-2", "0"];

/**
 * A stone as a small chip: its colour, a shape of its own (grass a circle, wood a square, clay a
 * hexagon, stone a pentagon) and its value in points. Never a letter: initials would read as the
 * fields A-G (in French the wood, "bois", would be a B on field C).
 */
export function stoneChip(stone, extra = "") {
  const value = STONE_VALUE[stone];
  return h(
    "span",
    {
      class: `stone stone-${stone} ${extra}`,
      title: t(`stone.${stone}`),
      role: "img",
      "aria-label": `${t(`stone.${stone}`)} (${value})`,
    },
    String(value),
  );
}

export function stoneCounts(counts) {
  const chips = [];
  for (const stone of STONES) {
    for (let i = 0; i < (counts[stone] || 0); i++) chips.push(stoneChip(stone));
  }
  return chips;
}


/** Describe a board place (a field, a siege field, a castle) in words. */
export function placeName(place, seats) {
  if (FIELDS.includes(place)) return t("place.field", { field: place });
  if (place === "castle") return t("place.own_castle");
  const parts = place.split(":");
  const owner = seats[Number(parts[1])];
  const name = owner ? owner.name : "?";
  if (parts[0] === "castle") return t("place.castle_of", { name });
  return t("place.siege", { side: t(`side.${parts[2]}`), name });
}

/** Why the game ended, in words (R6.4): the castles that reached the target, or the last card. */
export function endReason(result, seats) {
  if (!result) return null;
  if (result.reason === "complete") {
    const who = (seat) => (seats[seat] ? `${seats[seat].symbol} ${seats[seat].name}` : "?");
    const castles = result.castles.map((c) => t("end.castle", { name: who(c.seat), stones: c.stones })).join(", ");
    return t("end.complete", { castles });
  }
  return t("end.rounds", { round: result.round });
}

/** One event of the game's log, in words. */
export function logLine(event, seats) {
  const who = (seat) => (seats[seat] ? `${seats[seat].symbol} ${seats[seat].name}` : "?");
  const stones = (list) => list.map((s) => t(`stone.${s}`)).join(", ");
  const placed = (byField) =>
    Object.entries(byField || {})
      .map(([field, kinds]) =>
        `${field}: ` +
        Object.entries(kinds)
          .map(([stone, n]) => t(`stone_count.${stone}`, { n }))
          .join(", "),
      )
      .join("; ");
  switch (event.e) {
    case "round":
      return t("log.round", { round: event.round, start: who(event.start) });
    case "card":
      return t("log.card", { stones: placed(event.placed) || "—" });
    case "redeal":
      return t("log.redeal", { seat: who(event.seat), cards: event.cards.join(" ") });
    case "reveal":
      return t("log.reveal");
    case "fight":
      if (event.kind === "siege") {
        return t(event.defended ? "log.siege" : "log.siege_undefended", {
          a: who(event.a),
          b: who(event.b),
          side: t(`side.${event.field.split(":")[2]}`),
        });
      }
      return t("log.fight", { a: who(event.a), b: who(event.b), place: placeName(event.field, seats) });
    case "swap":
      return t("log.swap", { seat: who(event.seat), cards: event.cards });
    case "result": {
      const [va, vb] = event.values;
      const head = t("log.cards", { a: who(event.a), b: who(event.b), ca: va, cb: vb });
      const tail =
        event.winner === null
          ? t("log.tie")
          : t("log.won", { winner: who(event.winner), damage: event.damage });
      const hospital = event.hospital
        .map((h1) => t("log.hospital", { seat: who(h1.seat), station: t(`station.${h1.station}`) }))
        .join(" ");
      return `${head} ${tail} ${hospital}`.trim();
    }
    case "loot":
      if (!event.kept) return t("log.no_loot", { seat: who(event.seat) });
      return t("log.loot", {
        seat: who(event.seat),
        owner: who(event.owner),
        removed: stones(event.removed),
        kept: t(`stone.${event.kept}`),
      });
    case "take":
      return t("log.take", { seat: who(event.seat), stone: t(`stone.${event.stone}`), field: event.field });
    case "built":
      return event.stones.length
        ? t("log.built", { seat: who(event.seat), stones: stones(event.stones.map((s) => s[0])) })
        : null;
    case "round_end":
      return t("log.round_end", { start: who(event.start) });
    case "reshuffle":
      return t("log.reshuffle");
    case "end":
      return t("log.end", { winners: event.winners.map(who).join(", ") });
    default:
      return sharedLogLine(event, who);
  }
}

/** Eketorp's words inside an error's parameters, translated (a stone, a phase). */
export function errorWords(params) {
  if (STONES.includes(params.stone)) params.stone = t(`stone.${params.stone}`);
  if (typeof params.phase === "string") params.phase = t(`phase.${params.phase}`);
  return params;
}
