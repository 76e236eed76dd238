// The server's messages (protocol.md), each folded into the state: the lobby's lists
// and options, the table, and every game's deals, prompts, moves and scores. Nothing
// here draws; render.js draws the state after each message.

import { askAllOptions, listTables, send } from "./app.js";
import { $ } from "./dom.js";
import {
  addLog,
  bidLabel,
  freshGame,
  gameInfo,
  leaveTableView,
  savedToken,
  setError,
  showTableView,
  state,
  store,
  STORE_TOKEN,
} from "./state.js";

const OPTION_RE = /^Option (\d+) - (.*)$/;

const CUSTOM_RE = /^A table of your choice(?:: Seats \((\d+)-(\d+)\)(.*))?/;

const LOBBY_QUESTION_RE = /^Do you want to join a game/;

const CHAT_LINES = 80;

export function handle(msg) {
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
    } else state.tables = list;
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
    nextTrick();
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
    askAllOptions();
    listTables();
  }
}

function onMessage(m) {
  const text = typeof m.Message === "string" ? m.Message : "";
  const option = OPTION_RE.exec(text);
  if (option && state.optionsFor.length) {
    state.optionLines.push({ n: Number(option[1]), text: option[2] });
    return;
  }
  if (LOBBY_QUESTION_RE.test(text)) return;
  if (state.view === "lobby")
    state.notice = text; // e.g. "You muted bob: ..."
  else addLog(text);
}

function onGamePrompt() {
  // The Game prompt again after an error (bad_game): no options came, none were owed.
  if (!state.optionLines.length) return;
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
  g.bidValues = {};
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
  // Who took the tricks before we came is known only from Winners (Rook's snapshot).
  g.tricksKnown = Array.isArray(m.Winners) || !m.Tricks;
  if (Array.isArray(m.Pile)) g.pile = m.Pile.slice();
  if (typeof m.Total === "number") g.total = m.Total;
  nextTrick();
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
  nextTrick();
  Object.assign(g, {
    bids: {},
    bidValues: {},
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
    tricksKnown: true,
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
  const label = bidLabel(b.Moon ? "moon" : (b.Bid ?? 0));
  g.bids[b.Playerid] = label;
  g.bidValues[b.Playerid] = typeof b.Bid === "number" ? b.Bid : 0;
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
    g.takenBy = g.trickWinner;
    g.trickNo += 1;
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
    askAllOptions();
    listTables();
    return;
  }
  if (m.Code === "bad_game" && state.view === "lobby" && state.optionsFor.length) {
    // A game this server does not host: its options never come (the next ones are
    // the next game's); its tab says so (render.js).
    const game = state.optionsFor.shift();
    state.options[game] = [];
    state.optionLines = [];
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
  if (typeof m.Trump === "string" && !g.trump) g.trump = m.Trump; // Spades: always S
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

/** The trick on the table is gone (a new round, a snapshot): taken by its winner if
 * it was finished. */
function nextTrick() {
  const g = state.g;
  g.takenBy = g.trickDone ? g.trickWinner : null;
  g.trickNo += 1;
}

/** A move was announced: the prompt it answered is done. */
function moved(m) {
  const g = state.g;
  if (g.prompt && g.prompt.Playerid === m.Playerid) g.prompt = null;
}
