// The browser client of hundred_server: protocol.md's JSON messages over the /ws
// WebSocket of the page's own host, one message a text frame.
//
// Everything the page shows comes from what the server sends: the create options
// (`Option n - ...` lines), the tables (`Tables`, `Table`), each prompt's `Legal`, the
// announcements and scores. What the wire does not say (a game's title, how its
// cards look, its side names, its trump colours) is in GAMES, one small entry
// a game (games.js). Server strings reach the DOM as text nodes only, never as markup
// (dom.js).

import { COLOURS, cardEl, parseCard, rookDeck, suitEl, suitLabel } from "./cards.js";
import { $, el } from "./dom.js";
import { DEFAULT_GAME, GAMES, GAME_ORDER, gameTitle } from "./games.js";

const NAME_RE = /^[A-Za-z0-9_.\- ]{1,20}$/;
const TABLE_NAME_RE = /^[A-Za-z0-9_.\-' ]{1,30}$/;
const OPTION_RE = /^Option (\d+) - (.*)$/;
const CUSTOM_RE = /^A table of your choice(?:: Seats \((\d+)-(\d+)\)(.*))?/;
const LOBBY_QUESTION_RE = /^Do you want to join a game/;
const STORE_TOKEN = "hundred.seat";
const STORE_NAME = "hundred.name";
const STORE_MUTED = "hundred.muted";
const POLL_TABLES_MS = 4000;
const LOG_LINES = 60;
const CHAT_LINES = 80;

// ------------------------------------------------------------------ state

const state = {
  socket: null,
  conn: "connecting", // connecting | open | reconnecting
  retries: 0,
  leaving: false, // we said quit: the server closes, we come back to the lobby
  greeted: false, // this connection has had its first Hello prompt
  reclaiming: false,
  view: "lobby", // lobby | table
  game: DEFAULT_GAME, // the game tab in the lobby
  options: {}, // game -> [{n, text, custom}]
  optionsFor: [], // the games whose options we asked for, in order
  optionLines: [],
  tables: [], // the open tables (Hello join)
  watchable: [], // the tables that take watchers (Hello watch: "Watch":true)
  notice: "", // why we are back in the lobby (a table closed...)
  canWatch: true, // false once the server refuses Hello watch (a server without it)
  watchListed: false, // the server has sent a watch list
  errorAt: "create", // where the next Error is shown: the element of what caused it
  table: null, // the Table message
  watching: false,
  pendingWatch: null,
  seat: null,
  seatTable: null, // the table our seat is at (Seat comes before Table on a reclaim)
  badName: null, // a name the server refused: not sent again until it is changed
  muted: new Set(),
  chat: [],
  g: freshGame(),
};

/** What one game at one table looks like to us: reset on a new table. */
function freshGame() {
  return {
    players: [],
    hand: [],
    dealer: null,
    round: null,
    bids: {}, // seat -> label
    passed: new Set(),
    bidder: null,
    highBid: null,
    trump: null,
    trumpCard: null,
    exchanged: {}, // seat -> count
    trick: [], // [{seat, card}]
    trickWinner: null,
    trickDone: false,
    lastTrick: null,
    tricksTaken: {}, // seat -> n (this round)
    tricksWon: null, // by side, this round (Whist)
    meld: {}, // seat -> {cards, amount}
    kitty: null,
    called: [],
    partners: new Set(),
    pointsInDiscard: null,
    pile: null,
    total: null,
    score: null,
    scoreMsg: null, // the last round's Score message
    prompt: null, // the pending prompt (any seat's)
    promptAt: 0, // performance.now() when it came (TimeLeft counts from then)
    sentSeq: null, // we answered this Seq; waiting for the server
    error: "",
    selected: new Set(), // indexes into the hand: a discard / setup being built
    setupTrump: null,
    setupCalls: [],
    highlight: 0,
    prePassed: false,
    gameOver: null,
    reveal: null,
    commit: null,
    log: [],
  };
}

// ------------------------------------------------------------------ storage

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch (_) {
    /* private mode: the page still plays, without coming back after a reload */
  }
}

function load(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch (_) {
    return null;
  }
}

function savedToken() {
  const saved = load(STORE_TOKEN);
  return saved && typeof saved.token === "string" ? saved : null;
}

// ------------------------------------------------------------------ connection

function wsURL() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

function connect() {
  state.greeted = false;
  state.reclaiming = false;
  let socket;
  try {
    socket = new WebSocket(wsURL());
  } catch (_) {
    scheduleReconnect();
    return;
  }
  state.socket = socket;
  socket.addEventListener("open", () => {
    if (state.socket !== socket) return;
    state.conn = "open";
    state.retries = 0;
    renderStatus();
  });
  socket.addEventListener("message", (event) => {
    if (state.socket !== socket || typeof event.data !== "string") return;
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    if (msg && typeof msg === "object" && typeof msg.Type === "string") {
      handle(msg);
      render();
    }
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket) return;
    state.socket = null;
    if (state.leaving) {
      state.leaving = false;
      connect(); // a fresh connection, back in the lobby
      return;
    }
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  state.conn = "reconnecting";
  renderStatus();
  const delay = Math.min(5000, 300 * 2 ** state.retries);
  state.retries += 1;
  setTimeout(connect, delay);
}

/** Send a message; `errorAt` names where an Error in reply is shown. */
function send(msg, errorAt) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
  if (errorAt) state.errorAt = errorAt;
  state.socket.send(JSON.stringify(msg));
  return true;
}

function myName() {
  const name = $("name").value.trim();
  return NAME_RE.test(name) && name !== state.badName ? name : null;
}

function hello(choice, extra = {}) {
  const msg = { Type: "Hello", Message: choice, ...extra };
  const name = myName();
  if (name) msg.Name = name;
  return msg;
}

// ------------------------------------------------------------------ messages

function handle(msg) {
  if (typeof msg.Seq === "number" && msg.Type !== "Error") {
    onPrompt(msg);
    return;
  }
  const handler = HANDLERS[msg.Type];
  if (handler) handler(msg);
}

