// The clients of bench/serving.py, for both servers, in one Node process as a browser's:
// socket.io-client 4 over the `ws` package, which asks for permessage-deflate like every browser.
//
//   node serving_clients.js bgio PORT ITERS SPECTATORS SERVER_PID
//   node serving_clients.js longhall PORT ITERS SPECTATORS SERVER_PID TOKENS_JSON
//
// 6 seated phones, 1 table display and SPECTATORS spectators. After 20 warm-up commands, ITERS
// commands are timed, one at a time, from the moment one is sent until every client has the new
// state. boardgame.io: seat 0's `bump` move of ../shared/peers/boardgameio (the same loop as its
// clients.js). Longhall: a real 6-player game of Eketorp, each command chosen at random among the
// acting phone's legal moves in its own view. Prints one line of JSON: latencies, the server's CPU
// time per command over the timed commands (from /proc), the bytes one phone received per
// command on the wire (after compression, WebSocket frames included), and (Longhall) the five
// slowest commands: what makes the 99th percentile.
'use strict';
const fs = require('fs');
const { io } = require('socket.io-client');

const [mode, portArg, itersArg, specsArg, pidArg, tokensArg] = process.argv.slice(2);
const port = Number(portArg), iters = Number(itersArg), specs = Number(specsArg), pid = Number(pidArg);
const WARMUP = 20;
const TICK = 100; // clock ticks per second (getconf CLK_TCK on Linux)

function cpuSeconds() {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // utime + stime
}

function wireBytes(socket) {
  const transport = socket.io.engine && socket.io.engine.transport;
  const raw = transport && transport.ws && transport.ws._socket;
  return raw ? raw.bytesRead : 0;
}

// The bytes of the messages a socket received, as the application reads them (after inflating).
function countPayload(socket) {
  const counter = { bytes: 0 };
  socket.io.engine.on('packet', (p) => {
    if (p.type === 'message' && typeof p.data === 'string') counter.bytes += Buffer.byteLength(p.data);
  });
  return counter;
}

function summary(name, lat, cpu, bytes, extra) {
  lat.sort((a, b) => a - b);
  const q = p => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { server: name, clients: 7 + specs, iters: lat.length, p50_ms: q(0.5), p99_ms: q(0.99),
    max_ms: lat[lat.length - 1], cpu_ms_per_command: (cpu * 1000) / lat.length,
    phone_bytes_per_command: bytes / lat.length, ...extra };
}

