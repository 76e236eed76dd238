// The browser client of hundred_server: protocol.md's JSON messages over the /ws
// WebSocket of the page's own host, one message a text frame. This module holds the
// connection (reconnecting with the seat's token), the actions a person takes, the
// keys, and the start; the rest is split by job:
//
//   state.js     what the page knows, and what it keeps in localStorage
//   messages.js  each server message folded into the state
//   render.js    the state drawn: the table's prompt and scores, the chat; and from
//   lobby.js     the lobby (game tabs, presets, the tables) and
//   felt.js      the table's cloth (the bar, the seats, the trick, the fanned hand)
//   games.js     what the wire does not say of each game (titles, side names...)
//   cards.js     cards drawn in CSS and SVG
//   dom.js       building elements: server strings only ever become text nodes
//
// Everything shown comes from what the server sends: the create options (`Option n -
// ...` lines), the tables (`Tables`, `Table`), each prompt's `Legal`, the moves and
// the scores.

import { $ } from "./dom.js";
import { GAME_ORDER } from "./games.js";
import { handle } from "./messages.js";
import { clockLeft } from "./felt.js";
import { fillBots } from "./lobby.js";
import { choiceButtons, render, renderStatus } from "./render.js";
import {
  clearError,
  leaveTableView,
  load,
  myName,
  NAME_RE,
  setError,
  state,
  store,
  STORE_MUTED,
  STORE_NAME,
  STORE_TOKEN,
  TABLE_NAME_RE,
} from "./state.js";

const POLL_TABLES_MS = 4000;

function wsURL() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

function connect() {
  state.greeted = false;
  // Option lines still owed by a connection that is gone are never coming.
  state.optionsFor = [];
  state.optionLines = [];
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
export function send(msg, errorAt) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
  if (errorAt) state.errorAt = errorAt;
  state.socket.send(JSON.stringify(msg));
  return true;
}

function hello(choice, extra = {}) {
  const msg = { Type: "Hello", Message: choice, ...extra };
  const name = myName();
  if (name) msg.Name = name;
  return msg;
}

/** Ask for both lists: the open tables and those we may watch. */
export function listTables(errorAt) {
  send(hello("join"), errorAt);
  if (state.canWatch) send(hello("watch"), errorAt);
}

export function askOptions(game) {
  state.optionsFor.push(game);
  // Without the name field's value: a name still being typed (or refused) must not cost
  // the options (a Hello with a refused Name is refused whole).
  send({ Type: "Hello", Message: "create", Game: game }, "create");
}

/** Every game's options, asked for at once (the tab's game first): switching games
 * then waits for nothing. */
export function askAllOptions() {
  for (const name of [state.game, ...GAME_ORDER.filter((n) => n !== state.game)]) {
    if (!state.options[name] && !state.optionsFor.includes(name)) askOptions(name);
  }
}

/** Create a table of `game` (the game of the button clicked, never whichever tab is
 * showing when the click is handled) with its option `option`. */
export function create(game, option, extra = {}) {
  clearError("create");
  const msg = { Type: "Game", Game: game, Option: option, ...extra };
  if ($("naive").checked) msg.AI = "naive";
  if (!$("watchers").checked) msg.Watchers = false;
  // Hello create first: the Game answer is read only right after the options.
  state.optionsFor.push(game);
  send(hello("create", { Game: game }), "create");
  send(msg, "create");
}

export function join(table) {
  clearError("tables");
  state.notice = "";
  send(hello("join"), "tables");
  send({ Type: "Join", Table: table }, "tables");
}

export function watch(table) {
  clearError("tables");
  state.notice = "";
  state.pendingWatch = table;
  send({ Type: "Watch", Table: table }, "tables");
}

export function answer(msg) {
  const g = state.g;
  const p = g.prompt;
  if (!p) return;
  msg.Seq = p.Seq;
  g.error = "";
  if (send(msg, "prompt")) g.sentSeq = p.Seq;
  render();
}

export function mute(name) {
  state.muted.add(name);
  store(STORE_MUTED, [...state.muted]);
  send({ Type: "Mute", Name: name }, "chat");
  render();
}

export function unmute(name) {
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

function onKey(event) {
  const target = event.target;
  if (
    target &&
    (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")
  )
    return;
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
    create(form.dataset.game, Number(form.dataset.option), extra);
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
  let resized = null; // the hand's fan follows the width, once the resizing stops
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(render, 100);
  });
  setInterval(() => {
    if (state.view === "lobby" && state.conn === "open" && !state.reclaiming) listTables("tables");
  }, POLL_TABLES_MS);
  setInterval(() => {
    const left = clockLeft();
    if (state.view !== "table" || left === null) return;
    for (const node of document.querySelectorAll("#table .clock"))
      node.textContent = ` ${left.toFixed(1)} s`;
  }, 200);
  render();
  connect();
}

start();
