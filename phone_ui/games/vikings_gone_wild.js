// Vikings Gone Wild on the phone: the player's missions and the points they would score (theirs
// alone), their village as the table knows it, and on their turn the production line, the attack
// builder, the undead, missions, the town hall and buildings, each with its undo until the turn
// ends; as defender, the defence cards added or one tap to decline. Every figure it adds up is
// shown with its arithmetic. Loaded by the phone's shell only when the table plays this game.

import { h, icon, styleSheet, t } from "/static/common.js";
import {
  ATTACK_POINTS, CARDS, RESOURCES, attackWords, bonusName, breakdownSum, buildingName, cardName, cardOf,
  endMark, endReason, errorWords, favourWhy, hallLabel, kindName, logLine, numbersWords, phaseName, productionWords, resourceName,
  amountOf, tiebreakWords,
} from "/static/games/vikings_gone_wild.js";
import {
  act, actionButton, me, msg, name, online, openSheet, present, render, seats, send, showToast, strip,
  tableStep, ui, waiting,
} from "../page.js";

await styleSheet(new URL("./vikings_gone_wild.css", import.meta.url).href);

// what this game's screens remember between redraws (the attack being built, typed numbers)
const local = {
  target: null, // the player to attack
  building: null, // their building
  attack: "", // the attack value typed (sent only when committed)
  cards: "1",
  numbers: null, // {defence, points, resource, favour} typed for a card not yet known
  editNumbers: false,
  defCards: "0",
  defValue: "0",
  claims: null, // bonus cards: which this player meets
  swapSlot: null,
  kept: { open: false, card: null, numbers: null }, // the host's editor of the kept numbers
  declining: false, // "no defence" tapped once: the second tap declines
  bonusName: {}, // names typed for the bonus cards the print does not name (D20)
  missionName: {}, // by slot: the name chosen for a held mission
  // the host's correction of a score or a marker
  fix: { open: false, seat: 0, what: "score", building: 0, value: "", reason: "" },
};

const legal = () => (msg.game && msg.game.legal) || [];
const legalOf = (type, match = {}) =>
  legal().find((a) => a.type === type && Object.entries(match).every(([k, v]) => a[k] === v)) || null;
const busy = () => ui.pending || !online;
const num = (v) => (/^\d{1,4}$/.test(String(v).trim()) ? Number(v) : null);

/** The whole numbers typed in ``fields`` ([label, text] pairs), or null after saying which one is
 * not a whole number ("-3", "abc", "4." are not): never a tap that does nothing. */
function numbers(...fields) {
  const out = [];
  for (const [label, text] of fields) {
    const n = num(text);
    if (n === null) {
      showToast(t("vgw.bad_number", { field: label, value: String(text).trim() || "—" }), "error");
      return null;
    }
    out.push(n);
  }
  return out;
}

function resetAttack() {
  Object.assign(local, { target: null, building: null, attack: "", cards: "1", numbers: null, editNumbers: false });
}

// A text field with the numeric keyboard: the shell keeps the cursor across a redraw with
// setSelectionRange, which a type=number field refuses.
function field(id, label, value, set, attrs = {}) {
  return h("label", { class: "vgw-field", for: id }, h("span", {}, label),
    h("input", { id, type: "text", inputmode: "numeric", "aria-valuemin": attrs.min ?? 0, "aria-valuemax": attrs.max ?? 99, value, oninput: (e) => set(e.target.value) }));
}

/** NEXT, once nobody has anything left to decide; till then, whom it waits for. */
function nextButton(label) {
  const deciding = msg.game.public.active;
  if (deciding.length) return h("p", { class: "muted small-text", id: "vgw-next-waits" }, t("next.waits", { names: deciding.map(name).join(", ") }));
  return h("button", { class: "primary wide", id: "vgw-next", "data-table": "next", disabled: busy(), onclick: () => tableStep("next") }, label);
}

// -- the bar and the screens -------------------------------------------------------------------

function bar(pub) {
  const whose = pub.current !== null ? name(pub.current) : "";
  return h("div", { class: "roundbar" },
    h("span", {}, t("vgw.turn", { turn: pub.turn })),
    h("strong", {}, phaseName(pub.phase)),
    h("span", {}, whose));
}

function screen(g) {
  const pub = g.public;
  const parts = [favourPrompt(pub), prompt(g)];
  if (pub.last_attack && ["players", "defend"].includes(pub.phase)) parts.push(lastAttack(pub));
  parts.push(missionsPanel(g), villagePanel(g));
  return parts;
}

/** A divine favour this player just earned: the card is theirs to take from the table (W8.1-W8.3). */
function favourPrompt(pub) {
  const mine = pub.favours_now.filter((f) => f.seat === me());
  if (!mine.length) return null;
  return h("section", { class: "panel vgw-favour-prompt", role: "status", "data-favours": mine.length },
    h("h2", {}, icon("star"), " ", t("vgw.favour_prompt.take", { n: mine.length })),
    h("ul", {}, mine.map((f) => h("li", {}, favourWhy(f.why)))));
}

