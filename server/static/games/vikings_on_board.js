// Vikings on Board's words, shared by its two page modules (phone_ui/games/vikings_on_board.js and
// table_display/games/vikings_on_board.js): the buildings, the goods, the hull pieces, the log
// lines (each one also says what to move on the physical board). Loaded only when a table plays
// Vikings on Board. Nothing here ever shows a barrel's value: only the phone's shield does.

import { addIcons, h, sharedLogLine, t } from "/static/common.js";

addIcons({
  // a barrel: staves and hoops
  barrel: "M7 3h10c1.5 2.5 2 5.5 2 9s-.5 6.5-2 9H7c-1.5-2.5-2-5.5-2-9s.5-6.5 2-9zM6 8h12v1.5H6zM6 14.5h12V16H6z",
  // a chest with its lid and lock
  chest: "M3 9c0-3 2-5 5-5h8c3 0 5 2 5 5v1H3zM3 11h18v9H3zM10.5 10h3v4h-3z",
  // a drakkar's prow: a dragon's neck over the water
  prow: "M4 20c2-6 3-11 7-15 2-2 5-2 6 0-2 0-3 1-3 3 0 4 4 6 4 12z",
});

export const GOODS = ["furs", "grain", "metal"];
export const DRAKKARS = 8;
export const HULL_MAX = 5;
export const STERNS = 7;

/** A colour's name (the table's colour words) and its symbol (colour is never the only cue). */
export function colourName(colour) {
  return t(`colour.${colour}`);
}

/** A colour as it qualifies a betting zone ("the blue betting zone"): the form that agrees with
 * the zone's word in each language (la zone bleue, het blauwe wedvak, das blaue Wettfeld). */
export function zoneColour(colour) {
  return t(`vob.zone_colour.${colour}`);
}

/** A colour's mark: a small square in its colour with its symbol. */
export function colourMark(colour, symbols, extra = "") {
  return h("span", { class: `vob-mark colour-${colour} ${extra}`, title: colourName(colour) }, symbols[colour] || "");
}

/** The name a drakkar carries on the pages and on the printed board: 1 to 8 along the quay. */
export function drakkarNo(d) {
  return d + 1;
}

/** Where a hull piece is now, from the public view: {drakkar, index, piece} or null. */
export function findPiece(pub, piece) {
  for (const d of pub.drakkars) {
    const index = d.hull.findIndex((p) => p.piece === piece);
    if (index >= 0) return { drakkar: d.drakkar, index, piece: d.hull[index] };
  }
  return null;
}

/** A hull piece in words: "red's 2-shield hull piece" (with its bonus viking, if any). */
export function pieceWords(piece) {
  if (!piece) return "?";
  const words = t("vob.piece", { colour: colourName(piece.colour), shields: piece.shields });
  return piece.viking ? `${words} (${t("vob.bonus_mark")})` : words;
}

/** A chest kind in words ("grain chest"). */
export function chestWords(kind) {
  return t("vob.chest", { kind: t(`vob.goods.${kind}`) });
}

/** A chest as a chip: its goods' colour and icon, and its name for screen readers. */
export function chestChip(kind, extra = "") {
  const svg = h("span", { class: `vob-chest goods-${kind} ${extra}`, role: "img", "aria-label": chestWords(kind), title: chestWords(kind) });
  svg.textContent = t(`vob.goods.${kind}`).slice(0, 1).toUpperCase();
  return svg;
}

/** A colour in words: a played colour names its player (``who``), an unplayed one its colour. */
export function colourLabel(pub, colour, who) {
  const seat = pub.colours.indexOf(colour);
  return seat >= 0 ? who(seat) : colourName(colour);
}

/**
 * How far a sailing is shown (V4.2, V4.3): the drakkar, the ranking, the colours counted so far
 * (each with its pieces' shields), whether the ranking and the bet are shown, and what the next
 * NEXT shows ("count", "rank", "bets", "chests"; null once the chests go round). While the table
 * reckons, the view says how far; a sailing already over is shown whole, counted from its hull,
 * which stays in the view after it left.
 */
