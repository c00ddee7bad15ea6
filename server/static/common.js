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

/**
 * Translate a key, filling {placeholders} from params. A missing key shows as ⟦key⟧.
 *
 * A number that changes the words takes its plural forms in the catalog, in the ICU way:
 * "{n, plural, one {# card} other {# cards}}" picks the form the browser's plural rules
 * (Intl.PluralRules) give for params.n in the page's language; "=0 {…}" matches one number
 * exactly, "other" is the fallback, and # stands for the number.
 */
export function t(key, params = {}) {
  const text = lookup(catalog, key);
  if (text !== undefined) return fillText(text, params, language);
  if (!missing.has(key)) {
    missing.add(key);
    console.warn(`missing translation: ${language}:${key}`);
  }
  const english = lookup(fallback, key);
  return english === undefined ? `⟦${key}⟧` : fillText(english, params, "en");
}

const pluralRules = new Map();

/** The plural category ("one", "few", "other"...) of a number in a language. */
export function pluralCategory(value, lang = language) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(value);
}

/** Where the brace opened at ``open`` closes (braces nest), or -1. */
function closingBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

const PLURAL_HEAD = /^\s*(\w+)\s*,\s*plural\s*,/;
const PLURAL_FORM = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/;

/** Fill {placeholders} and {n, plural, …} choices of a catalog text. */
export function fillText(text, params, lang = language) {
  let out = "";
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf("{", at);
    const close = open < 0 ? -1 : closingBrace(text, open);
    if (close < 0) return out + text.slice(at);
    out += text.slice(at, open) + fillOne(text.slice(open + 1, close), params, lang);
    at = close + 1;
  }
  return out;
}