function prompt(g) {
  const pub = g.public;
  const mine = pub.active.includes(me());
  switch (pub.phase) {
    case "table_bonus":
      if (mine) return bonusLaying(pub, (action) => act(action));
      // a bot, or an absent start player: the host says which cards lie on the table for them
      return h("div", {}, waiting(t("vgw.you.wait_bonus_cards", { name: name(pub.first) })),
        msg.you.host && !present(pub.first) ? h("section", { class: "panel" },
          h("p", {}, t("vgw.bonus_cards.host_enters", { name: name(pub.first) })),
          bonusLaying(pub, (action) => send("proxy", { seat: pub.first, action: strip(action) }))) : null);
    case "missions":
      return mine ? missionChoice(true) : waiting(t("vgw.you.wait_missions", { names: pub.active.map(name).join(", ") }));
    case "production":
      return productionPanel(g, nextButton(t("vgw.next.draw")));
    case "draw":
      return productionPanel(g, mine ? missionChoice(false) : null, nextButton(t("vgw.next.players")));
    case "players":
      return pub.current === me() ? myTurn(g) : waiting(t("vgw.you.wait_turn", { name: name(pub.current) }));
    case "defend":
      return mine ? defencePrompt(g) : waiting(t("vgw.you.wait_defence", {
        name: name(pub.attack.attacker), owner: name(pub.attack.target),
        building: buildingName(pub, pub.attack.target, pub.attack.building),
      }));
    case "storage":
      return storagePanel(g);
    case "end":
      return endPanel(g);
    case "bonus":
      return mine ? bonusChoice(pub) : waiting(t("vgw.you.wait_bonus", { names: pub.active.map(name).join(", ") }));
    case "tiebreak":
      return mine ? tiebreakChoice(pub) : waiting(t("vgw.you.wait_tiebreak", { names: pub.active.map(name).join(", ") }));
    default:
      return waiting(phaseName(pub.phase));
  }
}

// -- production and draw (W2.2, W2.3) -----------------------------------------------------------

function productionPanel(g, ...extra) {
  const fig = g.public.seats[me()].figures;
  const words = productionWords(fig);
  return h("section", { class: "panel vgw-prompt", "data-prompt": "production" },
    h("h2", {}, phaseName(g.public.phase)),
    h("p", { class: "big-text vgw-production" }, words.line),
    h("ul", { class: "vgw-sums" }, words.sums.map((s) => h("li", {}, s))),
    extra);
}

/** The missions offered: by name from the base game's list, or by points only (D14). */
function missionChoice(first) {
  const offers = legal().filter((a) => a.type === "take_mission");
  return h("div", { class: "vgw-missions-offer" },
    h("h3", {}, first ? t("vgw.you.first_missions") : t("vgw.you.draw_mission")),
    h("div", { class: "options" }, offers.map((a) => actionButton(
      a.name ? t("vgw.mission_named", { name: a.name, points: a.points }) : t("vgw.mission_points", { points: a.points }),
      a, { class: "option" }))),
    legalOf("pass_mission") ? actionButton(t("vgw.you.no_mission"), { type: "pass_mission" }) : null);
}

// -- the player's turn (W2.4, W3, W4, W6, W7) -----------------------------------------------------

function myTurn(g) {
  const pub = g.public;
  const seat = me();
  const fig = productionWords(pub.seats[seat].figures);
  const undo = legalOf("undo");
  const pts = ATTACK_POINTS(pub.successes);
  return h("section", { class: "panel vgw-prompt vgw-turn", "data-prompt": "turn" },
    h("h2", {}, t("vgw.you.your_turn")),
    h("p", { class: "vgw-production" }, fig.line),
    pub.successes ? h("p", {}, t("vgw.you.successes", { n: pub.successes, points: pts })) : null,
    attackBuilder(g),
    buildPanel(g),
    undeadPanel(g),
    reservesPanel(g),
    h("div", { class: "button-row vgw-end-row" },
      undo ? actionButton(t("vgw.you.undo"), undo, { class: "secondary" }) : null,
      actionButton(t("vgw.you.end_turn"), { type: "end_turn" }, { class: "primary" })));
}