export function sailingShown(pub, sail) {
  const s = pub.sailing;
  if (s && s.drakkar === sail.drakkar) {
    const m = s.influence.length;
    const next = pub.phase !== "reckon" ? null
      : s.shown >= s.steps ? "chests" : s.shown < m ? "count" : s.shown === m ? "rank" : "bets";
    return { drakkar: s.drakkar, ranking: s.influence, counted: s.counted, ranked: s.ranked, paid: s.paid, shown: s.shown, next };
  }
  const counted = [];
  for (const piece of pub.drakkars[sail.drakkar].hull) {
    let entry = counted.find((c) => c.colour === piece.colour);
    if (!entry) counted.push(entry = { colour: piece.colour, pieces: [], shields: 0 });
    entry.pieces.push(piece.shields);
    entry.shields += piece.shields;
  }
  return { drakkar: sail.drakkar, ranking: sail.influence, counted, ranked: true, paid: true, shown: null, next: null };
}

/** A counted colour in words: "Anna: 2 + 1 = 3 shields". */
export function countWords(pub, count, who) {
  return t("vob.table.count", { colour: colourLabel(pub, count.colour, who), pieces: count.pieces.join(" + "), n: count.shields });
}

/**
 * One event of the log, in words. The events that change the board say what to move on the
 * physical board; a moved hull piece's event names the drakkar it came from, so the line reads the
 * same after a reload. ``who(seat)`` names a player.
 */
export function logLine(event, pub, who) {
  const piece = (p) => {
    const now = findPiece(pub, p);
    return now ? pieceWords(now.piece) : "?";
  };
  const building = (b) => t(`vob.building.${b}`);
  switch (event.e) {
    case "setup":
      return t("vob.log.setup", { colours: event.order.map(colourName).join(", ") });
    case "go":
      return t(event.acting ? "vob.log.go" : "vob.log.go_idle", { name: who(event.seat), building: building(event.building) });
    case "back":
      return t("vob.log.back", { name: who(event.seat), building: building(event.building), place: building(event.to) });
    case "promote":
      return t("vob.log.promote", { piece: piece(event.piece), drakkar: drakkarNo(event.drakkar) });
    case "move": {
      const from = event.from;
      return from !== null && from !== undefined
        ? t("vob.log.move", { piece: piece(event.piece), from: drakkarNo(from), to: drakkarNo(event.to) })
        : t("vob.log.move_to", { piece: piece(event.piece), to: drakkarNo(event.to) });
    }
    case "exchange": {
      const [a, b] = event.pieces.map((p) => findPiece(pub, p));
      const named = (p, where) => (where ? `${pieceWords(where.piece)} (${t("vob.drakkar", { n: drakkarNo(where.drakkar) })})` : piece(p));
      // after the swap each stands where the other stood: name them by where they were
      return t("vob.log.exchange", { a: named(event.pieces[0], b && a ? { ...a, drakkar: b.drakkar } : a), b: named(event.pieces[1], a && b ? { ...b, drakkar: a.drakkar } : b) });
    }
    case "bet":
      if (event.came === "hand") {
        return t("vob.log.bet", { name: who(event.seat), colour: zoneColour(event.colour), drakkar: drakkarNo(event.drakkar) });
      }
      return t("vob.log.bet_moved", {
        name: who(event.seat), from: drakkarNo(event.came.drakkar), from_colour: colourName(event.came.colour),
        colour: zoneColour(event.colour), drakkar: drakkarNo(event.drakkar),
      });
    case "draw":
      return event.warehouse === 1
        ? t("vob.log.draw_1", { name: who(event.seat), kind: t(`vob.goods.${event.chest}`) })
        : t("vob.log.draw_2", { name: who(event.seat), n: event.chests });
    case "chest":
      return t(event.returned ? "vob.log.chest_returned" : "vob.log.chest", { kind: t(`vob.goods.${event.kind}`), drakkar: drakkarNo(event.drakkar), n: event.returned });
    case "raise":
      return t("vob.log.raise", { goods: t(`vob.goods.${event.goods}`), value: event.value });
    case "stern":
      return t("vob.log.stern", { name: who(event.seat) });
    case "no_bonus_viking":
      return t("vob.log.no_bonus_viking", { name: who(event.seat) });
    case "bonus_viking":
      return t("vob.log.bonus_viking", { piece: piece(event.piece) });
    case "sail":
      return t("vob.log.sail", { drakkar: drakkarNo(event.drakkar) });
    case "bet_won":
      return t("vob.log.bet_won", { name: who(event.seat), colour: zoneColour(event.colour), drakkar: drakkarNo(event.drakkar) });
    case "take_chest":
      return t("vob.log.take_chest", { name: who(event.seat) });
    case "take_chests":
      return event.count === 1
        ? t("vob.log.take_chest", { name: who(event.seat) })
        : t("vob.log.take_chests", { name: who(event.seat), count: event.count });
    case "discard_chest":
      return t("vob.log.discard_chest", { kind: t(`vob.goods.${event.kind}`), colour: colourName(event.colour), name: who(event.seat) });
    case "chests_lost":
      return t("vob.log.chests_lost", { drakkar: drakkarNo(event.drakkar) });
    case "sailed":
      return t("vob.log.sailed", { drakkar: drakkarNo(event.drakkar) });
    case "new_turn":
      return t("vob.log.new_turn", { turn: event.turn });
    case "end":
      return t("vob.log.end", { names: event.winners.map(who).join(", "), n: event.winners.length });
    default:
      return sharedLogLine(event, who);
  }
}