async function bgio() {
  const { Client } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const { Ping } = require('./game');
  const base = `http://127.0.0.1:${port}`, api = `http://127.0.0.1:${port + 1}`;
  const post = async (path, body) => (await fetch(api + path, { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const { matchID } = await post('/games/ping/create', { numPlayers: 6 });
  const clients = [];
  for (let i = 0; i < 6; i++) {
    const { playerCredentials } = await post(`/games/ping/${matchID}/join`, { playerID: String(i), playerName: `p${i}` });
    clients.push(Client({ game: Ping, matchID, playerID: String(i), credentials: playerCredentials, multiplayer: SocketIO({ server: base }), debug: false }));
  }
  for (let i = 0; i < 1 + specs; i++) clients.push(Client({ game: Ping, matchID, multiplayer: SocketIO({ server: base }), debug: false }));
  clients.forEach(c => c.start());
  const waitAll = (n) => Promise.all(clients.map(c => new Promise(res => {
    const check = () => { const s = c.getState(); if (s && s.G.n >= n) { unsub(); res(); } };
    const unsub = c.subscribe(check); check();
  })));
  await waitAll(0);
  for (let k = 0; k < WARMUP; k++) { const w = waitAll(k + 1); clients[0].moves.bump(); await w; }
  const phone = clients[1].transport.socket;
  const payload = countPayload(phone);
  const lat = [], cpu0 = cpuSeconds(), bytes0 = wireBytes(phone);
  for (let k = WARMUP; k < WARMUP + iters; k++) {
    const w = waitAll(k + 1); const t0 = process.hrtime.bigint();
    clients[0].moves.bump(); await w;
    lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const result = summary('boardgame.io 0.50.2', lat, cpuSeconds() - cpu0, wireBytes(phone) - bytes0,
    { deflate: phone.io.engine.transport.ws._extensions['permessage-deflate'] !== undefined,
      phone_payload_bytes_per_command: payload.bytes / lat.length });
  clients.forEach(c => c.stop());
  return result;
}

// A Longhall screen: applies snapshots, updates and patches (the logic of server/static/patch.js).
class Screen {
  constructor(auth, patch) {
    this.version = -1; this.view = null; this.seq = -1; this.waiters = [];
    this.socket = io(`http://127.0.0.1:${port}`, { auth, transports: ['websocket', 'polling'], reconnection: false });
    const full = (m) => { this.view = m; this.seq = m.seq; this.arrived(m.version); };
    this.socket.on('snapshot', full);
    this.socket.on('update', full);
    this.socket.on('patch', (m) => {
      if (m.base !== this.seq) {
        this.socket.emit('snapshot', (s) => full(s));
        return;
      }
      const view = patch.applyPatch(this.view, m.ops);
      view.seq = m.seq; view.version = m.version;
      full(view);
    });
  }
  arrived(version) {
    this.version = Math.max(this.version, version);
    this.waiters = this.waiters.filter(([v, res]) => (this.version >= v ? (res(), false) : true));
  }
  until(version) { return new Promise(res => { this.waiters.push([version, res]); this.arrived(-1); }); }
  command(body) { return new Promise(res => this.socket.emit('command', body, res)); }
}

async function longhall() {
  const patch = await import(process.env.PATCH_JS);
  const tokens = JSON.parse(fs.readFileSync(tokensArg, 'utf8'));
  const phones = tokens.map(token => new Screen({ token }, patch));
  const screens = [...phones];
  for (let i = 0; i < 1 + specs; i++) screens.push(new Screen({}, patch));
  await Promise.all(screens.map(s => s.until(0)));
  let rnd = 3;
  const random = (n) => { rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd % n; };
  let id = 0;
  const send = async (phone, type, fields) => {
    const ack = await phone.command({ type, id: `bench-${++id}-xxxxxxxx`, version: phone.view.version, ...fields });
    if (!ack.ok) throw new Error(JSON.stringify(ack));
    return ack.version;
  };
  let version = await send(phones[0], 'start', {});
  await Promise.all(screens.map(s => s.until(version)));
  const next = () => {
    for (let seat = 0; seat < 6; seat++) {
      const game = phones[seat].view.game;
      if (game.public.active.includes(seat)) {
        const legal = game.legal.filter(a => !a.undo);
        if (legal.length) return [phones[seat], 'act', { action: legal[random(legal.length)] }];
      }
    }
    return [phones[0], 'table', { action: { type: phones[0].view.game.public.table_actions[0] } }];
  };
  const lat = [], timed = []; // timed: [ms, what the command was], for the slowest few
  let cpu0 = 0, bytes0 = 0, payload = { bytes: 0 };
  for (let k = 0; k < WARMUP + iters; k++) {
    if (phones[0].view.table.status !== 'playing') break;
    if (k === WARMUP) { cpu0 = cpuSeconds(); bytes0 = wireBytes(phones[1].socket); payload = countPayload(phones[1].socket); }
    const [phone, type, fields] = next();
    const target = version + 1;
    const t0 = process.hrtime.bigint();
    const all = Promise.all(screens.map(s => s.until(target)));
    version = await send(phone, type, fields);
    await all;
    if (k >= WARMUP) {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      lat.push(ms);
      timed.push([ms, type === 'act' ? fields.action.type : `${type}:${fields.action.type}`]);
    }
  }
  timed.sort((a, b) => b[0] - a[0]);
  const result = summary('Longhall', lat, cpuSeconds() - cpu0, wireBytes(phones[1].socket) - bytes0,
    { deflate: phones[1].socket.io.engine.transport.ws._extensions['permessage-deflate'] !== undefined,
      phone_payload_bytes_per_command: payload.bytes / lat.length, slowest: timed.slice(0, 5) });
  screens.forEach(s => s.socket.disconnect());
  return result;
}

(mode === 'bgio' ? bgio() : longhall())
  .then(r => { console.log(JSON.stringify(r)); process.exit(0); })
  .catch(e => { console.error(e); process.exit(1); });