const HANDLERS = {
  Hello: onHello,
  Message: onMessage,
  Game: onGamePrompt,
  Tables: (m) => {
    const list = Array.isArray(m.Tables) ? m.Tables : [];
    if (m.Watch) {
      state.watchable = list;
      state.watchListed = true;
    }
    else state.tables = list;
  },
  Table: onTable,
  Seat: onSeat,
  Commit: (m) => {
    state.g.commit = m.Hash;
  },
  Reveal: (m) => {
    state.g.reveal = m.Seed;
  },
  Snapshot: onSnapshot,
  Deal: onDeal,
  Bid: onBid,
  Unpass: () => {
    state.g.prePassed = false;
  },
  Trump: onTrump,
  Discard: onDiscard,
  Play: onPlay,
  Trick: onTrick,
  Meld: (m) => {
    state.g.meld[m.Playerid] = { cards: m.Hand || [], amount: m.Amount || 0 };
  },
  Kitty: onKitty,
  Setup: onSetup,
  Pile: (m) => {
    const g = state.g;
    g.pile = m.Cards || [];
    g.total = m.Total;
    g.trick = [];
  },
  Score: onScore,
  Error: onError,
  Chat: onChat,
};

function onHello() {
  const first = !state.greeted;
  state.greeted = true;
  if (first) {
    const token = savedToken();
    if (token) {
      state.reclaiming = true;
      send({ Type: "Hello", Token: token.token }, "create");
      return;
    }
    if (state.watching && state.table && !state.g.gameOver) {
      // A new connection after a drop: watch the same table again.
      state.pendingWatch = state.table.Table;
      send({ Type: "Watch", Table: state.table.Table }, "prompt");
      return;
    }
  }
  if (state.reclaiming) return; // the Hello that follows a bad_token error
  // Back at the lobby question: a game ended (keep showing it), or we lost the seat.
  if (state.view === "table" && !state.g.gameOver) {
    state.notice = state.g.log.length ? state.g.log[state.g.log.length - 1] : "";
    leaveTableView();
    listTables();
  }
  if (first) {
    askOptions(state.game);
    listTables();
  }
}

/** Ask for both lists: the open tables and those we may watch. */
function listTables(errorAt) {
  send(hello("join"), errorAt);
  if (state.canWatch) send(hello("watch"), errorAt);
}

function onMessage(m) {
  const text = typeof m.Message === "string" ? m.Message : "";
  const option = OPTION_RE.exec(text);
  if (option && state.optionsFor.length) {
    state.optionLines.push({ n: Number(option[1]), text: option[2] });
    return;
  }
  if (LOBBY_QUESTION_RE.test(text)) return;
  addLog(text);
}

function onGamePrompt() {
  const game = state.optionsFor.shift();
  if (game) state.options[game] = state.optionLines.map(describeOption);
  state.optionLines = [];
}

/** An option line as the page offers it: a preset, a table of your choice (with its
 * seat range and flags, read from the line), or "Go back" (left out). */
function describeOption({ n, text }) {
  const custom = CUSTOM_RE.exec(text);
  if (!custom) return { n, text, back: /^Go back$/.test(text) };
  const flags = [];
  for (const match of (custom[3] || "").matchAll(/,\s*([A-Za-z]+) \(true or false\)/g)) {
    flags.push(match[1]);
  }
  return {
    n,
    text,
    custom: { lo: Number(custom[1] || 2), hi: Number(custom[2] || 6), flags },
  };
}

function askOptions(game) {
  state.optionsFor.push(game);
  send(hello("create", { Game: game }), "create");
}

function onTable(m) {
  const same = state.table && state.table.Table === m.Table;
  if (!same) {
    state.g = freshGame();
    state.watching = false;
    if (state.seatTable !== m.Table) state.seat = null;
  }
  state.table = m;
  state.g.players = Array.isArray(m.Players) ? m.Players.slice() : state.g.players;
  if (state.pendingWatch === m.Table) {
    state.watching = true;
    state.pendingWatch = null;
  }
  showTableView();
}

function onSeat(m) {
  state.reclaiming = false;
  state.seat = m.Playerid;
  state.seatTable = m.Table;
  state.watching = false;
  store(STORE_TOKEN, { token: m.Token, table: m.Table, seat: m.Playerid });
}

function onSnapshot(m) {
  const g = state.g;
  if (Array.isArray(m.Players)) g.players = m.Players.slice();
  if (Array.isArray(m.Hand)) g.hand = m.Hand.slice();
  else if (state.watching) g.hand = [];
  g.round = m.Round ?? g.round;
  g.dealer = m.Dealer ?? g.dealer;
  if (Array.isArray(m.Score)) g.score = m.Score.slice();
  g.bids = {};
  g.passed = new Set();
  for (const b of m.Bids || []) recordBid(b);
  if (typeof m.Bidder === "number") g.bidder = m.Bidder;
  if (m.Bid) g.highBid = m.Moon ? "moon" : m.Bid;
  if (m.Moon) g.highBid = "moon";
  g.trump = m.Trump ?? null;
  g.trumpCard = m.TrumpCard ?? null;
  g.exchanged = {};
  (m.Exchanged || []).forEach((count, seat) => {
    if (count !== null) g.exchanged[seat] = count;
  });
  g.meld = {};
  for (const meld of m.Meld || []) {
    g.meld[meld.Playerid] = { cards: meld.Hand || [], amount: meld.Amount || 0 };
  }
  if (Array.isArray(m.TricksWon)) g.tricksWon = m.TricksWon.slice();
  g.called = Array.isArray(m.Called) ? m.Called.slice() : [];
  g.partners = new Set(m.Partners || []);
  if (typeof m.PointsInDiscard === "boolean") g.pointsInDiscard = m.PointsInDiscard;
  g.tricksTaken = {};
  for (const w of m.Winners || []) g.tricksTaken[w] = (g.tricksTaken[w] || 0) + 1;
  if (Array.isArray(m.Pile)) g.pile = m.Pile.slice();
  if (typeof m.Total === "number") g.total = m.Total;
  const played = m.Played || m.Trick || [];
  g.trick = played.map((p) => ({ seat: p.Playerid, card: p.PlayedCard }));
  g.trickDone = false;
  g.trickWinner = null;
  g.lastTrick = null;
  g.prompt = null;
  g.gameOver = null;
  addLog(`Round ${g.round ?? "?"}: ${state.watching ? "watching" : "back at your seat"}`);
}

