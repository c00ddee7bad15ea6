// Shared by the phone page and the table display: translations, the connection, commands,
// and small DOM helpers. No framework and no build step: the Pi serves these files as they are.

import { io } from "/static/vendor/socket.io-4.8.3.esm.min.js";
import { onPatch } from "/static/patch.js";

export const LANGUAGES = ["en", "nl", "fr", "de"];
const LANG_KEY = "longhall.lang";

// -- translations --------------------------------------------------------------------------------

let catalog = {};
let fallback = {};
let language = "en";
const missing = new Set();

function lookup(table, key) {
  let node = table;
  for (const part of key.split(".")) {
    if (node == null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Translate a key, filling {placeholders} from params. A missing key shows as ⟦key⟧. */
export function t(key, params = {}) {
  let text = lookup(catalog, key);
  if (text === undefined) {
    text = lookup(fallback, key);
    if (!missing.has(key)) {
      missing.add(key);
      console.warn(`missing translation: ${language}:${key}`);
    }
    if (text === undefined) return `⟦${key}⟧`;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined) return whole;
    return Array.isArray(value) ? value.join(", ") : String(value);
  });
}

/** True when the catalog has the key (for optional texts). */
export function has(key) {
  return lookup(catalog, key) !== undefined || lookup(fallback, key) !== undefined;
}

export function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) return asked;
  const saved = localStorage.getItem(LANG_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const short = wanted.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

async function fetchCatalog(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`catalog ${lang}: ${response.status}`);
  return response.json();
}

export async function loadLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!fallback.lang) fallback = await fetchCatalog("en");
  try {
    catalog = lang === "en" ? fallback : await fetchCatalog(lang);
  } catch (err) {
    console.warn(`no catalog for ${lang}, using English: ${err}`);
    catalog = fallback;
    lang = "en";
  }
  language = lang;
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(LANG_KEY, lang);
}

/** A small language switch: the four languages by their own names. */
export function languageSwitch(onChange) {
  const select = h("select", {
    class: "lang-switch",
    "aria-label": t("lang.choose"),
    onchange: async (event) => {
      await loadLanguage(event.target.value, true);
      onChange();
    },
  });
  for (const lang of LANGUAGES) {
    const option = h("option", { value: lang }, LANGUAGE_NAMES[lang]);
    if (lang === language) option.selected = true;
    select.append(option);
  }
  return select;
}

export const LANGUAGE_NAMES = { en: "English", nl: "Nederlands", fr: "Français", de: "Deutsch" };

/** Whether this screen's language was chosen on it (the switch, or ?lang= in the address). */
export function chosenHere() {
  return LANGUAGES.includes(new URLSearchParams(location.search).get("lang"))
    || LANGUAGES.includes(localStorage.getItem(LANG_KEY));
}

// -- DOM helpers ---------------------------------------------------------------------------------

/** Create an element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// -- identifiers ---------------------------------------------------------------------------------

/** A random command id. crypto.randomUUID needs https; getRandomValues works everywhere. */
export function newId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- the connection ------------------------------------------------------------------------------

/**
 * Connect to the table. handlers: state(message), notice(notice), fatal(error), status(online).
 * Returns {send(type, fields) -> Promise<answer>, reconnect(auth), socket}.
 */
export function connectTable(auth, handlers) {
  let latest = null;
  let stopped = false;
  const socket = io({
    auth,
    // WebSocket first (the LAN always has it); long-polling only if it fails
    transports: ["websocket", "polling"],
    reconnection: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 3000,
    timeout: 8000,
  });

  const status = (online) => handlers.status && handlers.status(online);

  socket.on("connect", () => status(true));
  socket.on("disconnect", (reason) => {
    status(false);
    if (reason === "io server disconnect" && !stopped) socket.connect();
  });
  socket.on("connect_error", (err) => {
    const data = err && err.data;
    if (data && (data.code === "bad_token" || data.code === "bad_code")) {
      stopped = true;
      socket.disconnect();
      handlers.fatal && handlers.fatal(data);
      return;
    }
    status(false);
  });
  const take = (message, isSnapshot) => {
    if (!isSnapshot && latest && message.seq <= latest.seq) return; // an older copy
    latest = message;
    handlers.state(message);
  };
  socket.on("snapshot", (m) => take(m, true));
  socket.on("update", (m) => take(m, false));
  // Patches against the last message (server/static/patch.js); a gap asks for a snapshot.
  socket.on("patch", (p) =>
    onPatch(p, latest, (m) => take(m, false), () =>
      socket.emit("snapshot", (s) => s && s.table && take(s, true)),
    ),
  );
  socket.on("notice", (n) => handlers.notice && handlers.notice(n));
  for (const event of ["replaced", "revoked"]) {
    socket.on(event, (data) => {
      stopped = true;
      handlers.fatal && handlers.fatal(data);
    });
  }

  // A phone that wakes up or a tab that becomes visible reconnects at once.
  const wake = () => {
    if (!stopped && !socket.connected) socket.connect();
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") wake();
  });
  window.addEventListener("online", wake);
  // While the phone has no network at all, do not keep knocking: wait for "online".
  window.addEventListener("offline", () => {
    if (socket.connected || socket.active) socket.disconnect();
    status(false);
  });
  window.addEventListener("pageshow", wake);
  window.addEventListener("focus", wake);

  function send(type, fields = {}) {
    const payload = { type, id: newId(), version: latest ? latest.version : 0, ...fields };
    return new Promise((resolve) => {
      if (!socket.connected) {
        resolve({ ok: false, error: { code: "offline", message: "Not connected.", params: {} } });
        return;
      }
      socket.timeout(10000).emit("command", payload, (err, answer) => {
        if (err) {
          resolve({ ok: false, error: { code: "timeout", message: "No answer.", params: {} } });
          return;
        }
        if (!answer.ok && answer.error.code === "stale_version" && (!latest || latest.version < answer.version)) {
          // the table moved on and this page has not heard yet: fetch the whole picture now
          socket.timeout(10000).emit("snapshot", (e, snapshot) => {
            if (!e && snapshot && snapshot.table) take(snapshot, true);
          });
        }
        resolve(answer);
      });
    });
  }

  function reconnect(newAuth) {
    stopped = false;
    socket.auth = newAuth;
    latest = null;
    socket.disconnect();
    socket.connect();
  }

  return { send, reconnect, socket, latest: () => latest };
}