function attackBuilder(g) {
  const pub = g.public;
  if (!legal().some((a) => a.type === "attack" || a.type === "card_numbers")) {
    return h("div", { class: "vgw-attack" }, h("h3", {}, icon("axe"), " ", t("vgw.attack.title")), h("p", { class: "muted" }, t("vgw.attack.none")));
  }
  const options = pub.attackable; // by player, as the game offers them (W4.2-W4.5, D4, D21)
  const steps = [h("h3", {}, icon("axe"), " ", t("vgw.attack.title"))];
  if (local.target !== null && !(local.target in options)) resetAttack();
  // step 1: the player
  steps.push(h("p", { class: "label" }, t("vgw.attack.step_player")),
    h("div", { class: "button-row" }, Object.keys(options).map(Number).map((p) => h("button", {
      class: local.target === p ? "chosen" : "", "data-target": p, disabled: busy() || !options[p].length,
      onclick: () => { resetAttack(); local.target = p; render(); },
    }, name(p)))));
  if (local.target === null) return h("div", { class: "vgw-attack" }, steps);
  // step 2: the building, with its defence once entered
  steps.push(h("p", { class: "label" }, t("vgw.attack.step_building")),
    h("div", { class: "options" }, options[local.target].map((b) => {
      const card = cardOf(pub, local.target, b);
      return h("button", {
        class: `option ${local.building === b ? "chosen" : ""}`, "data-building": b, disabled: busy(),
        onclick: () => { local.building = b; local.editNumbers = false; local.numbers = null; render(); },
      }, h("strong", {}, buildingName(pub, local.target, b)), " ", h("small", {}, numbersWords(pub.numbers[card])));
    })));
  if (local.building === null) return h("div", { class: "vgw-attack" }, steps);
  const card = cardOf(pub, local.target, local.building);
  const known = pub.numbers[card];
  if (!known || local.editNumbers) {
    steps.push(numbersForm(card, known));
    return h("div", { class: "vgw-attack" }, steps);
  }
  // step 3: the attack value and the cards; step 4: commit
  steps.push(h("p", { class: "small-text" }, cardName(card), ": ", numbersWords(known), " ",
    h("button", { class: "link", "data-edit-numbers": card, onclick: () => { local.editNumbers = true; render(); } }, t("vgw.attack.edit_numbers"))));
  const hall = local.building === 0 ? pub.seats[local.target].town_hall : null;
  if (hall && hall.level >= 2) steps.push(h("p", { class: "small-text", id: "vgw-hall-favour" }, t("vgw.attack.hall_favour", { level: hall.level })));
  steps.push(h("div", { class: "vgw-fields" },
    field("vgw-attack-value", t("vgw.attack.value"), local.attack, (v) => { local.attack = v; }, { min: 1 }),
    field("vgw-attack-cards", t("vgw.attack.cards"), local.cards, (v) => { local.cards = v; }, { min: 1, max: 20 })));
  steps.push(h("p", { class: "muted small-text" }, t("vgw.attack.secret")));
  steps.push(h("button", {
    class: "primary wide", id: "vgw-commit", disabled: busy(),
    onclick: () => {
      const typed = numbers([t("vgw.attack.value"), local.attack], [t("vgw.attack.cards"), local.cards]);
      if (!typed) return;
      const [attack, cards] = typed;
      const action = { type: "attack", target: local.target, building: local.building, attack, cards };
      act(action).then((answer) => { if (answer && answer.ok) resetAttack(); });
    },
  }, t("vgw.attack.commit", { building: buildingName(pub, local.target, local.building), owner: name(local.target), defence: known.defence })));
  return h("div", { class: "vgw-attack" }, steps);
}

/** A card's printed numbers, entered once for the whole game (D1). */
function numbersForm(card, known) {
  if (!local.numbers) local.numbers = draftOf(known, card);
  return numbersFields(card, local.numbers, "vgw", t("vgw.attack.enter_numbers", { card: cardName(card) }), (numbers) =>
    act({ type: "card_numbers", card, ...numbers }).then((answer) => {
      if (answer && answer.ok) { local.numbers = null; local.editNumbers = false; render(); }
    }));
}

/** A card's numbers to edit: those known, else empty but for a defence the print gives (W0.6). */
const draftOf = (known, card) => {
  if (known) return { ...known };
  const printed = msg.game ? msg.game.public.printed[card] : undefined;
  return { defence: printed === undefined ? "" : String(printed), points: "0", resource: "none", favour: false };
};

/** The fields of a card's numbers (defence, reward points, resource, favour) and its save button;
 * ``prefix`` keeps the ids of the host's editor apart from the attack builder's. */
function numbersFields(card, n, prefix, intro, save) {
  return h("div", { class: "vgw-numbers", "data-card": card },
    h("p", {}, intro),
    h("div", { class: "vgw-fields" },
      field(`${prefix}-defence`, t("vgw.attack.defence"), n.defence, (v) => { n.defence = v; }, { max: 30 }),
      field(`${prefix}-reward-points`, t("vgw.attack.reward_points"), n.points, (v) => { n.points = v; }, { max: 9 })),
    h("p", { class: "label" }, t("vgw.attack.reward_resource")),
    h("div", { class: "button-row" }, ["none", ...RESOURCES].map((r) => h("button", {
      class: n.resource === r ? "chosen" : "", "data-resource": r, onclick: () => { n.resource = r; render(); },
    }, r === "none" ? t("vgw.no_reward") : resourceName(r)))),
    h("label", { class: "vgw-check" }, h("input", { type: "checkbox", id: `${prefix}-favour`, checked: n.favour, onchange: (e) => { n.favour = e.target.checked; } }), " ", t("vgw.attack.reward_favour")),
    h("button", {
      class: "primary", id: `${prefix}-save-numbers`, disabled: busy(),
      onclick: () => {
        const typed = numbers([t("vgw.attack.defence"), n.defence], [t("vgw.attack.reward_points"), n.points]);
        if (!typed) return;
        const [defence, points] = typed;
        save({ defence, points, resource: n.resource, favour: Boolean(n.favour) });
      },
    }, t("vgw.attack.save_numbers")));
}

// -- the host: the end mark in the lobby, the card numbers kept at this table --------------------