function fillOne(inner, params, lang) {
  const head = PLURAL_HEAD.exec(inner);
  if (!head) {
    const value = params[inner];
    if (value === undefined) return `{${inner}}`;
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  const value = Number(params[head[1]]);
  if (params[head[1]] === undefined || Number.isNaN(value)) return `{${inner}}`;
  const forms = {};
  let rest = inner.slice(head[0].length);
  for (let form = PLURAL_FORM.exec(rest); form; form = PLURAL_FORM.exec(rest)) {
    const start = form[0].length - 1;
    const end = closingBrace(rest, start);
    if (end < 0) break;
    forms[form[1]] = rest.slice(start + 1, end);
    rest = rest.slice(end + 1);
  }
  const chosen = forms[`=${value}`] ?? forms[pluralCategory(value, lang)] ?? forms.other;
  return chosen === undefined ? `{${inner}}` : fillText(chosen.replaceAll("#", String(value)), params, lang);
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

// The language asked for last, while its catalogs are on their way ({lang, loading}): only the
// last one asked is taken, and asking for it again meanwhile waits for the same catalogs.
let asked = null;

export function loadLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  // each update that comes while the host's choice is on its way asks for it again: a new
  // request each time would put it off for as long as updates come faster than its answer
  if (asked && asked.lang === lang && !remember) return asked.loading;
  const ask = { lang };
  asked = ask;
  ask.loading = takeLanguage(ask, remember);
  return ask.loading;
}

async function takeLanguage(ask, remember) {
  let lang = ask.lang;
  // English (every page's fallback, preloaded by its <head>) and the language asked for at once:
  // one after the other, each is a round trip of a phone's Wi-Fi before its first screen
  const [english, own] = await Promise.allSettled([
    fallback.lang ? fallback : fetchCatalog("en"),
    lang === "en" ? null : fetchCatalog(lang),
  ]);
  // the host chose again meanwhile (Dutch, then French at once): a slow catalog that comes
  // after the later one's must not put the page back in the language chosen before
  if (asked !== ask) return;
  asked = null;
  if (english.status === "rejected") throw english.reason;
  fallback = english.value;
  if (own.status === "fulfilled") {
    catalog = own.value || fallback;
  } else {
    console.warn(`no catalog for ${lang}, using English: ${own.reason}`);
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

/** ``draw`` at most once a frame, with whatever is latest when the frame comes: updates often
 * come several to a frame (a move, its patch, the next phase), and only the last is shown. */
export function oncePerFrame(draw) {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    requestAnimationFrame(() => {
      asked = false;
      draw();
    });
  };
}

// Form fields: what is typed or picked in one lives in the element, not in its attributes.
const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
// A box that opens (<details>): the player opens and closes it, and its ``open`` attribute
// follows. The state the page last knew (``__open``: what it asked for, or what the box's toggle
// event told it) is kept on the box, and ``show`` changes the box only where the page asks for
// another: a redraw that comes between the tap and its toggle event (the event comes a moment
// after the tap) leaves the box as the player left it.

/** Create an element: h("button", {class: "x", onclick: f}, "text", child, ...). Its handlers
 * are kept on the element (``__on``) behind one listener, so that ``show`` can hand them to the
 * element already on the screen. An element with handlers or a form field, and every element
 * holding one, is marked ``__live``: ``show`` looks inside it even where it looks the same. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  if (FIELDS.has(el.tagName)) el.__live = true;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      if (!el.__on) el.__on = {};
      el.__on[key.slice(2)] = value;
      el.__live = true;
      el.addEventListener(key.slice(2), dispatch);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "style" && typeof value === "object") {
      // through the CSSOM, which the pages' Content-Security-Policy allows (a style attribute
      // written as text it blocks); custom properties (--name) only through setProperty
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith("--")) el.style.setProperty(name, v);
        else el.style[name] = v;
      }
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value);
    }
  }
  if (el.tagName === "DETAILS") {
    el.__open = el.open;
    el.addEventListener("toggle", toggled);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) {
      append(el, child);
    } else if (child instanceof Node) {
      if (child.__live) el.__live = true;
      el.append(child);
    } else {
      el.append(document.createTextNode(String(child)));
    }
  }
}

function toggled() {
  this.__open = this.open;
}

function dispatch(event) {
  // a box built for a redraw and never shown still tells of the state it was built in
  if (event.type === "toggle" && !this.isConnected) return undefined;
  const handler = this.__on && this.__on[event.type];
  return handler ? handler.call(this, event) : undefined;
}

/** Show ``children`` in ``container`` (built afresh with ``h`` at each update), changing on the
 * screen only what differs from what it shows: a changed text, attribute or handler, an element
 * added or gone. An update to a full screen then costs the browser a few nodes' style and
 * layout instead of the whole page's (on a Pi's kiosk or an old phone, the difference between a
 * frame and a tenth of a second), and what the player is doing stays as it is: the field being
 * typed in, its cursor, the scroll, the button under the finger. */
export function show(container, children) {
  const fresh = document.createElement(container.tagName);
  append(fresh, children);
  morphChildren(container, fresh);
}

function morphChildren(old, fresh) {
  let there = old.firstChild;
  let node = fresh.firstChild;
  while (node) {
    const next = node.nextSibling; // before ``node`` moves out of ``fresh``
    if (!there) {
      old.appendChild(node);
    } else if (!node.__live && !there.__live && there.isEqualNode(node)) {
      there = there.nextSibling; // nothing to change in it (the browser compares, natively)
    } else if (next && !next.__live && !there.__live && there.isEqualNode(next)) {
      old.insertBefore(node, there); // one more ahead, such as a log's newest line
    } else if (!there.__live && !node.__live && there.nextSibling?.isEqualNode(node)) {
      const after = there.nextSibling; // one gone, such as a log's oldest line
      old.removeChild(there);
      there = after;
      continue; // ``node`` again, against the node that equals it
    } else if (!same(there, node)) {
      // an element in use (a field, a box, a button) stays when one comes or goes ahead of it;
      // where one came and one went would fit as well, the counts left decide, and one without
      // an id is never taken for the one after a new one of its kind
      const after = there.nextSibling;
      const both = after && next && same(after, next);
      const more = both ? left(node) - left(there) : 0;
      if (next && there.__live && same(there, next) && (!both || more > 0)
          && (there.id || there.nodeName !== node.nodeName)) {
        old.insertBefore(node, there);
      } else if (after && after.__live && same(after, node) && (!both || more < 0)) {
        old.removeChild(there);
        there = after;
        continue; // ``node`` again, against the element in use
      } else {
        old.replaceChild(node, there);
        there = after;
      }
    } else {
      if (node.nodeType === Node.ELEMENT_NODE) morph(there, node);
      else if (there.data !== node.data) there.data = node.data;
      there = there.nextSibling;
    }
    node = next;
  }
  while (there) {
    const after = there.nextSibling;
    old.removeChild(there);
    there = after;
  }
}

/** How many nodes there are from ``node`` to the end of its list. */
function left(node) {
  let count = 0;
  for (; node; node = node.nextSibling) count++;
  return count;
}

/** Whether ``there`` can become ``node`` in place: the same kind of node, the same tag and id. */
function same(there, node) {
  if (there.nodeType !== node.nodeType || there.nodeName !== node.nodeName) return false;
  return node.nodeType !== Node.ELEMENT_NODE || there.id === node.id;
}

function morph(old, fresh) {
  const box = old.tagName === "DETAILS";
  const had = old.attributes;
  for (let i = had.length - 1; i >= 0; i--) {
    if (!fresh.hasAttribute(had[i].name) && !(box && had[i].name === "open")) old.removeAttribute(had[i].name);
  }
  if (box) {
    if (fresh.__open !== old.__open) old.open = fresh.__open; // the page's own change
    old.__open = fresh.__open;
  }
  const wanted = fresh.attributes;
  let valueChanged = false;
  for (let i = 0; i < wanted.length; i++) {
    const { name, value } = wanted[i];
    if (old.getAttribute(name) === value || (box && name === "open")) continue;
    // a style through the CSSOM: the pages' Content-Security-Policy blocks one written as text
    if (name === "style") old.style.cssText = fresh.style.cssText;
    else old.setAttribute(name, value);
    if (name === "value" || name === "checked") valueChanged = true;
  }
  // a field the page set anew takes that value; one it left alone keeps what is typed in it
  if (valueChanged && "value" in fresh) old.value = fresh.value;
  if (valueChanged && "checked" in fresh) old.checked = fresh.checked;
  const on = fresh.__on;
  old.__on = on;
  old.__live = fresh.__live;
  if (on) for (const type in on) old.addEventListener(type, dispatch);
  if (old.firstChild || fresh.firstChild) morphChildren(old, fresh);
  if (old.tagName === "SELECT" && old.value !== fresh.value) old.value = fresh.value;
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
 * Connect to the table. handlers: state(message), notice(notice), fatal(error), status(online),
 * and on the Pi's own table display hostClaim({number, until}).
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

  // A connection the server refused for now (too many attempts from this address, an error of
  // its own) is asked again 1, 2, 4, then every 8 s: after a refusal socket.io-client gives the
  // socket up, where after a lost link it tries again by itself.
  let refusals = 0;
  let askAgain = null;
  socket.on("connect", () => {
    refusals = 0;
    clearTimeout(askAgain);
    status(true);
  });
  socket.on("disconnect", (reason) => {
    status(false);
    if (reason === "io server disconnect" && !stopped) socket.connect();
  });
  socket.on("connect_error", (err) => {
    const data = err && err.data;
    if (data && ["bad_token", "bad_code", "kicked"].includes(data.code)) {
      stopped = true;
      socket.disconnect();
      handlers.fatal && handlers.fatal(data);
      return;
    }
    status(false);
    if (data) {
      clearTimeout(askAgain);
      askAgain = setTimeout(wake, 1000 * Math.min(8, 2 ** refusals++));
    }
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
  // only the Pi's own table display is sent this: the number that makes a phone the host
  socket.on("host_claim", (c) => handlers.hostClaim && handlers.hostClaim(c));
  for (const event of ["replaced", "revoked"]) {
    socket.on(event, (data) => {
      stopped = true;
      handlers.fatal && handlers.fatal(data);
    });
  }

  // A phone that wakes up or a tab that becomes visible reconnects at once. Not while the socket
  // is still connecting, or reconnecting by itself (``active``): socket.io-client would then send
  // the server a second connect for the same connection, which the server refuses, and that
  // refusal ends the first one too (a reloaded page's "pageshow" or "focus" often comes then).
  const wake = () => {
    if (!stopped && !socket.connected && !socket.active) socket.connect();
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
        const stale = ["stale_version", "proxy_refused"].includes(answer.error && answer.error.code);
        if (!answer.ok && stale && (!latest || latest.version < answer.version)) {
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
  // game words inside an error are translated too (the server speaks in its own terms)
  const params = gameWords({ ...(error.params || {}) });
  if (typeof params.game === "string" && has(`games.${params.game}`)) params.game = t(`games.${params.game}`);
  return t(key, params);
}

let gameWords = (params) => params;

/** Let the game being played translate its own words inside error parameters (a stone, a
 * phase): each game's page module registers its function when it is loaded. */
export function setGameWords(translate) {
  gameWords = translate || ((params) => params);
}

/** How long a game's module waits for each of its style sheets before it draws without it. */
const SHEET_PATIENCE_MS = 5000;

/** How long to wait before asking again for a file of a game (its module, a style sheet) that
 * could not be fetched ``tries`` times: 1, 2, 4, then every 8 s. */
function retryDelay(tries) {
  return 1000 * Math.min(8, 2 ** tries);
}

/** Add a style sheet of this server to the page; settled once it is in force, or after
 * SHEET_PATIENCE_MS. A game's module awaits its sheets at its top, so that it is ready only once
 * they are: its first screen is never drawn unstyled, with its pieces out of place until the
 * sheet comes. A sheet that has not come within SHEET_PATIENCE_MS (its request stalled on a
 * Wi-Fi that dropped, or failed and not yet back) no longer holds the game's screen back: it is
 * drawn, and styled once the sheet comes. A sheet that could not be fetched is asked for again
 * (``retryDelay``) for as long as the page lives, each time at an address of its own
 * (``?retry=N``): a table display has no one to reload it. */
export function styleSheet(href) {
  return new Promise((resolve) => {
    let tries = 0;
    const ask = () => {
      const url = new URL(href, document.baseURI);
      if (tries) url.searchParams.set("retry", String(tries));
      const sheet = h("link", { rel: "stylesheet", href: url.href });
      sheet.addEventListener("load", resolve);
      sheet.addEventListener("error", () => {
        sheet.remove();
        console.warn(`the style sheet ${href} did not load; asking again`);
        setTimeout(ask, retryDelay(tries++));
      });
      document.head.append(sheet);
    };
    setTimeout(resolve, SHEET_PATIENCE_MS);
    ask();
  });
}

/** Each page's game modules: ``folder`` holds one module per game (``<id>.js``), loaded the
 * first time the table plays that game; ``redraw`` runs once one has arrived. */
export function gameLoader(folder, redraw) {
  const games = {};
  const loading = {};
  const failures = {}; // by game: how many times its module could not be fetched
  /** The page module of game ``id``, or null while it loads (the page redraws once it is here).
   * A module that could not be fetched (the server restarting, the Wi-Fi gone a moment) is asked
   * for again (``retryDelay``) while the page still needs it: a table display has no one to
   * reload it. Each retry has an address of its own (``?retry=N``), as some browsers keep a
   * failed module's failure for its address. A module that fails otherwise (an error in it) is
   * an error, not retried. */
  function gameModule(id) {
    if (games[id]) return games[id];
    if (!/^[a-z0-9_]+$/.test(id || "")) return null;
    if (!loading[id]) {
      const tries = failures[id] || 0;
      loading[id] = import(`${folder}${id}.js${tries ? `?retry=${tries}` : ""}`).then((module) => {
        if (module.default.id !== id) throw new Error(`games/${id}.js registers ${module.default.id}`);
        games[id] = module.default;
        redraw();
      }, (err) => {
        if (!(err instanceof TypeError)) { // not a failed fetch: the module itself is wrong
          console.error(`no page module for ${id}: ${err}`);
          return;
        }
        failures[id] = tries + 1;
        console.warn(`the page module for ${id} did not load (${err}); asking again`);
        setTimeout(() => { delete loading[id]; redraw(); }, retryDelay(tries));
      });
    }
    return null;
  }
  /** The module of the game being played (or last played) on the table of message ``msg``, once
   * loaded; it also speaks the game's words inside error messages and notices. */
  function currentGame(msg) {
    if (!msg) return null;
    const table = msg.table;
    let id = null; // the lobby needs no game's module: it is loaded when the game starts
    if (table.status === "playing" && msg.game) id = table.game;
    else if (table.status === "over" && table.result) id = table.result.game || table.game;
    const module = id ? gameModule(id) : null;
    setGameWords(module && module.errorWords);
    return module;
  }
  return { gameModule, currentGame };
}

/** What the host's last take-back undid, for every screen until the game's next move
 * (``table.taken_back``): whose move, what it had done in the game's log (in the game's own
 * words, ``words``), and whose revealed choices everyone had seen before they were hidden again.
 * ``name`` names a seat. Null when nothing was taken back. */
export function takenBack(table, words, name) {
  const taken = table.taken_back;
  if (!taken) return null;
  const lines = (taken.events || []).map((event) => (words ? words(event) : null)).filter(Boolean);
  return h("section", { class: "panel taken-back", id: "taken-back", role: "status" },
    h("p", {}, h("strong", {}, taken.seat === null ? t("taken_back.table") : t("taken_back.seat", { name: name(taken.seat) }))),
    lines.length ? h("ul", {}, lines.map((line) => h("li", {}, line))) : null,
    taken.revealed.length ? h("p", { class: "warn" }, t("taken_back.seen", { names: taken.revealed.map(name).join(", ") })) : null);
}

/** A line of the game's log that every game may hold: the table's own steps (the host moving on
 * past players still deciding), or null. ``who`` names a seat. */
export function sharedLogLine(event, who) {
  if (event.e === "moved_on") return t("log.moved_on", { names: event.seats.map(who).join(", ") });
  return null;
}

/** A game's player count and playing time, in words ("2–4 players · 30–60 minutes"). */
export function gameFacts(facts, key) {
  const span = (low, high) => (low === high ? String(low) : `${low}–${high}`);
  return t(key, { players: span(facts.min_players, facts.max_players), minutes: span(...facts.minutes) });
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

// -- icons: drawn here, so they look the same on every phone (no emoji font needed) ------------------

const ICONS = {
  cards: "M7 3h11a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm-3 3h1v14h11v1H5a1 1 0 0 1-1-1z",
  viking: "M12 3c-4 0-7 3-7 7v3h14v-3c0-4-3-7-7-7zM3 6l3 3-1 2zM21 6l-3 3 1 2zM6 14h12v3a3 3 0 0 1-3 3H9a3 3 0 0 1-3-3z",
  shield: "M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z",
  star: "M12 2l3 7h7l-5.5 4.5 2 7.5L12 17l-6.5 4 2-7.5L2 9h7z",
  // an hourglass: this player is the one the table waits for
  turn: "M5 2h14v2h-1.5v3.5L13.5 12l4 4.5V20H19v2H5v-2h1.5v-3.5l4-4.5-4-4.5V4H5zM8.5 4v2.8l3.5 4 3.5-4V4zM12 14.5l-3.5 3V20h7v-2.5z",
};

/** Add a game's own icons (SVG paths on a 24 x 24 grid), by name. */
export function addIcons(paths) {
  Object.assign(ICONS, paths);
}

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