function onDeal(m) {
  const g = state.g;
  g.hand = Array.isArray(m.Hand) ? m.Hand.slice() : [];
  g.dealer = m.Dealer;
  g.round = m.Round;
  if (Array.isArray(m.Players)) g.players = m.Players.slice();
  if (typeof m.Playerid === "number") state.seat = m.Playerid;
  newRound();
}

function newRound() {
  const g = state.g;
  Object.assign(g, {
    bids: {},
    passed: new Set(),
    bidder: null,
    highBid: null,
    trump: null,
    trumpCard: null,
    exchanged: {},
    trick: [],
    trickWinner: null,
    trickDone: false,
    lastTrick: null,
    tricksTaken: {},
    tricksWon: null,
    meld: {},
    kitty: null,
    called: [],
    partners: new Set(),
    pointsInDiscard: null,
    prompt: null,
    prePassed: false,
  });
}

function recordBid(b) {
  const g = state.g;
  const label = bidLabel(b.Moon ? "moon" : b.Bid ?? 0);
  g.bids[b.Playerid] = label;
  if (b.Moon) {
    g.highBid = "moon";
    g.bidder = b.Playerid;
  } else if (!b.Bid) {
    g.passed.add(b.Playerid);
  } else if (g.highBid === null || b.Bid > g.highBid) {
    g.highBid = b.Bid;
    g.bidder = b.Playerid;
  }
}

function onBid(m) {
  const g = state.g;
  if (m.PrePass) {
    g.prePassed = true;
    addLog("You passed early: the pass is made when your turn comes");
    return;
  }
  recordBid(m);
  if (m.Auto && m.Playerid === state.seat) g.prePassed = false;
  moved(m);
}

function onTrump(m) {
  const g = state.g;
  g.trump = m.Trump;
  if (m.Card) g.trumpCard = m.Card;
  moved(m);
}

function onDiscard(m) {
  const g = state.g;
  g.exchanged[m.Playerid] = m.Count;
  if (Array.isArray(m.Hand) && m.Playerid === state.seat) g.hand = m.Hand.slice();
  moved(m);
}

function onPlay(m) {
  const g = state.g;
  const game = gameInfo();
  if (g.trickDone) {
    g.lastTrick = game.hideFinishedTricks ? null : { cards: g.trick, winner: g.trickWinner };
    g.trick = [];
    g.trickDone = false;
    g.trickWinner = null;
  }
  g.trick.push({ seat: m.Playerid, card: m.PlayedCard });
  if (m.Playerid === state.seat) {
    const at = g.hand.indexOf(m.PlayedCard);
    if (at >= 0) g.hand.splice(at, 1);
  }
  if (typeof m.Total === "number") g.total = m.Total;
  if (m.Partner) g.partners.add(m.Playerid);
  const at = g.called.indexOf(m.PlayedCard);
  if (at >= 0) g.called.splice(at, 1);
  moved(m);
}

function onTrick(m) {
  const g = state.g;
  g.trickWinner = m.Playerid;
  g.trickDone = true;
  g.tricksTaken[m.Playerid] = (g.tricksTaken[m.Playerid] || 0) + 1;
  if (Array.isArray(m.TricksWon)) g.tricksWon = m.TricksWon.slice();
}

function onKitty(m) {
  const g = state.g;
  g.kitty = { seat: m.Playerid, count: m.Count, cards: m.Cards || null };
  g.bidder = m.Playerid;
  if (Array.isArray(m.Hand) && m.Playerid === state.seat) g.hand = m.Hand.slice();
}

function onSetup(m) {
  const g = state.g;
  g.trump = m.Trump ?? g.trump;
  g.called = Array.isArray(m.Partners) ? m.Partners.slice() : [];
  if (typeof m.PointsInDiscard === "boolean") g.pointsInDiscard = m.PointsInDiscard;
  if (Array.isArray(m.Hand) && m.Playerid === state.seat) g.hand = m.Hand.slice();
  moved(m);
}

function onScore(m) {
  const g = state.g;
  if (Array.isArray(m.Score)) g.score = m.Score.slice();
  g.prompt = null;
  if (m.GameOver) {
    g.gameOver = m;
    if (Object.keys(m).some((k) => k !== "Score" && Array.isArray(m[k]))) g.scoreMsg = m;
    if (!state.watching) store(STORE_TOKEN, null); // the seat is no more
    return;
  }
  g.scoreMsg = m;
}

function onError(m) {
  const text = typeof m.Message === "string" ? m.Message : String(m.Code || "error");
  if (m.Code === "bad_token" || (state.reclaiming && m.Code === "not_now")) {
    // The saved seat is gone (the game ended meanwhile): the lobby.
    store(STORE_TOKEN, null);
    state.reclaiming = false;
    leaveTableView();
    askOptions(state.game);
    listTables();
    return;
  }
  if (m.Code === "bad_choice" && state.canWatch && !state.watchListed) {
    state.canWatch = false; // a server that does not know Hello watch
    return;
  }
  if (m.Code === "bad_name") {
    state.badName = $("name").value.trim();
    setError("name", text);
    return;
  }
  const where = state.view === "table" && state.errorAt !== "chat" ? "prompt" : state.errorAt;
  if (where === "prompt") {
    state.g.error = text;
    state.g.sentSeq = null; // the same prompt comes again: answer it anew
  } else {
    setError(where, text);
  }
}

