// The page's state: what we know of the lobby, our table and its game, rebuilt from
// the server's messages (messages.js) and drawn by render.js; and what is kept in
// localStorage (the seat's token, our name, whom we muted).

import { $ } from "./dom.js";
import { DEFAULT_GAME, GAMES } from "./games.js";

export const NAME_RE = /^[A-Za-z0-9_.\- ]{1,20}$/;

export const TABLE_NAME_RE = /^[A-Za-z0-9_.\-' ]{1,30}$/;

export const STORE_TOKEN = "hundred.seat";

export const STORE_NAME = "hundred.name";

export const STORE_MUTED = "hundred.muted";

const LOG_LINES = 60;

export const state = {
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
export function freshGame() {
  return {
    players: [],
    hand: [],
    dealer: null,
    round: null,
    bids: {}, // seat -> label
    bidValues: {}, // seat -> the bid's number (Spades adds a side's)
    passed: new Set(),
    bidder: null,
    highBid: null,
    trump: null,
    trumpCard: null,
    exchanged: {}, // seat -> count
    trick: [], // [{seat, card}]
    trickNo: 0, // counts the tricks shown: a new number is a new trick (render.js animates)
    takenBy: null, // the seat that took the trick before this one (null: none, or unknown)
    trickWinner: null,
    trickDone: false,
    lastTrick: null,
    tricksTaken: {}, // seat -> n (this round)
    tricksKnown: true, // false after a snapshot that says how many tricks, not whose
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

export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch (_) {
    /* private mode: the page still plays, without coming back after a reload */
  }
}

export function load(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch (_) {
    return null;
  }
}

export function savedToken() {
  const saved = load(STORE_TOKEN);
  return saved && typeof saved.token === "string" ? saved : null;
}

export function myName() {
  const name = $("name").value.trim();
  return NAME_RE.test(name) && name !== state.badName ? name : null;
}

export function addLog(text) {
  if (!text) return;
  const log = state.g.log;
  log.push(text);
  if (log.length > LOG_LINES) log.shift();
}

export function showTableView() {
  state.view = "table";
  clearError("create");
  clearError("tables");
}

export function leaveTableView() {
  state.view = "lobby";
  state.table = null;
  state.watching = false;
  state.pendingWatch = null;
  state.seat = null;
  state.seatTable = null;
  state.g = freshGame();
}

export function gameInfo() {
  const name = state.table ? state.table.Game : state.game;
  return GAMES[name] || { title: String(name || "?") };
}

export function bidLabel(value) {
  const info = gameInfo();
  if (value === "moon") return "Moon";
  if (info.bidLabel) return info.bidLabel(value);
  return value === 0 ? "Pass" : String(value);
}

export function playerName(seat) {
  const name = state.g.players[seat];
  if (name === null || name === undefined) return `seat ${seat}`;
  return String(name);
}

export function setError(where, text) {
  const node = $(`${where}-error`);
  if (node) node.textContent = text;
}

export function clearError(where) {
  setError(where, "");
}