/** The host's choices in the lobby: the end mark (W9.2, D19) and the card numbers kept (D1). */
function lobbyOptions(table) {
  const n = table.seats.length;
  const chosen = table.options.end_mark || 0;
  // with 2 players the print's end mark is already 40: the variant is 50 (D19)
  const marks = [0, 40, 50].filter((mark) => mark !== 40 || n !== 2 || chosen === 40);
  return [h("p", { class: "label" }, t("vgw.host.end_mark")),
    h("div", { class: "button-row" }, marks.map((mark) => h("button", {
      class: chosen === mark ? "chosen" : "", "data-end-mark": mark, disabled: busy(),
      "aria-pressed": chosen === mark ? "true" : "false",
      onclick: () => send("set_option", { option: "end_mark", value: mark }),
    }, mark ? t("vgw.host.end_mark_variant", { mark }) : t("vgw.host.end_mark_default", { mark: endMark(n, 0) })))),
    h("p", { class: "muted small-text", "data-end-mark-now": endMark(n, chosen) }, t("vgw.host.end_mark_help", { mark: endMark(n, chosen) })),
    keptNumbers(table)];
}

/** Keep a card's numbers for the table's next games (D1), or take them away ({}). */
const keep = (card, numbers) => send("set_option", { option: "numbers", value: { key: card, value: numbers } });

/** The card numbers this table keeps for its next games (D1): each card's, to edit or clear;
 * a card nobody entered has none, and Longhall never guesses one. */
function keptNumbers(table) {
  const kept = table.options.numbers || {};
  const edit = local.kept;
  const rows = CARDS.map((card) => {
    const editing = edit.card === card;
    if (editing && !edit.numbers) edit.numbers = draftOf(kept[card], card);
    return h("li", { class: "vgw-kept-row", "data-kept": card },
      h("span", {}, h("strong", {}, cardName(card)), " ", h("small", {}, numbersWords(kept[card]))),
      h("span", { class: "row-tools" },
        h("button", { class: "small", disabled: busy(), "data-kept-edit": card,
          onclick: () => { edit.card = editing ? null : card; edit.numbers = null; render(); } },
        kept[card] ? t("vgw.host.edit") : t("vgw.host.enter")),
        kept[card] ? h("button", { class: "small danger", disabled: busy(), "data-kept-clear": card,
          onclick: () => keep(card, {}) }, t("vgw.host.clear")) : null),
      editing ? numbersFields(card, edit.numbers, "vgw-kept", t("vgw.host.numbers_of", { card: cardName(card) }), (numbers) =>
        keep(card, numbers).then((answer) => {
          if (answer && answer.ok) { edit.card = null; edit.numbers = null; render(); }
        })) : null);
  });
  return h("details", { class: "vgw-kept", open: edit.open, ontoggle: (e) => { edit.open = e.target.open; } },
    h("summary", {}, t("vgw.host.kept", { n: CARDS.filter((c) => kept[c]).length })),
    h("p", { class: "muted small-text" }, t(msg.table.status === "playing" ? "vgw.host.kept_help_playing" : "vgw.host.kept_help")),
    h("ul", { class: "vgw-kept-list" }, rows));
}

// -- the host's corrections: what Longhall keeps, set right with a reason the log shows ------------

const FIXES = ["score", "favours", "damage", "construction", "town_hall"];

/** What the game has now of the thing a correction would set. */
function fixNow(pub, f) {
  const v = pub.seats[f.seat];
  if (f.what === "score") return v.score;
  if (f.what === "favours") return v.favours;
  if (f.what === "town_hall") return v.town_hall.level;
  const b = f.building === 0 ? v.town_hall : v.buildings.find((x) => x.building === f.building);
  if (!b) return null;
  return Number(f.what === "damage" ? b.damaged : b.new);
}

function select(id, value, options, set) {
  return h("select", { id, onchange: (e) => set(e.target.value) },
    options.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label)));
}