/** Vikings on Board's words inside an error's parameters, translated (a building, goods). */
/** Why the game ended, in words: the 7th drakkar sailed (V5.1). */
export function endReason(result) {
  return result && result.reason === "seventh_drakkar" ? t("vob.score.end_reason") : null;
}

export function errorWords(params) {
  if (typeof params.building === "string") params.building = t(`vob.building.${params.building}`);
  if (GOODS.includes(params.goods)) params.goods = t(`vob.goods.${params.goods}`);
  if (GOODS.includes(params.kind)) params.kind = t(`vob.goods.${params.kind}`);
  if (typeof params.colour === "string") params.colour = colourName(params.colour);
  if (typeof params.drakkar === "number") params.drakkar = drakkarNo(params.drakkar);
  if (typeof params.phase === "string") params.phase = t(`vob.phase.${params.phase}`);
  return params;
}

/** Why a building's action cannot be carried out now (V2.2), from what ``seat`` may see, or
 * null when it can. The engine decides; this only explains its choice in words. */
export function whyNot(pub, seat, myBarrels, building) {
  if (pub.spots[pub.chief][pub.buildings.indexOf(building)] !== null) return t("vob.reason.taken");
  const colour = pub.colours[seat];
  const port = pub.drakkars.filter((d) => d.in_port);
  const room = port.filter((d) => d.hull.length < HULL_MAX);
  const movable = (mine) => port.some((d) => d.hull.some((p) => !mine || p.colour === colour)
    && room.some((r) => r.drakkar !== d.drakkar));
  const freeZone = port.some((d) => Object.values(d.quay).some((held) => held === null));
  const inHand = myBarrels.some((b) => b.where === "hand");
  const onQuay = myBarrels.some((b) => b.where && typeof b.where === "object");
  const ok = {
    first_player: true,
    promotion: port.some((d) => d.hull.some((p, i) => i > 0 && p.colour === colour)),
    change_drakkar: movable(true),
    move: movable(false),
    tavern_1: inHand && freeZone,
    tavern_2: (inHand || onQuay) && freeZone,
    warehouse_1: pub.piles[0] > 0,
    warehouse_2: pub.piles[1] > 0,
    market: GOODS.some((g) => pub.market[g] < 4),
    departure: pub.sterns > 0 && pub.stern_holder === null,
    exchange: port.filter((d) => d.hull.length).length >= 2,
  }[building];
  if (ok) return null;
  // with none of the player's pieces left in port, that is the reason, whatever else holds
  const own = port.some((d) => d.hull.some((p) => p.colour === colour));
  if (!own && (building === "promotion" || building === "change_drakkar")) return t("vob.reason.none_in_port");
  return t(`vob.reason.${building}`);
}