function onChat(m) {
  const from = typeof m.From === "string" ? m.From : "?";
  if (state.muted.has(from)) return;
  state.chat.push({ from, text: String(m.Text ?? ""), where: String(m.Where ?? "") });
  if (state.chat.length > CHAT_LINES) state.chat.shift();
}

/** A prompt: ours (with Legal) or another seat's (who is to act). */
function onPrompt(m) {
  const g = state.g;
  const again = g.prompt && g.prompt.Seq === m.Seq;
  g.prompt = m;
  g.promptAt = performance.now();
  const mine = m.Playerid === state.seat && !state.watching && Array.isArray(m.Legal);
  if (mine && (m.Type === "Discard" || m.Type === "Setup")) g.hand = m.Legal.map(String);
  if (!again) {
    g.error = "";
    g.sentSeq = null;
    g.selected = new Set();
    g.setupTrump = null;
    g.setupCalls = [];
    g.highlight = 0;
  }
}

/** A move was announced: the prompt it answered is done. */
function moved(m) {
  const g = state.g;
  if (g.prompt && g.prompt.Playerid === m.Playerid) g.prompt = null;
}

function addLog(text) {
  if (!text) return;
  const log = state.g.log;
  log.push(text);
  if (log.length > LOG_LINES) log.shift();
}

// ------------------------------------------------------------------ views

function showTableView() {
  state.view = "table";
  clearError("create");
  clearError("tables");
}

function leaveTableView() {
  state.view = "lobby";
  state.table = null;
  state.watching = false;
  state.pendingWatch = null;
  state.seat = null;
  state.seatTable = null;
  state.g = freshGame();
}

function gameInfo() {
  const name = state.table ? state.table.Game : state.game;
  return GAMES[name] || { title: String(name || "?") };
}

function bidLabel(value) {
  const info = gameInfo();
  if (value === "moon") return "Moon";
  if (info.bidLabel) return info.bidLabel(value);
  return value === 0 ? "Pass" : String(value);
}

function playerName(seat) {
  const name = state.g.players[seat];
  if (name === null || name === undefined) return `seat ${seat}`;
  return String(name);
}

function setError(where, text) {
  const node = $(`${where}-error`);
  if (node) node.textContent = text;
}

function clearError(where) {
  setError(where, "");
}

// ------------------------------------------------------------------ rendering

function render() {
  const active = document.activeElement;
  const keyboard = active && active.classList && active.classList.contains("choice");
  if (keyboard) state.g.highlight = Number(active.dataset.index) || 0;
  document.body.dataset.view = state.view;
  $("lobby").hidden = state.view !== "lobby";
  $("table").hidden = state.view !== "table";
  renderStatus();
  if (state.view === "lobby") renderLobby();
  else renderTable();
  renderChat();
  if (keyboard && !document.body.contains(active)) refocus();
}

function renderStatus() {
  const node = $("status");
  node.dataset.state = state.conn;
  node.textContent =
    state.conn === "open" ? "connected" : state.conn === "reconnecting" ? "reconnecting…" : "connecting…";
}

function renderLobby() {
  const tabs = $("game-tabs");
  tabs.replaceChildren(
    ...GAME_ORDER.map((name) =>
      el(
        "button",
        {
          type: "button",
          className: "tab",
          role: "tab",
          ariaSelected: String(name === state.game),
          dataset: { game: name },
          onclick: () => {
            state.game = name;
            clearError("create");
            if (!state.options[name]) askOptions(name);
            render();
          },
        },
        gameTitle(name),
      ),
    ),
  );
  const options = state.options[state.game];
  const box = $("options");
  const custom = $("custom");
  if (!options) {
    box.replaceChildren(el("p", { className: "meta" }, "asking the server for the options…"));
    custom.hidden = true;
  } else {
    const presets = options.filter((o) => !o.back && !o.custom);
    box.replaceChildren(
      ...presets.map((o) =>
        el(
          "button",
          { type: "button", className: "option", dataset: { option: String(o.n) }, onclick: () => create(o.n) },
          o.text,
        ),
      ),
    );
    const choice = options.find((o) => o.custom);
    custom.hidden = !choice;
    if (choice) renderCustom(choice);
  }
  renderTables();
}

function renderCustom(choice) {
  const form = $("custom");
  if (form.dataset.game === state.game) return; // keep what the person typed
  form.dataset.game = state.game;
  form.dataset.option = String(choice.n);
  const seats = $("custom-seats");
  const range = [];
  for (let n = choice.custom.lo; n <= choice.custom.hi; n++) range.push(n);
  seats.replaceChildren(...range.map((n) => el("option", { value: String(n) }, String(n))));
  seats.value = String(choice.custom.hi);
  fillBots();
  $("custom-flags").replaceChildren(
    ...choice.custom.flags.map((flag) =>
      el(
        "label",
        { className: "inline" },
        el("input", { type: "checkbox", className: "flag", dataset: { flag } }),
        ` ${flag}`,
      ),
    ),
  );
}

function fillBots() {
  const seats = Number($("custom-seats").value);
  const bots = $("custom-bots");
  const previous = bots.value;
  const range = [];
  for (let n = 0; n < seats; n++) range.push(n);
  bots.replaceChildren(...range.map((n) => el("option", { value: String(n) }, String(n))));
  bots.value = previous !== "" && range.includes(Number(previous)) ? previous : String(seats - 1);
}