function corrections() {
  const pub = msg.game && msg.game.public;
  if (!pub || ["bonus", "tiebreak", "over"].includes(pub.phase)) return null;
  const f = local.fix;
  const v = pub.seats[f.seat];
  const marker = f.what === "damage" || f.what === "construction";
  const buildings = [[0, t("vgw.town_hall_level", { level: v.town_hall.level })],
    ...v.buildings.map((b) => [b.building, kindName(b.kind)])];
  const now = fixNow(pub, f);
  const value = marker ? (f.value === "" ? String(1 - (now ?? 0)) : f.value) : f.value;
  const redraw = (change) => { Object.assign(f, change); render(); };
  return h("details", { class: "vgw-fix", open: f.open, ontoggle: (e) => { f.open = e.target.open; } },
    h("summary", {}, t("vgw.fix.title")),
    h("p", { class: "muted small-text" }, t("vgw.fix.help")),
    h("label", {}, t("vgw.fix.player"),
      select("vgw-fix-seat", f.seat, seats().map((s, i) => [i, `${s.symbol} ${s.name}`]), (x) => redraw({ seat: Number(x), building: 0, value: "" }))),
    h("label", {}, t("vgw.fix.what"),
      select("vgw-fix-what", f.what, FIXES.map((w) => [w, t(`vgw.fix.${w}`)]), (x) => redraw({ what: x, value: "" }))),
    marker ? h("label", {}, t("vgw.fix.building"),
      select("vgw-fix-building", f.building, buildings, (x) => redraw({ building: Number(x), value: "" }))) : null,
    h("p", { class: "small-text" }, t("vgw.fix.now", { value: now === null ? "—" : marker ? t(now ? "vgw.fix.on" : "vgw.fix.off") : now })),
    marker
      ? h("label", {}, t("vgw.fix.value"), select("vgw-fix-value", value, [[1, t("vgw.fix.on")], [0, t("vgw.fix.off")]], (x) => redraw({ value: x })))
      : field("vgw-fix-value", t("vgw.fix.value"), f.value, (x) => redraw({ value: x }), { max: 99 }),
    h("label", { for: "vgw-fix-reason" }, t("vgw.fix.reason"),
      h("input", { id: "vgw-fix-reason", type: "text", maxlength: 60, value: f.reason, oninput: (e) => { f.reason = e.target.value; } })),
    h("button", { class: "primary", id: "vgw-fix-send", disabled: busy(), onclick: () => {
      const typed = numbers([t("vgw.fix.value"), value]);
      if (!typed) return;
      const [n] = typed;
      send("host_act", { action: { type: "correct", seat: f.seat, what: f.what, building: marker ? f.building : 0, value: n, reason: f.reason } })
        .then((answer) => { if (answer && answer.ok) redraw({ value: "", reason: "" }); });
    } }, t("vgw.fix.send")));
}

function buildPanel(g) {
  const pub = g.public;
  const v = pub.seats[me()];
  const builds = legal().filter((a) => a.type === "build");
  const upgrade = legalOf("upgrade");
  const count = v.buildings.length;
  return h("div", { class: "vgw-build" },
    h("h3", {}, t("vgw.build.title")),
    h("p", { class: "small-text" }, v.limit === null
      ? t("vgw.build.no_limit", { n: count })
      : t("vgw.build.limit", { n: count, max: v.limit, level: v.town_hall.active_level })),
    h("div", { class: "button-row" }, builds.map((a) => actionButton(kindName(a.kind), a, { class: "small" }))),
    upgrade ? actionButton(t("vgw.build.upgrade", { level: v.town_hall.level + 1 }), upgrade, { class: "small" }) : null);
}

function undeadPanel(g) {
  const river = legal().filter((a) => a.type === "undead_river");
  const board = legal().filter((a) => a.type === "undead_board");
  return h("div", { class: "vgw-undead" },
    h("h3", {}, t("vgw.undead.title")),
    h("p", { class: "small-text" }, t("vgw.undead.river")),
    h("div", { class: "button-row" }, river.map((a) => actionButton(resourceName(a.resource), a, { class: "small" }))),
    h("p", { class: "small-text" }, board.length ? t("vgw.undead.board") : t("vgw.undead.board_used")),
    h("div", { class: "button-row" }, board.map((a) => actionButton(resourceName(a.resource), a, { class: "small" }))));
}

function reservesPanel(g) {
  const spends = legal().filter((a) => a.type === "spend");
  if (!spends.length) return null;
  const v = g.public.seats[me()];
  return h("div", { class: "vgw-spend" }, h("h3", {}, t("vgw.spend.title")),
    h("div", { class: "button-row" }, spends.map((a) => {
      const b = v.buildings.find((x) => x.building === a.building);
      return actionButton(t("vgw.spend.one", { resource: resourceName(b.resource), stock: b.stock }), a, { class: "small" });
    })));
}

// -- the defender (W5) ----------------------------------------------------------------------------

function defencePrompt(g) {
  const pub = g.public;
  const a = pub.attack;
  const known = pub.numbers[a.card];
  const base = known ? known.defence : 0;
  const added = num(local.defValue) ?? 0;
  const attackValue = g.private && g.private.attack ? g.private.attack.attack : null;  // D3
  return h("section", { class: "panel vgw-prompt vgw-defend", "data-prompt": "defend" },
    h("h2", {}, t("vgw.defend.title")),
    h("p", { class: "big-text" }, t("vgw.defend.question", { name: name(a.attacker), building: buildingName(pub, a.target, a.building), value: attackValue ?? "?", cards: a.cards })),
    h("p", { class: "muted small-text" }, t("vgw.defend.fingerprint", { fp: (msg.table.fingerprints[a.attacker] || "").slice(0, 8) })),
    h("div", { class: "vgw-fields" },
      field("vgw-def-cards", t("vgw.defend.cards"), local.defCards, (v) => { local.defCards = v; render(); }, { max: 20 }),
      field("vgw-def-value", t("vgw.defend.value"), local.defValue, (v) => { local.defValue = v; render(); })),
    h("p", { class: "vgw-sum" }, t("vgw.defend.sum", { defence: base, added, total: base + added })),
    // W4.7, W5.2: the attack succeeds when its value is at least the defence plus the cards
    attackValue === null ? null : h("p", { class: "vgw-outcome", "data-outcome": attackValue >= base + added ? "falls" : "holds" },
      t(attackValue >= base + added ? "vgw.defend.falls" : "vgw.defend.holds", { total: base + added, value: attackValue })),
    h("div", { class: "button-row" },
      h("button", {
        class: "primary", id: "vgw-defend", disabled: busy(),
        onclick: () => {
          const typed = numbers([t("vgw.defend.cards"), local.defCards], [t("vgw.defend.value"), local.defValue]);
          if (!typed) return;
          const [cards, value] = typed;
          act({ type: "defend", cards, value }).then((answer) => { if (answer && answer.ok) { local.defCards = "0"; local.defValue = "0"; } });
        },
      }, t("vgw.defend.add")),
      // the attack's result is final (W5.2): "no defence" takes a second tap
      local.declining
        ? [actionButton(t("vgw.defend.decline_confirm"), { type: "defend", cards: 0, value: 0 }, { class: "danger" }),
          h("button", { class: "small", onclick: () => { local.declining = false; render(); } }, t("vgw.defend.decline_cancel"))]
        : h("button", { class: "secondary", id: "vgw-decline", disabled: busy(), onclick: () => { local.declining = true; render(); } }, t("vgw.defend.decline"))));
}

