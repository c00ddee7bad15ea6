// Vikings Gone Wild's words, shared by its two page modules (phone_ui/games/vikings_gone_wild.js
// and table_display/games/vikings_gone_wild.js): the buildings, the resources, the phases, the
// figures with their arithmetic and the log lines. Loaded only when a table plays Vikings Gone
// Wild. Nothing here ever shows a held mission or an attack value still waiting for its answer:
// the public view does not carry them.

import { addIcons, h, sharedLogLine, t } from "/static/common.js";

addIcons({
  // a town hall: a roof over a door
  hall: "M12 3l9 7h-2v10h-5v-6h-4v6H5V10H3z",
  // an axe for attacks
  axe: "M14 3c4 0 7 3 7 7-2-1-4-1-6 1l-2-2 1-1-2-2zM11 8l2 2-9 9-2-2z",
});

export const KINDS = ["gold_factory", "brewery", "gold_reserve", "beer_reserve", "drakkar", "tavern"];
export const RESOURCES = ["gold", "beer"];
export const ATTACK_POINTS = (n) => (n <= 0 ? 0 : 2 * n - 1); // W4.8: 1, 3, 5, 7...

// the cards whose printed numbers players enter (D1): the building kinds and the town hall levels
export const CARDS = [...KINDS, "town_hall_1", "town_hall_2", "town_hall_3"];

/** The end mark (W9.1, W9.2, D19): the variant the lobby chose, else 40 with 2 players, else 30. */
export const endMark = (players, chosen) => chosen || (players === 2 ? 40 : 30);

export const kindName = (kind) => t(`vgw.kind.${kind}`);
export const resourceName = (r) => t(`vgw.resource.${r}`);
// "3 beer", "2 Bières": an amount of a resource, with the plural its language gives it
export const amountOf = (n, r) => t(`vgw.amount.${r}`, { n });
export const phaseName = (phase) => t(`vgw.phase.${phase}`);
/** A bonus card's name: the print's, or the one the group gave a card the print does not name
 * (D20, ``pub.bonus_names``). */
export const bonusName = (id, pub) => (pub && pub.bonus_names && pub.bonus_names[id]) || t(`vgw.bonus.${id}`);

/** A building of a seat's village in words: "Tavern" or "town hall (level 2)". */
export function buildingName(pub, seat, b) {
  const village = pub.seats[seat];
  if (b === 0) return t("vgw.town_hall_level", { level: village.town_hall.level });
  const x = village.buildings.find((y) => y.building === b);
  return x ? kindName(x.kind) : "?";
}

/** Why the game ended (W9.3, W9.4): the end mark reached, that turn played out, the bonus cards. */
export const endReason = (pub) => t("vgw.final.end_mark", { mark: pub.end_mark });

/** A town hall's level as a label that never breaks in two ("Town hall level 3"). */
export const hallLabel = (level) => h("span", { class: "vgw-hall-name" }, t("vgw.village.hall", { level }));

/** How a tie was settled (W9.6, W9.7, D17), in sentences: who was tied, each card drawn from the
 * box and who met it, and a shared victory when the box ran out. None without a tie. */
export function tiebreakWords(pub, nameOf) {
  const tb = pub.tiebreak;
  if (!tb) return [];
  const rounds = tb.rounds || [];
  const tied = rounds.length ? rounds[0].tied : tb.tied;
  if (tied.length < 2) return [];
  const names = (list) => list.map(nameOf).join(", ");
  const out = [t("vgw.final.tied", { points: pub.seats[tied[0]].score, names: names(tied) })];
  for (const r of rounds) {
    const key = !r.meets.length ? "round_none" : r.meets.length === r.tied.length ? "round_all" : "round_met";
    out.push(t(`vgw.final.${key}`, { card: bonusName(r.card, pub), names: names(r.meets) }));
  }
  if (pub.phase === "over" && tb.tied.length > 1) out.push(t("vgw.final.shared"));
  return out;
}

/** The card whose numbers a building uses: a kind, or a town hall level's card. */
export function cardOf(pub, seat, b) {
  if (b === 0) return `town_hall_${pub.seats[seat].town_hall.level}`;
  const x = pub.seats[seat].buildings.find((y) => y.building === b);
  return x ? x.kind : null;
}

export function cardName(card) {
  const m = /^town_hall_(\d)$/.exec(card || "");
  return m ? t("vgw.town_hall_level", { level: m[1] }) : kindName(card);
}