function renderTables() {
  const list = $("tables");
  $("notice").textContent = state.notice;
  const byId = new Map();
  for (const t of state.watchable) byId.set(t.Table, { ...t, watch: true });
  for (const t of state.tables) byId.set(t.Table, { ...t, watch: byId.has(t.Table), open: true });
  const tables = [...byId.values()].sort((a, b) => a.Table - b.Table);
  if (!tables.length) {
    list.replaceChildren(el("li", { className: "meta" }, "No tables yet: create one."));
    return;
  }
  list.replaceChildren(
    ...tables.map((t) => {
      const players = (t.Players || []).map((p) => (p === null ? "(free)" : String(p))).join(", ");
      const flags = Array.isArray(t.Flags) && t.Flags.length ? ` [${t.Flags.join(", ")}]` : "";
      const buttons = [];
      if (t.open && t.Free > 0) {
        buttons.push(el("button", { type: "button", className: "small join", onclick: () => join(t.Table) }, "join"));
      }
      if (t.watch) {
        buttons.push(el("button", { type: "button", className: "small watch", onclick: () => watch(t.Table) }, "watch"));
      }
      return el(
        "li",
        { dataset: { table: String(t.Table) } },
        el("strong", {}, String(t.Name ?? `table ${t.Table}`)),
        ` ${gameTitle(t.Game)}${flags}: ${players}`,
        t.Free > 0 ? ` — ${t.Free} free` : " — playing",
        typeof t.Watchers === "number" && t.Watchers ? ` — ${t.Watchers} watching` : "",
        " ",
        ...buttons,
      );
    }),
  );
}

function renderTable() {
  const t = state.table;
  const g = state.g;
  const info = gameInfo();
  $("table-title").textContent = `${t ? String(t.Name ?? "") : ""} · ${info.title}`;
  const meta = [];
  if (t) {
    meta.push(`table ${t.Table}`);
    meta.push(`AI: ${String(t.AI ?? "-")}`);
    if (Array.isArray(t.Flags) && t.Flags.length) meta.push(t.Flags.join(", "));
    if (typeof t.Watchers === "number") meta.push(`${t.Watchers} watching`);
    if (t.Free > 0) meta.push(`waiting for ${t.Free} more`);
  }
  if (state.watching) meta.push("you are watching");
  $("table-meta").textContent = meta.join(" · ");
  const over = Boolean(g.gameOver);
  $("leave").hidden = over;
  $("leave").textContent = state.watching ? "stop watching" : "leave table";
  $("back").hidden = !over;
  const started = g.round !== null || g.trick.length > 0 || g.hand.length > 0;
  $("center").hidden = !started;
  renderInfo();
  renderSeats();
  renderTrick();
  renderGameOver();
  renderPrompt();
  renderHand();
  renderScores();
  $("log").replaceChildren(...g.log.slice(-12).map((line) => el("li", {}, line)));
}

function renderInfo() {
  const g = state.g;
  const parts = [];
  if (g.round !== null) parts.push(el("span", {}, `Round ${g.round}`));
  if (g.dealer !== null) parts.push(el("span", {}, `Dealer ${playerName(g.dealer)}`));
  if (g.highBid !== null && g.bidder !== null) {
    parts.push(el("span", {}, `Bid ${bidLabel(g.highBid)} by ${playerName(g.bidder)}`));
  }
  if (g.trump) {
    const trump = el("span", { id: "trump" }, "Trump ", suitEl(g.trump));
    if (g.trumpCard) trump.append(" ", cardEl(g.trumpCard, { small: true }));
    parts.push(trump);
  }
  if (g.called.length) {
    parts.push(el("span", {}, "Called ", ...g.called.map((c) => cardEl(c, { small: true }))));
  }
  if (g.pointsInDiscard !== null) {
    parts.push(el("span", {}, g.pointsInDiscard ? "points in the discard" : "no points in the discard"));
  }
  if (g.kitty) parts.push(el("span", {}, `Kitty ${g.kitty.count} to ${playerName(g.kitty.seat)}`));
  if (g.total !== null) parts.push(el("span", { id: "total", className: "total" }, `Total ${g.total}`));
  if (g.pile && g.pile.length) {
    parts.push(el("span", {}, "Pile ", ...g.pile.map((c) => cardEl(c, { small: true }))));
  }
  $("info").replaceChildren(...parts);
}

/** The seat to act and the seconds left on its clock, if it has one. */
function clockLeft() {
  const p = state.g.prompt;
  if (!p || typeof p.TimeLeft !== "number") return null;
  return Math.max(0, p.TimeLeft - (performance.now() - state.g.promptAt) / 1000);
}

function sideOf(seat) {
  const g = state.g;
  const n = g.players.length;
  if (!g.score || g.score.length >= n || g.score.length < 2) return null;
  return seat % g.score.length;
}

function sideName(side) {
  const info = gameInfo();
  return (info.sides && info.sides[side]) || `Side ${side}`;
}

function renderSeats() {
  const g = state.g;
  const p = g.prompt;
  const boxes = g.players.map((name, seat) => {
    const box = el("div", { className: "seat", dataset: { seat: String(seat) } });
    if (seat === state.seat && !state.watching) box.classList.add("me");
    const acting = p && p.Playerid === seat;
    if (acting) box.classList.add("acting");
    const badges = [];
    if (seat === g.dealer) badges.push("dealer");
    if (seat === g.bidder) badges.push("bidder");
    if (g.partners.has(seat)) badges.push("partner");
    const side = sideOf(seat);
    box.append(
      el("div", { className: "seat-name" }, name === null ? "(free)" : String(name), seat === state.seat && !state.watching ? " (you)" : ""),
      el("div", { className: "seat-meta" }, [`seat ${seat}`, side !== null ? sideName(side) : null, ...badges].filter(Boolean).join(" · ")),
    );
    const facts = [];
    if (g.bids[seat] !== undefined) facts.push(`bid: ${g.bids[seat]}`);
    if (g.exchanged[seat] !== undefined) facts.push(`drew ${g.exchanged[seat]}`);
    if (g.tricksTaken[seat]) facts.push(`tricks ${g.tricksTaken[seat]}`);
    if (g.meld[seat]) facts.push(`meld ${g.meld[seat].amount}`);
    if (facts.length) box.append(el("div", { className: "seat-facts" }, facts.join(" · ")));
    if (g.meld[seat] && g.meld[seat].cards.length) {
      box.append(el("div", { className: "meld" }, ...g.meld[seat].cards.map((c) => cardEl(c, { small: true }))));
    }
    if (acting) {
      const left = clockLeft();
      box.append(
        el("div", { className: "turn" }, "to act", left !== null ? el("span", { className: "clock" }, ` ${left.toFixed(1)} s`) : null),
      );
    }
    return box;
  });
  $("seats").replaceChildren(...boxes);
}