function lastAttack(pub) {
  const a = pub.last_attack;
  const words = attackWords(pub, a, name);
  return h("section", { class: `panel vgw-last-attack ${a.success ? "success" : "repelled"}` },
    h("h3", {}, t("vgw.attack.last")), h("p", {}, words.sum), h("p", { class: "vgw-compare" }, words.compare), h("p", {}, words.verdict));
}

// -- storage and the end of the turn --------------------------------------------------------------

function storagePanel(g) {
  const mine = g.public.active.includes(me());
  const v = g.public.seats[me()];
  const stores = legal().filter((a) => a.type === "store");
  return h("section", { class: "panel vgw-prompt", "data-prompt": "storage" },
    h("h2", {}, phaseName("storage")),
    h("p", {}, t("vgw.storage.loot", { gold: v.loot.gold, beer: v.loot.beer })),
    lostLoot(v, stores),
    mine ? h("div", { class: "button-row" }, stores.map((a) => {
      const b = v.buildings.find((x) => x.building === a.building);
      return actionButton(t("vgw.storage.store", { amount: amountOf(a.count, b.resource), stock: b.stock }), a, { class: "small" });
    }), legalOf("store_done") ? actionButton(t("vgw.storage.done"), { type: "store_done" }) : null) : null,
    h("p", { class: "muted small-text" }, t("vgw.storage.rule")),
    nextButton(t("vgw.next.end")));
}

/** What this player produced or plundered and no Reserve of theirs can take now (none of that
 * resource, or only one under construction, D9): lost when the phase ends (W2.5). */
function lostLoot(v, stores) {
  const lost = RESOURCES.filter((r) => v.loot[r] && !stores.some((a) => v.buildings.find((b) => b.building === a.building).resource === r));
  if (!lost.length) return null;
  return h("p", { class: "warn", "data-lost": lost.join(" ") }, t("vgw.storage.lost", { what: lost.map((r) => amountOf(v.loot[r], r)).join(", ") }));
}

/** Below the final score: how a tie was settled (W9.6, W9.7, D17) and the bonus split (W9.4). */
function finalWords() {
  const g = msg.game;
  if (!g || g.game !== "vikings_gone_wild" || g.public.phase !== "over") return [];
  const settled = tiebreakWords(g.public, name);
  return [settled.length ? h("section", { class: "panel vgw-tiebreak-result" }, h("h2", {}, t("vgw.tiebreak_title")), settled.map((line) => h("p", {}, line))) : null,
    bonusResult(g.public)];
}

function endPanel(g) {
  const keeps = legal().filter((a) => a.type === "keep");
  return h("section", { class: "panel vgw-prompt", "data-prompt": "end" },
    h("h2", {}, phaseName("end")),
    keeps.length ? [h("p", {}, t("vgw.end.keep")), h("div", { class: "button-row" }, keeps.map((a) => actionButton(String(a.cards), a, { class: "small" })))] : null,
    g.public.last_turn ? h("p", { class: "warn" }, t("vgw.end.last_turn")) : null,
    nextButton(g.public.last_turn ? t("vgw.next.bonus") : t("vgw.next.turn")));
}

// -- the bonus cards on the table (W1.3, D20) ------------------------------------------------------

/** Which 4 bonus cards lie on the table (the start player's, or the host's for them through
 * ``run``): tap each (again to take it off), or the print's first-game set in one tap; a card the
 * print does not name gets its name here. */