/** A card's entered numbers in words: "defence 3 · reward 1 point, gold, a divine favour". */
export function numbersWords(n) {
  if (!n) return t("vgw.numbers_unknown");
  const reward = [];
  if (n.points) reward.push(t("vgw.reward_points", { n: n.points }));
  if (n.resource && n.resource !== "none") reward.push(resourceName(n.resource));
  if (n.favour) reward.push(t("vgw.favour"));
  return t("vgw.numbers", { defence: n.defence, reward: reward.length ? reward.join(", ") : t("vgw.no_reward") });
}

/** A seat's production and draw with its arithmetic (W2.2, W2.3):
 * {line: "produce 2 gold, 1 beer; draw 6: 7 in hand", sums: [..., "draw 5 + 1 Tavern = 6 cards; with 1 card
 * kept by a Drakkar, 7 in hand"]}: the kept card does not count in the draw (W2.3, W2.8). */
export function productionWords(fig) {
  const line = t("vgw.production_line", { gold: fig.gold, beer: fig.beer, draw: fig.draw, hand: fig.draw + fig.kept });
  const sums = [
    t("vgw.sum_gold", { n: fig.gold }),
    t("vgw.sum_beer", { n: fig.beer }),
    t("vgw.sum_draw", { taverns: fig.taverns, kept: fig.kept, draw: fig.draw, hand: fig.draw + fig.kept }),
  ];
  return { line, sums };
}

/** An answered attack's arithmetic and result, in words (W4.6-W4.10, W5.4). */
export function attackWords(pub, a, who) {
  const target = buildingName(pub, a.target, a.building);
  const sum = t("vgw.attack_sum", {
    attack: a.attack, defence: a.defence, added: a.defence_value, cards: a.defence_cards, total: a.total_defence,
  });
  const verdict = a.success
    ? t("vgw.attack_success", { attacker: who(a.attacker), target: target, owner: who(a.target), points: a.points })
    : t("vgw.attack_repelled", { attacker: who(a.attacker), target: target, owner: who(a.target), points: a.points, cards: a.attack_cards });
  return { sum, verdict, compare: a.success ? `${a.attack} ≥ ${a.total_defence}` : `${a.attack} < ${a.total_defence}` };
}

/** One event of the log, in words; ``who(seat)`` names a player. Null for events not shown. */
/** A corrected value in words: a number, or a marker on or off (on the building it names). */
function correctedValue(event, value) {
  if (event.what === "damage" || event.what === "construction") return t(value ? "vgw.fix.on" : "vgw.fix.off");
  return String(value);
}

/** Why a divine favour was earned, in words: a space of the track (W8.1), a reward (W4.9) or a
 * level-2 or level-3 town hall attacked (W4.10). */
export function favourWhy(why) {
  if (why.startsWith("space_")) return t("vgw.favour_prompt.space", { space: Number(why.slice(6)) });
  return t(`vgw.favour_prompt.${why === "town_hall" ? "town_hall" : "reward"}`);
}