function renderTrick() {
  const g = state.g;
  const info = gameInfo();
  $("trick-title").textContent = info.noTricks ? "Played this deal" : g.trickDone ? `Trick won by ${playerName(g.trickWinner)}` : "Trick";
  $("trick").replaceChildren(
    ...g.trick.map(({ seat, card }) => {
      const spot = el("figure", { className: "played", dataset: { seat: String(seat) } }, cardEl(card), el("figcaption", {}, playerName(seat)));
      if (g.trickDone && seat === g.trickWinner) spot.classList.add("winner");
      return spot;
    }),
  );
  const last = $("last-trick");
  if (g.lastTrick && g.lastTrick.cards.length) {
    last.replaceChildren(
      el("span", { className: "meta" }, `last trick (${playerName(g.lastTrick.winner)}): `),
      ...g.lastTrick.cards.map(({ card }) => cardEl(card, { small: true })),
    );
  } else {
    last.replaceChildren();
  }
}

function renderGameOver() {
  const g = state.g;
  const box = $("gameover");
  if (!g.gameOver) {
    box.hidden = true;
    return;
  }
  const m = g.gameOver;
  box.hidden = false;
  const n = g.players.length;
  const bySide = Array.isArray(m.Score) && m.Score.length < n && m.Score.length >= 2;
  const codes = gameInfo().sideCodes || [];
  let winner = String(m.Winner ?? "?");
  if (typeof m.Winner === "number") winner = bySide ? sideName(m.Winner) : playerName(m.Winner);
  else if (codes.includes(m.Winner)) winner = sideName(codes.indexOf(m.Winner));
  const verdict = state.watching ? "" : m.Win ? " You win!" : " You lose.";
  const lines = [el("strong", {}, `Game over: ${winner} wins.${verdict}`)];
  if (Array.isArray(m.Score)) {
    const scores = m.Score.map((s, i) => `${bySide ? sideName(i) : playerName(i)} ${s}`).join(", ");
    lines.push(el("div", { id: "final-score" }, `Final score: ${scores}`));
  }
  if (g.reveal) lines.push(el("div", { className: "meta" }, `The deals' seed: ${g.reveal}`));
  box.dataset.winner = String(m.Winner);
  box.replaceChildren(...lines);
}

/** The choices of our pending prompt, in order: what keys and clicks pick from. */
function promptChoices() {
  const g = state.g;
  const p = g.prompt;
  if (!p || state.watching || p.Playerid !== state.seat || !Array.isArray(p.Legal)) return null;
  return p;
}

const PROMPT_TEXT = {
  Bid: "Your bid",
  Trump: "Name trump",
  Discard: "Pick the cards to throw away (you draw as many), then confirm",
  Play: "Play a card",
  Setup: "Take the kitty: discard, name trump, call partners",
};

function renderPrompt() {
  const g = state.g;
  const p = g.prompt;
  const box = $("prompt");
  const text = $("prompt-text");
  const choices = $("choices");
  $("prompt-error").textContent = g.error;
  box.dataset.seq = p ? String(p.Seq) : "";
  box.dataset.type = p ? String(p.Type) : "";
  const mine = promptChoices();
  box.dataset.mine = mine ? "1" : "";
  box.dataset.busy = mine && g.sentSeq === p.Seq ? "1" : "";
  choices.replaceChildren();
  if (!p) {
    text.textContent = g.gameOver ? "" : state.table && state.table.Free > 0 ? "Waiting for players…" : "";
    if (gameInfo().prePass && !state.watching && g.prePassed) text.textContent = "You passed early.";
    return;
  }
  const left = clockLeft();
  const clock = left !== null ? el("span", { className: "clock" }, ` ${left.toFixed(1)} s`) : "";
  if (!mine) {
    text.replaceChildren(`Waiting for ${playerName(p.Playerid)} (${String(p.Type).toLowerCase()})`, clock);
    if (gameInfo().prePass && p.Type === "Bid" && !state.watching && state.seat !== null && !g.passed.has(state.seat)) {
      choices.append(
        g.prePassed
          ? el("button", { type: "button", className: "small", onclick: () => send({ Type: "Unpass" }, "prompt") }, "take back the pass")
          : el("button", { type: "button", className: "small", onclick: () => send({ Type: "Bid", Bid: 0 }, "prompt") }, "pass early"),
      );
    }
    return;
  }
  const context = [];
  if (p.Lead) context.push(`lead ${suitLabel(p.Lead)}`);
  if (p.WinningCard) context.push(`winning: ${parseCard(p.WinningCard).label}`);
  if (typeof p.Total === "number") context.push(`total ${p.Total}`);
  text.replaceChildren(`${PROMPT_TEXT[p.Type] || p.Type}${context.length ? ` (${context.join(", ")})` : ""}`, clock);
  const busy = g.sentSeq === p.Seq;
  if (p.Type === "Bid") {
    p.Legal.forEach((value, i) => choices.append(choiceButton(bidLabel(value), JSON.stringify(value), i, busy, () => answer({ Type: "Bid", Bid: value }))));
  } else if (p.Type === "Trump") {
    p.Legal.forEach((value, i) => {
      const button = choiceButton("", JSON.stringify(value), i, busy, () => answer({ Type: "Trump", Trump: value }));
      button.append(suitEl(value));
      choices.append(button);
    });
  } else if (p.Type === "Discard" || p.Type === "Setup") {
    renderPick(p, busy);
  }
  // Play: the legal cards of the hand are the buttons (renderHand).
}

function choiceButton(label, value, index, busy, action) {
  const button = el("button", { type: "button", className: "choice", disabled: busy, dataset: { value, index: String(index) }, onclick: action }, label);
  if (index < 10) button.append(el("kbd", { className: "key" }, String((index + 1) % 10)));
  return button;
}