function bonusLaying(pub, run) {
  const laid = pub.bonus;
  const four = laid.length === 4;
  const tap = (action, label, attrs = {}) => h("button", {
    ...attrs, disabled: busy(), "data-action": JSON.stringify(action), onclick: () => run(action) }, label);
  const rows = pub.bonus_cards.map((id) => {
    const on = laid.includes(id);
    const naming = pub.unnamed.includes(id);
    return h("li", { class: "vgw-bonus-card", "data-bonus-card": id },
      h("button", { class: on ? "chosen" : "", disabled: busy() || (!on && four), "data-lay": id,
        onclick: () => run(on ? { type: "unlay_bonus", card: id, undo: true } : { type: "lay_bonus", card: id }) },
      on ? "✓ " : "○ ", bonusName(id, pub)),
      naming ? h("span", { class: "row-tools" },
        h("input", { id: `vgw-name-${id}`, type: "text", maxlength: 24, placeholder: t("vgw.bonus_cards.name_placeholder"),
          value: local.bonusName[id] ?? "", oninput: (e) => { local.bonusName[id] = e.target.value; } }),
        h("button", { class: "small", disabled: busy(), "data-name-bonus": id, onclick: () => run({ type: "name_bonus", card: id, name: local.bonusName[id] || "" }) },
          t("vgw.bonus_cards.name"))) : null);
  });
  return h("section", { class: "panel vgw-prompt", "data-prompt": "table_bonus" },
    h("h2", {}, t("vgw.bonus_cards.title")),
    h("p", {}, t("vgw.bonus_cards.help", { n: laid.length })),
    !laid.length && pub.first_game.length
      ? tap({ type: "first_game_bonus" }, t("vgw.bonus_cards.first_game", { names: pub.first_game.map((id) => bonusName(id, pub)).join(", ") }), { class: "wide" })
      : null,
    h("ul", { class: "vgw-bonus-cards" }, rows),
    four ? tap({ type: "bonus_laid" }, t("vgw.bonus_cards.done"), { class: "primary wide" }) : null);
}

// -- the end: bonus cards and the tie-break (W9.4-W9.7) -------------------------------------------

function bonusChoice(pub) {
  if (!local.claims || local.claims.length !== pub.bonus.length) local.claims = pub.bonus.map(() => false);
  return h("section", { class: "panel vgw-prompt", "data-prompt": "bonus" },
    h("h2", {}, t("vgw.bonus_title")), h("p", {}, t("vgw.you.bonus")),
    h("div", { class: "options" }, pub.bonus.map((id, k) => h("button", {
      class: `option ${local.claims[k] ? "chosen" : ""}`, "data-bonus": id, "aria-pressed": local.claims[k] ? "true" : "false",
      onclick: () => { local.claims[k] = !local.claims[k]; render(); },
    }, local.claims[k] ? "✓ " : "○ ", bonusName(id, pub)))),
    h("button", { class: "primary wide", id: "vgw-claim", disabled: busy(), onclick: () => act({ type: "bonus", meets: [...local.claims] }) }, t("vgw.you.claim")));
}

function tiebreakChoice(pub) {
  const card = bonusName(pub.tiebreak.card, pub);
  return h("section", { class: "panel vgw-prompt", "data-prompt": "tiebreak" },
    h("h2", {}, t("vgw.tiebreak_title")), h("p", {}, t("vgw.you.tiebreak", { card })),
    h("div", { class: "button-row" },
      actionButton(t("vgw.you.meets"), { type: "tiebreak", meets: true }, { class: "primary" }),
      actionButton(t("vgw.you.meets_not"), { type: "tiebreak", meets: false })));
}

function bonusResult(pub) {
  const claims = pub.claims || [];
  return h("section", { class: "panel vgw-bonus-result" }, h("h3", {}, t("vgw.bonus_title")),
    h("ul", {}, pub.bonus.map((id, k) => {
      const met = claims.map((c, s) => (c && c[k] ? s : null)).filter((s) => s !== null);
      return h("li", {}, h("strong", {}, bonusName(id, pub)), ": ", met.length ? met.map(name).join(", ") : t("vgw.nobody"));
    })));
}

// -- the missions (secret) and the village (public) ---------------------------------------------

function missionsPanel(g) {
  const priv = g.private;
  const pub = g.public;
  const myTurnNow = pub.phase === "players" && pub.current === me();
  const held = priv.missions;
  const sum = held.length ? `${held.map((m) => m.points).join(" + ")} = ${priv.mission_points}` : "0";
  const swap = myTurnNow && legal().some((a) => a.type === "swap_mission");
  return h("section", { class: "panel vgw-missions", "data-secret": "missions" },
    h("h2", {}, t("vgw.missions.title")),
    h("p", { class: "muted small-text" }, t("vgw.missions.secret")),
    held.length ? h("ul", {}, held.map((m) => h("li", { "data-slot": m.slot },
      h("span", {}, m.name ? t("vgw.mission_named", { name: m.name, points: m.points }) : t("vgw.mission_points", { points: m.points })),
      myTurnNow ? actionButton(t("vgw.missions.complete"), { type: "complete_mission", slot: m.slot }, { class: "small" }) : null,
      myTurnNow && !m.name ? nameMission(pub, m) : null,
      swap ? h("button", { class: "small", disabled: busy(), onclick: () => { local.swapSlot = local.swapSlot === m.slot ? null : m.slot; render(); } }, t("vgw.missions.swap")) : null,
      swap && local.swapSlot === m.slot ? swapChoice(m.slot) : null))) : h("p", { class: "muted" }, t("vgw.missions.none")),
    h("p", { class: "vgw-sum" }, t("vgw.missions.would_score", { sum })),
    pub.seats[me()].missions_done.length
      ? h("p", { class: "small-text" }, t("vgw.missions.done", { list: pub.seats[me()].missions_done.map((m) => m.name || `${m.points}`).join(", ") }))
      : null);
}