/** The translated sentence for an error answer. */
export function errorText(error) {
  if (!error) return "";
  const key = `errors.${error.code}`;
  if (!has(key)) return error.message;
  const params = { ...(error.params || {}) };
  // game words inside an error are translated too (the server speaks in its own terms)
  if (STONES.includes(params.stone)) params.stone = t(`stone.${params.stone}`);
  if (typeof params.phase === "string") params.phase = t(`phase.${params.phase}`);
  return t(key, params);
}

// -- game words shared by both pages --------------------------------------------------------------

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

/** A player's badge: colour, symbol and name. */
export function seatBadge(seatInfo, extra = "") {
  if (!seatInfo) return h("span", { class: "badge" }, "?");
  return h(
    "span",
    { class: `badge colour-${seatInfo.colour} ${extra}` },
    h("span", { class: "symbol", "aria-hidden": "true" }, seatInfo.symbol),
    " ",
    seatInfo.name,
  );
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

/** One event of the game's log, in words. */
export function logLine(event, seats) {
  const who = (seat) => (seats[seat] ? `${seats[seat].symbol} ${seats[seat].name}` : "?");
  const stones = (list) => list.map((s) => t(`stone.${s}`)).join(", ");
  const placed = (byField) =>
    Object.entries(byField || {})
      .map(([field, kinds]) =>
        `${field}: ` +
        Object.entries(kinds)
          .map(([stone, n]) => `${n} ${t(`stone.${stone}`)}`)
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
      return null;
  }
}

// -- icons: drawn here, so they look the same on every phone (no emoji font needed) ------------------

const ICONS = {
  // Thor's hammer, as on the amulets
  amulet: "M4 3h16v6h-6v12h-4V9H4z",
  cards: "M7 3h11a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm-3 3h1v14h11v1H5a1 1 0 0 1-1-1z",
  viking: "M12 3c-4 0-7 3-7 7v3h14v-3c0-4-3-7-7-7zM3 6l3 3-1 2zM21 6l-3 3 1 2zM6 14h12v3a3 3 0 0 1-3 3H9a3 3 0 0 1-3-3z",
  shield: "M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z",
  hospital: "M9 3h6v6h6v6h-6v6H9v-6H3V9h6z",
  star: "M12 2l3 7h7l-5.5 4.5 2 7.5L12 17l-6.5 4 2-7.5L2 9h7z",
  // the three siege fields, as drawn on the board: a catapult, a longship, a battering ram
  catapult: "M2 17h15v2H2zM4 20.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM11 20.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM6 16l11-11 1.4 1.4-11 11zM16 4.5a3 3 0 1 0 6 0a3 3 0 1 0-6 0zM17 17V9h2v8z",
  boat: "M1 13h22l-3.5 6h-15zM11 2h2v11h-2zM5 4h14l-1.5 7h-11z",
  ram: "M1 8h15l6 3-6 3H1zM4 14h2v3H4zM11 14h2v3h-2zM2 19.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM10 19.5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM3 16h12v2H3z",
  // an hourglass: this player is the one the table waits for
  turn: "M5 2h14v2h-1.5v3.5L13.5 12l4 4.5V20H19v2H5v-2h1.5v-3.5l4-4.5-4-4.5V4H5zM8.5 4v2.8l3.5 4 3.5-4V4zM12 14.5l-3.5 3V20h7v-2.5z",
};

export function icon(name, label = "") {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}