/** A Discard or Rook Setup: cards picked in the hand, and (Setup) trump and calls. */
function renderPick(p, busy) {
  const g = state.g;
  const choices = $("choices");
  const picked = [...g.selected].map((i) => g.hand[i]);
  const info = gameInfo();
  if (p.Type === "Setup") {
    const count = Number(p.Count) || 0;
    const calls = Number(p.Calls) || 0;
    const colours = info.colours || Object.keys(COLOURS);
    const row = el("div", { className: "setup-row" }, el("span", {}, "Trump: "));
    colours.forEach((c, i) => {
      const b = el("button", { type: "button", className: "colour", disabled: busy, dataset: { colour: c }, ariaPressed: String(g.setupTrump === c), onclick: () => { g.setupTrump = c; render(); } });
      b.append(suitEl(c));
      row.append(b);
      void i;
    });
    choices.append(el("p", { className: "meta" }, `Discard ${count} (${picked.length} picked)`), row);
    for (let k = 0; k < calls; k++) {
      const select = el("select", { className: "call", dataset: { call: String(k) }, ariaLabel: `partner card ${k + 1}`, disabled: busy });
      select.append(el("option", { value: "" }, "call a card…"));
      for (const code of rookDeck()) select.append(el("option", { value: code, selected: g.setupCalls[k] === code }, parseCard(code).label));
      select.addEventListener("change", () => { g.setupCalls[k] = select.value; render(); });
      choices.append(el("label", { className: "inline" }, `Partner card ${k + 1}: `, select));
    }
    const ready = picked.length === count && g.setupTrump && g.setupCalls.filter(Boolean).length === calls;
    const confirm = el("button", { type: "button", className: "choice confirm", disabled: busy || !ready, dataset: { value: "confirm", index: String(g.hand.length) }, onclick: () => {
      const msg = { Type: "Setup", Discard: picked, Trump: g.setupTrump };
      if (calls) msg.Partners = g.setupCalls.slice(0, calls);
      answer(msg);
    } }, ready ? "Confirm the setup" : "Confirm (pick the discard, trump and calls)");
    choices.append(confirm);
    return;
  }
  const label = picked.length ? `Throw away ${picked.length} and draw` : "Keep my hand";
  choices.append(el("button", { type: "button", className: "choice confirm", disabled: busy, dataset: { value: "confirm", index: String(g.hand.length) }, onclick: () => answer({ Type: "Discard", Cards: picked }) }, label));
}

function renderHand() {
  const g = state.g;
  const box = $("hand-box");
  box.hidden = state.watching || (g.round === null && !g.hand.length);
  if (state.watching) {
    $("hand").replaceChildren();
    return;
  }
  $("hand-title").textContent = `Your hand (${g.hand.length})`;
  const p = promptChoices();
  const busy = p && g.sentSeq === p.Seq;
  const pick = p && (p.Type === "Discard" || p.Type === "Setup");
  const legal = p && p.Type === "Play" ? new Set(p.Legal.map(String)) : null;
  let index = 0;
  $("hand").replaceChildren(
    ...g.hand.map((code, i) => {
      if (pick || (legal && legal.has(code))) {
        const card = cardEl(code, { button: true });
        card.classList.add("choice");
        card.disabled = Boolean(busy);
        card.dataset.value = code;
        card.dataset.index = String(index);
        if (index < 10) card.append(el("kbd", { className: "key" }, String((index + 1) % 10)));
        index += 1;
        if (pick) {
          card.setAttribute("aria-pressed", String(g.selected.has(i)));
          card.addEventListener("click", () => {
            if (g.selected.has(i)) g.selected.delete(i);
            else g.selected.add(i);
            render();
          });
        } else {
          card.addEventListener("click", () => answer({ Type: "Play", PlayedCard: code }));
        }
        return card;
      }
      const card = cardEl(code);
      if (legal) card.classList.add("dim");
      return card;
    }),
  );
}

function renderScores() {
  const g = state.g;
  const box = $("scores");
  if (!g.score) {
    box.replaceChildren();
    return;
  }
  const n = g.score.length;
  const bySide = n < g.players.length && n >= 2;
  // Every list of the last round's Score that is as long as the totals is a column.
  const m = g.scoreMsg || {};
  const columns = Object.keys(m).filter((k) => k !== "Score" && Array.isArray(m[k]) && m[k].length === n && m[k].every((v) => typeof v === "number"));
  const head = el("tr", {}, el("th", {}, bySide ? "Side" : "Player"), ...columns.map((k) => el("th", {}, k)), el("th", {}, "Score"));
  const rows = g.score.map((total, i) => {
    let who = bySide ? sideName(i) : playerName(i);
    if (bySide) who += ` (${g.players.filter((_, s) => s % n === i).map(String).join(", ")})`;
    return el("tr", { dataset: { row: String(i) } }, el("td", {}, who), ...columns.map((k) => el("td", {}, String(m[k][i]))), el("td", { className: "total" }, String(total)));
  });
  const caption = m.Round ? `Scores after round ${m.Round}` : "Scores";
  box.replaceChildren(el("table", {}, el("caption", {}, caption), el("thead", {}, head), el("tbody", {}, ...rows)));
}

function renderChat() {
  const lines = state.chat.filter((c) => !state.muted.has(c.from));
  $("chat-lines").replaceChildren(
    ...lines.slice(-20).map((c) => {
      const li = el("li", { dataset: { from: c.from } }, el("span", { className: "where" }, c.where ? `[${c.where}] ` : ""), el("strong", {}, c.from), ": ", el("span", { className: "text" }, c.text));
      if (c.from !== myName()) {
        li.append(" ", el("button", { type: "button", className: "small mute", onclick: () => mute(c.from) }, "mute"));
      }
      return li;
    }),
  );
  const muted = [...state.muted];
  $("muted").replaceChildren(
    ...(muted.length ? ["muted: "] : []),
    ...muted.map((name) => el("button", { type: "button", className: "small unmute", dataset: { name }, onclick: () => unmute(name) }, `${name} ✕`)),
  );
}