/** Name a held mission when one likes (a group's card data lists the names, D2): its points
 * stay, and it is secret until completed (D14). */
function nameMission(pub, m) {
  const names = Object.entries(pub.mission_names).filter(([, p]) => p === null || p === m.points).map(([n]) => n);
  if (!names.length) return null;
  const chosen = local.missionName[m.slot] || names[0];
  return h("span", { class: "row-tools" },
    select(`vgw-mission-name-${m.slot}`, chosen, names.map((n) => [n, n]), (x) => { local.missionName[m.slot] = x; }),
    actionButton(t("vgw.missions.name"), { type: "name_mission", slot: m.slot, name: chosen }, { class: "small" }));
}

function swapChoice(slot) {
  const names = legal().filter((a) => a.type === "swap_mission" && a.slot === slot);
  return h("div", { class: "vgw-swap" }, h("p", { class: "small-text" }, t("vgw.missions.swap_for")),
    h("div", { class: "button-row" }, names.map((a) => actionButton(t("vgw.mission_points", { points: a.points }), a, { class: "small" }))));
}

function villagePanel(g) {
  const pub = g.public;
  const v = pub.seats[me()];
  const hall = v.town_hall;
  return h("section", { class: "panel vgw-village" },
    h("h2", {}, icon("hall"), " ", t("vgw.village.title")),
    h("p", {}, hallLabel(hall.level), hall.new ? [" ", h("span", { class: "vgw-tag new" }, t("vgw.marker.new"))] : null,
      hall.damaged ? [" ", h("span", { class: "vgw-tag damaged" }, t("vgw.marker.damaged"))] : null),
    v.buildings.length ? h("ul", { class: "vgw-buildings" }, v.buildings.map((b) => h("li", { "data-kind": b.kind },
      kindName(b.kind),
      b.stock !== null ? ` · ${amountOf(b.stock, b.resource)}` : "",
      b.new ? [" ", h("span", { class: "vgw-tag new" }, t("vgw.marker.new"))] : null,
      b.damaged ? [" ", h("span", { class: "vgw-tag damaged" }, t("vgw.marker.damaged"))] : null))) : h("p", { class: "muted" }, t("vgw.village.empty")),
    h("p", { class: "small-text" }, t("vgw.village.score", { sum: breakdownSum(v.breakdown, v.score) })),
    h("p", { class: "small-text" }, t("vgw.village.favours", { n: v.favours })),
    h("p", { class: "small-text vgw-first", "data-first": pub.first }, t("vgw.first_token_holder", { name: name(pub.first) })));
}

/** Always at hand: the score, the missions' points, the favours. */
function atHand(g) {
  const v = g.public.seats[me()];
  return h("footer", { class: "athand" },
    h("button", { class: "athand-hand", onclick: () => openSheet("missions") },
      h("span", { class: "label" }, t("vgw.missions.title")),
      h("span", {}, g.private.missions.map((m) => m.points).join(" + ") || "—")),
    h("span", { class: "stat", title: t("hand.score") }, icon("star", t("hand.score")), " ", v.score));
}

function sheet(kind) {
  const g = msg.game;
  if (kind === "help") {
    const phase = g.public.phase;
    return [h("h2", {}, t("help.title")), h("h3", {}, phaseName(phase)), h("p", {}, t(`vgw.help.${phase}`)),
      h("h3", {}, t("help.goal_title")), h("p", { class: "goal" }, t("vgw.help.goal", { mark: g.public.end_mark })),
      h("p", { class: "muted small-text" }, t("help.more"))];
  }
  if (kind === "missions" && g.private) return [missionsPanel(g)];
  return null;
}

/** One row per source of points in the final score. */
function scoreRows(score, withTotal = true) {
  const b = score.breakdown;
  return h("table", { class: "score-rows" }, h("tbody", {},
    Object.entries(b).filter(([, v]) => v).map(([why, v]) => h("tr", { "data-category": why },
      h("th", {}, t(`vgw.why.${why}`)), h("td", { class: "count" }), h("td", { class: "points" }, String(v)))),
    withTotal ? h("tr", { class: "sum" }, h("th", {}, t("score.total")), h("td", {}), h("td", { class: "points" }, String(score.total))) : null));
}

export default {
  id: "vikings_gone_wild",
  bar,
  screen,
  atHand,
  sheet,
  scoreRows,
  finalWords,
  endReason,
  errorWords,
  logWords: (event) => logLine(event, msg.game.public, name),
  lobbyOptions,
  /** The host's sheet during a game: the card numbers kept for the next games (D1). */
  hostSheet: (table) => [keptNumbers(table), corrections()],
  /** A player's own turn and defence are screens of their own; while the others take their
   * turns and defend, one screen, so that a player reading their village is not sent back to the
   * top at each of the others' moves. */
  screenKey: (g) => (["players", "defend"].includes(g.public.phase) && !g.public.active.includes(me()) ? "watching" : g.public.phase),
  /** A new screen: no half-built attack or typed defence from before. */
  newScreen() {
    resetAttack();
    local.defCards = "0";
    local.defValue = "0";
    local.declining = false;
    local.swapSlot = null;
    if (msg && msg.game && msg.game.public.phase !== "bonus") local.claims = null;
  },
};