export function logLine(event, pub, who) {
  switch (event.e) {
    case "setup":
      return t("vgw.log.setup", { bonus: event.bonus.map((id) => bonusName(id, pub)).join(", "), name: who(event.first), mark: event.end_mark });
    case "mission_taken":
      return t("vgw.log.mission_taken", { name: who(event.seat), n: event.held });
    case "production":
      return t("vgw.log.production");
    case "turn_of":
      return t("vgw.log.turn_of", { name: who(event.seat) });
    case "built":
      return t("vgw.log.built", { name: who(event.seat), kind: kindName(event.kind) });
    case "upgraded":
      return t("vgw.log.upgraded", { name: who(event.seat), level: event.level });
    case "card_numbers":
      return t("vgw.log.card_numbers", { name: who(event.seat), card: cardName(event.card), numbers: numbersWords(event.numbers) });
    case "attack":
      return t("vgw.log.attack", { name: who(event.seat), owner: who(event.target), card: cardName(event.card), cards: event.cards });
    case "attack_answered":
      return t(event.success ? "vgw.log.attack_success" : "vgw.log.attack_repelled", {
        name: who(event.attacker), owner: who(event.target), card: cardName(event.card),
        attack: event.attack, total: event.total_defence,
      });
    case "complete_defence":
      return t("vgw.log.complete_defence", { name: who(event.seat), attacker: who(event.attacker) });
    case "points":
      return t("vgw.log.points", { name: who(event.seat), points: event.points, why: t(`vgw.why.${event.why}`), total: event.total });
    case "favour":
      return t("vgw.log.favour", { name: who(event.seat), left: event.left });
    case "no_favour_left":
      return t("vgw.log.no_favour_left", { name: who(event.seat) });
    case "end_mark":
      return t("vgw.log.end_mark", { name: who(event.seat), total: event.total });
    case "plundered":
      return t("vgw.log.plundered", { name: who(event.seat), owner: who(event.owner), resource: resourceName(event.resource) });
    case "nothing_to_plunder":
      return t("vgw.log.nothing_to_plunder", { owner: who(event.owner), resource: resourceName(event.resource) });
    case "undead_river":
      return t("vgw.log.undead_river", { name: who(event.seat), resource: resourceName(event.resource) });
    case "undead_board":
      return t("vgw.log.undead_board", { name: who(event.seat), resource: resourceName(event.resource) });
    case "mission_done":
      return t("vgw.log.mission_done", { name: who(event.seat), points: event.mission_points });
    case "mission_swapped":
      return t("vgw.log.mission_swapped", { name: who(event.seat) });
    case "spent":
      return t("vgw.log.spent", { name: who(event.seat), amount: amountOf(event.count, event.resource) });
    case "undone":
      return t("vgw.log.undone", { name: who(event.seat) });
    case "turn_ended":
      return t("vgw.log.turn_ended", { name: who(event.seat) });
    case "stored":
      return t("vgw.log.stored", { name: who(event.seat), amount: amountOf(event.count, event.resource) });
    case "full_reserves":
      return t("vgw.log.full_reserves", { name: who(event.seat), n: event.buildings.length });
    case "kept":
      return t("vgw.log.kept", { name: who(event.seat), cards: event.cards });
    case "turn_over":
      return t(event.last ? "vgw.log.last_turn_over" : "vgw.log.turn_over", { turn: event.turn });
    case "bonus_check":
      return t("vgw.log.bonus_check");
    case "bonus_claimed":
      return t("vgw.log.bonus_claimed", { name: who(event.seat) });
    case "bonus_split":
      return t("vgw.log.bonus_split");
    case "tiebreak_card":
      return t("vgw.log.tiebreak_card", { card: bonusName(event.card, pub), names: event.tied.map(who).join(", ") });
    case "tiebreak_answered":
      return t("vgw.log.tiebreak_answered", { card: bonusName(event.card, pub), names: event.meets.map(who).join(", ") || "—" });
    case "corrected":
      return t("vgw.log.corrected", {
        name: who(event.seat), what: t(`vgw.fix.${event.what}`), reason: event.reason,
        before: correctedValue(event, event.before), after: correctedValue(event, event.after),
      });
    case "first_missions":
      return t("vgw.log.first_missions");
    case "bonus_on_table":
      return t("vgw.log.bonus_on_table", { bonus: event.bonus.map((id) => bonusName(id, pub)).join(", ") });
    case "bonus_named":
      return t("vgw.log.bonus_named", { card: t(`vgw.bonus.${event.card}`), name: event.name });
    case "game_over":
      return t("vgw.log.game_over", { names: event.winners.map(who).join(", ") });
    default:
      return sharedLogLine(event, who);
  }
}

/** Vikings Gone Wild's words inside an error's parameters, translated. */
export function errorWords(params) {
  if (typeof params.card === "string") params.card = cardName(params.card);
  if (typeof params.phase === "string") params.phase = phaseName(params.phase);
  return params;
}

/** A seat's points by where they came from: "missions 3 + attacks 4 = 7". */
export function breakdownSum(breakdown, total) {
  const parts = Object.entries(breakdown).filter(([, v]) => v).map(([why, v]) => `${t(`vgw.why.${why}`)} ${v}`);
  return parts.length ? `${parts.join(" + ")} = ${total}` : "0";
}

/** The score track's spaces: 0 to the end mark, the favour spaces marked. */
export function trackSpaces(pub) {
  const out = [];
  for (let v = 0; v <= pub.end_mark; v++) out.push(v);
  return out;
}

export function chip(text, extra = "") {
  return h("span", { class: `vgw-chip ${extra}` }, text);
}