// ------------------------------------------------------------------ actions

function create(option, extra = {}) {
  clearError("create");
  const msg = { Type: "Game", Game: state.game, Option: option, ...extra };
  if ($("naive").checked) msg.AI = "naive";
  if (!$("watchers").checked) msg.Watchers = false;
  // Hello create first: the Game answer is read only right after the options.
  state.optionsFor.push(state.game);
  send(hello("create", { Game: state.game }), "create");
  send(msg, "create");
}

function join(table) {
  clearError("tables");
  state.notice = "";
  send(hello("join"), "tables");
  send({ Type: "Join", Table: table }, "tables");
}

function watch(table) {
  clearError("tables");
  state.notice = "";
  state.pendingWatch = table;
  send({ Type: "Watch", Table: table }, "tables");
}

function answer(msg) {
  const g = state.g;
  const p = g.prompt;
  if (!p) return;
  msg.Seq = p.Seq;
  g.error = "";
  if (send(msg, "prompt")) g.sentSeq = p.Seq;
  render();
}

function mute(name) {
  state.muted.add(name);
  store(STORE_MUTED, [...state.muted]);
  send({ Type: "Mute", Name: name }, "chat");
  render();
}

function unmute(name) {
  state.muted.delete(name);
  store(STORE_MUTED, [...state.muted]);
  send({ Type: "Unmute", Name: name }, "chat");
  render();
}

function leaveTable() {
  if (state.watching) {
    send({ Type: "Leave" }, "tables"); // back to the lobby question, same connection
    leaveTableView();
    listTables();
    render();
    return;
  }
  store(STORE_TOKEN, null);
  state.leaving = true;
  // Quit leaves the table and the connection (an AI takes a seat in a game under
  // way); a new connection brings us back to the lobby.
  if (!send({ Type: "Hello", Message: "quit" }, "prompt")) state.leaving = false;
  leaveTableView();
  render();
}

// ------------------------------------------------------------------ keys

function choiceButtons() {
  return [...document.querySelectorAll("#table:not([hidden]) .choice")]
    .filter((b) => !b.disabled)
    .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
}

function onKey(event) {
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (event.key === "/") {
    event.preventDefault();
    $("chat-input").focus();
    return;
  }
  if (state.view !== "table" || event.altKey || event.ctrlKey || event.metaKey) return;
  const buttons = choiceButtons();
  if (!buttons.length) return;
  const g = state.g;
  let index = buttons.indexOf(document.activeElement);
  if (index < 0) index = Math.min(g.highlight, buttons.length - 1);
  if (/^[0-9]$/.test(event.key)) {
    index = (Number(event.key) + 9) % 10;
    if (index >= buttons.length) return;
  } else if (event.key === "ArrowRight" || event.key === "ArrowDown") {
    index = (index + 1) % buttons.length;
  } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
    index = (index - 1 + buttons.length) % buttons.length;
  } else if (event.key === "Home") {
    index = 0;
  } else if (event.key === "End") {
    index = buttons.length - 1;
  } else if (event.key === "Enter") {
    if (document.activeElement === buttons[index]) return; // a focused button clicks itself
  } else {
    return;
  }
  event.preventDefault();
  g.highlight = index;
  buttons[index].focus();
}

/** After a re-render, the keyboard's choice keeps the focus. */
function refocus() {
  const buttons = choiceButtons();
  if (!buttons.length) return;
  const index = Math.min(state.g.highlight, buttons.length - 1);
  buttons[index].focus();
}

// ------------------------------------------------------------------ start

function start() {
  const name = load(STORE_NAME);
  if (typeof name === "string") $("name").value = name;
  const muted = load(STORE_MUTED);
  if (Array.isArray(muted)) state.muted = new Set(muted.filter((n) => typeof n === "string"));
  $("name").addEventListener("change", () => {
    const value = $("name").value.trim();
    clearError("name");
    state.badName = null;
    if (value && !NAME_RE.test(value)) {
      setError("name", "a name is 1-20 letters, digits, spaces, _ - .");
      return;
    }
    store(STORE_NAME, value || null);
    if (value && state.view === "lobby") send(hello("join"), "name");
  });
  $("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("name").dispatchEvent(new Event("change"));
  });
  $("custom-seats").addEventListener("change", fillBots);
  $("custom").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = $("custom");
    const extra = { Seats: Number($("custom-seats").value), Bots: Number($("custom-bots").value) };
    const tableName = $("custom-name").value.trim();
    if (tableName) {
      if (!TABLE_NAME_RE.test(tableName)) {
        setError("create", "a table name is 1-30 letters, digits, spaces, _ - . '");
        return;
      }
      extra.Name = tableName;
    }
    const clock = $("custom-clock").value.trim();
    if (clock !== "") extra.Clock = Number(clock);
    for (const box of form.querySelectorAll("input.flag")) extra[box.dataset.flag] = box.checked;
    create(Number(form.dataset.option), extra);
  });
  $("refresh").addEventListener("click", () => listTables("tables"));
  $("leave").addEventListener("click", leaveTable);
  $("back").addEventListener("click", () => {
    leaveTableView();
    listTables("tables");
    render();
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    clearError("chat");
    if (!text) return;
    if (send({ Type: "Chat", Text: text }, "chat")) input.value = "";
  });
  document.addEventListener("keydown", onKey);
  setInterval(() => {
    if (state.view === "lobby" && state.conn === "open" && !state.reclaiming) listTables("tables");
  }, POLL_TABLES_MS);
  setInterval(() => {
    const left = clockLeft();
    if (state.view !== "table" || left === null) return;
    for (const node of document.querySelectorAll("#table .clock")) node.textContent = ` ${left.toFixed(1)} s`;
  }, 200);
  render();
  connect();
}

start();
