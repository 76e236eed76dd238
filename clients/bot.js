#!/usr/bin/env node
// A Hundred and Ten bot for hundred_server in Node.js (20+), no dependencies.
//
// It speaks the line protocol of protocol.md: one JSON object per line over TCP.
//
//   node clients/bot.js --create 4                 open a 4-seat table for people
//   node clients/bot.js --create 1                 play against three AI seats
//   node clients/bot.js --create 5 --seats 3 --bots 1 --table-name friday
//   node clients/bot.js --join 7                   join table 7
//   node clients/bot.js --join any --wait 30       join the first open table
//
// Options: --host (127.0.0.1), --port (7110), --name, --games N (play N games back to
// back), --wait S (how long --join looks for a table, default 30), --timeout S (give up
// after S silent seconds), --seed, --strategy naive|random (naive is the default;
// four random bots may never finish a game), --verbose (every line received "-->"
// and sent "<--" on stderr).
//
// It learns its seat from Deal (Playerid), answers only prompts (messages with Seq)
// for its seat that carry Legal, echoes Seq, and answers each Seq once. After an Error
// it waits for the prompt the server sends again; after 3 errors for one Seq it falls
// back to the first legal answer, after 6 it gives up. At the end it prints one JSON
// line {"name","games","wins","scores"} and exits 0; on a connection failure or a
// protocol surprise it prints why on stderr and exits 1.
"use strict";

const net = require("net");

const FALLBACK_AFTER = 3;
const GIVE_UP_AFTER = 6;
const MAX_LOBBY_ERRORS = 10;
const RETRY_DELAY_MS = 500;
const QUIT_WAIT_MS = 5000;
const NUDGE_AFTER_MS = 1000;

// --- command line ---------------------------------------------------------------

const USAGE = `usage: node bot.js (--create 1..6 | --join ID|any) [--host H] [--port P]
  [--name NAME] [--games N] [--wait S] [--timeout S] [--seed S]
  [--strategy random|naive] [--seats N --bots N --table-name NAME] [--verbose]`;

function parseArgs(argv) {
  const opts = { host: "127.0.0.1", port: 7110, games: 1, wait: 30, strategy: "naive" };
  const valued = {
    "--create": "create", "--join": "join", "--host": "host", "--port": "port",
    "--name": "name", "--games": "games", "--wait": "wait", "--timeout": "timeout",
    "--seed": "seed", "--strategy": "strategy", "--seats": "seats", "--bots": "bots",
    "--table-name": "tableName",
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    if (arg.includes("=")) [arg, value] = [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)];
    if (arg === "--verbose") opts.verbose = true;
    else if (arg === "--help" || arg === "-h") { console.log(USAGE); process.exit(0); }
    else if (valued[arg]) {
      if (value === undefined) value = argv[++i];
      if (value === undefined) usageError(`${arg} needs a value`);
      opts[valued[arg]] = value;
    } else usageError(`unknown argument ${arg}`);
  }
  const whole = (key, lo, hi) => {
    if (opts[key] === undefined) return;
    const n = Number(opts[key]);
    if (!Number.isInteger(n) || n < lo || n > hi) usageError(`--${key}: a whole number ${lo}..${hi}`);
    opts[key] = n;
  };
  whole("port", 1, 65535); whole("games", 1, 1e9); whole("create", 1, 6);
  whole("seats", 2, 4); whole("bots", 0, 3);
  for (const key of ["wait", "timeout"]) {
    if (opts[key] !== undefined && !(Number(opts[key]) >= 0)) usageError(`--${key}: seconds`);
    if (opts[key] !== undefined) opts[key] = Number(opts[key]);
  }
  if ((opts.create === undefined) === (opts.join === undefined)) usageError("give one of --create or --join");
  if (opts.join !== undefined && opts.join !== "any" && !/^\d+$/.test(opts.join)) usageError("--join takes a table id or 'any'");
  if (!["random", "naive"].includes(opts.strategy)) usageError("--strategy random|naive");
  return opts;
}

function usageError(text) {
  console.error(`bot: ${text}\n${USAGE}`);
  process.exit(2); // as Python's argparse does
}

// --- seeded random numbers (mulberry32 over a string hash) -------------------------

function makeRng(seed) {
  let h = 1779033703;
  const text = seed === undefined ? String(Math.random()) : String(seed);
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --- cards and the naive strategy ----------------------------------------------------

const SUITS = ["H", "D", "S", "C"];
const isTrump = (card, trump) => card === "JK" || card === "AH" || card[1] === trump;

function trumpOrder(trump) {
  const low = "HD".includes(trump) ? "T9876432" : "2346789T";
  return [`5${trump}`, `J${trump}`, "JK", "AH", ...(trump !== "H" ? [`A${trump}`] : []),
    `K${trump}`, `Q${trump}`, ...[...low].map((rank) => rank + trump)];
}

// How strong a card is in a trick led in `lead`; 0 when it cannot win it.
function power(card, trump, lead) {
  if (isTrump(card, trump)) {
    const order = trumpOrder(trump);
    return 100 + order.length - order.indexOf(card);
  }
  if (card[1] === lead) {
    const plain = "HD".includes(lead) ? "AKQJT98765432" : "AKQJ23456789T";
    return 1 + plain.length - plain.indexOf(card[0]);
  }
  return 0;
}

function bestSuit(hand) {
  let best = null;
  for (const suit of SUITS) {
    const trumps = hand.filter((card) => isTrump(card, suit));
    const merit = [trumps.length, trumps.reduce((sum, card) => sum + power(card, suit, suit), 0)];
    if (!best || merit[0] > best.count || (merit[0] === best.count && merit[1] > best.strength)) {
      best = { suit, count: merit[0], strength: merit[1] };
    }
  }
  return best;
}

function makeStrategy(kind, rng) {
  const choice = (list) => list[Math.floor(rng() * list.length)];
  if (kind === "random") {
    return {
      bid: (legal) => choice(legal),
      trump: (legal) => choice(legal),
      discard: (legal) => legal.filter(() => rng() < 0.5),
      play: (legal) => choice(legal),
    };
  }
  return {
    bid(legal, hand) {
      const wanted = { 3: 15, 4: 20, 5: 25 }[bestSuit(hand).count] || 0;
      const bids = legal.filter((amount) => amount > 0 && amount <= wanted);
      if (bids.length) return Math.min(...bids);
      return legal.includes(0) ? 0 : Math.min(...legal);
    },
    trump(legal, hand) {
      const suit = bestSuit(hand).suit;
      return legal.includes(suit) ? suit : legal[0];
    },
    discard: (legal, trump) => (trump ? legal.filter((card) => !isTrump(card, trump)) : []),
    play(legal, prompt) {
      const trump = String(prompt.Trump || "");
      let { Lead: lead, WinningCard: winning } = prompt;
      if (typeof lead !== "string" || typeof winning !== "string") lead = winning = null;
      const key = (card) => [power(card, trump, lead || card[1]), power(card, trump, card[1])];
      const cheapest = (cards) => cards.reduce((a, b) => {
        const [ka, kb] = [key(a), key(b)];
        return kb[0] < ka[0] || (kb[0] === ka[0] && kb[1] < ka[1]) ? b : a;
      });
      if (lead && winning) {
        const beats = legal.filter((card) => key(card)[0] > power(winning, trump, lead));
        if (beats.length) return cheapest(beats);
      }
      return cheapest(legal);
    },
  };
}

// --- the bot ---------------------------------------------------------------------------

class Surprise extends Error {}

class Bot {
  constructor(opts) {
    this.opts = opts;
    this.label = opts.name || (opts.create ? `create ${opts.create}` : `join ${opts.join}`);
    this.strategy = makeStrategy(opts.strategy, makeRng(opts.seed));
    this.played = 0;
    this.wins = 0;
    this.scores = [];
    this.seat = null;
    this.hand = [];
    this.trump = null;
    this.quitting = false;
    this.wentBack = false; // answered option 6: quit at the next lobby question
    this.joinDeadline = null;
    this.lobbyErrors = 0;
    this.errorsBySeq = new Map();
    this.lastSeq = null; // the Seq of our last answer
    this.mayRepeat = false; // an Error came after that answer: its prompt comes again
    this.buffer = "";
    this.done = false;
    this.retryTimer = null;
    this.connected = false;
  }

  start() {
    this.socket = net.createConnection({ host: this.opts.host, port: this.opts.port });
    this.socket.on("connect", () => { this.connected = true; });
    this.socket.setEncoding("utf8"); // a StringDecoder: multi-byte characters split across chunks are safe
    this.socket.on("data", (chunk) => this.onData(chunk));
    this.socket.on("end", () => this.onClose());
    this.socket.on("close", () => this.onClose());
    this.socket.on("error", (err) => {
      const where = !this.connected ? `cannot connect to ${this.opts.host}:${this.opts.port}` : "connection lost";
      if (this.connected && err.code === "ECONNRESET") this.onClose();
      else this.fail(`${where}: ${err.message}`);
    });
    this.armSilence();
  }

  armSilence() {
    clearTimeout(this.silenceTimer);
    const seconds = this.quitting ? QUIT_WAIT_MS / 1000 : this.opts.timeout;
    if (!seconds) return;
    this.silenceTimer = setTimeout(() => {
      if (this.quitting) this.finish();
      else this.fail(`the server said nothing for ${seconds} s`);
    }, seconds * 1000);
  }

  log(arrow, line) {
    if (this.opts.verbose) process.stderr.write(`[${this.label}] ${arrow} ${line}\n`);
  }

  send(message) {
    const line = JSON.stringify(message);
    this.log("<--", line);
    this.socket.write(line + "\n");
  }

  onData(chunk) {
    if (this.done) return;
    this.armSilence();
    this.buffer += chunk;
    let newline;
    while (!this.done && (newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, "");
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.trim()) continue;
      this.log("-->", line);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return this.fail(`the server sent a line that is not JSON: ${line}`);
      }
      if (message === null || typeof message !== "object" || Array.isArray(message)) {
        return this.fail(`the server sent JSON that is not an object: ${line}`);
      }
      try {
        this.handle(message);
      } catch (err) {
        if (err instanceof Surprise) return this.fail(err.message);
        throw err;
      }
    }
    if (this.buffer.length > 1 << 20) this.fail("the server sent a line longer than 1 MiB");
  }

  onClose() {
    if (this.done) return;
    if (this.quitting) return this.finish();
    this.fail(`the server closed the connection unexpectedly (${this.seat === null ? "in the lobby" : "in a game"})`);
  }

  finish() {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.silenceTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.nudgeTimer);
    this.socket.destroy();
    const summary = { name: this.opts.name ?? null, games: this.played, wins: this.wins, scores: this.scores };
    process.stdout.write(JSON.stringify(summary) + "\n", () => process.exit(0));
  }

  fail(text) {
    if (this.done) return;
    this.done = true;
    process.stderr.write(`bot: ${text}\n`, () => process.exit(1));
    this.socket.destroy();
  }

  handle(msg) {
    const kind = msg.Type;
    if (["Hello", "Game", "Tables", "Table", "Deal"].includes(kind)) clearTimeout(this.nudgeTimer);
    if (kind === "Hello") this.onLobbyQuestion();
    else if (kind === "Game") this.onGameOptions();
    else if (kind === "Tables") this.onTables(msg.Tables);
    else if (kind === "Error") this.onError(msg);
    else if (kind === "Deal") {
      this.seat = intField(msg, "Playerid");
      this.hand = Array.isArray(msg.Hand) ? msg.Hand.map(String) : [];
      this.trump = null;
    } else if (kind === "Score" && msg.GameOver) this.onGameOver(msg);
    else if (kind === "Trump" && !("Seq" in msg)) this.trump = msg.Trump;
    else if (kind === "Discard" && Array.isArray(msg.Hand) && msg.Playerid === this.seat) this.hand = msg.Hand.map(String);
    else if ("Seq" in msg && "Legal" in msg) this.onPrompt(msg);
    // Anything else (Message, Table, announcements, other seats' prompts) is news.
  }

  // lobby

  hello(choice) {
    const answer = { Type: "Hello", Message: choice };
    if (this.opts.name) answer.Name = this.opts.name;
    this.send(answer);
  }

  onLobbyQuestion() {
    this.seat = null;
    if (this.played >= this.opts.games || this.wentBack) {
      this.quitting = true;
      this.armSilence();
      this.send({ Type: "Hello", Message: "quit" });
    } else this.hello(this.opts.create !== undefined ? "create" : "join");
  }

  onGameOptions() {
    const { create, seats, bots, tableName } = this.opts;
    if (create === undefined) throw new Surprise("the server offered table options to a bot that joins");
    const answer = { Type: "Game", Option: create };
    if (create === 5) {
      if (seats !== undefined) answer.Seats = seats;
      if (bots !== undefined) answer.Bots = bots;
      if (tableName) answer.Name = tableName;
    }
    this.wentBack = create === 6;
    this.send(answer);
  }

  onTables(tables) {
    if (!Array.isArray(tables)) throw new Surprise(`Tables is not a list: ${JSON.stringify(tables)}`);
    for (const table of tables) {
      if (!table || typeof table !== "object" || (table.Free ?? 1) < 1) continue;
      if ((table.Game ?? "hundredandten") !== "hundredandten") continue;
      if (this.opts.join === "any" || this.opts.join === String(table.Table)) {
        this.joinDeadline = null;
        return this.send({ Type: "Join", Table: table.Table });
      }
    }
    if (this.joinDeadline === null) this.joinDeadline = Date.now() + this.opts.wait * 1000;
    if (Date.now() >= this.joinDeadline) {
      const wanted = this.opts.join === "any" ? "no table" : `table ${this.opts.join} not`;
      throw new Surprise(`${wanted} open within ${this.opts.wait} s (--wait)`);
    }
    // back to the lobby, and ask for the list again
    this.retryTimer = setTimeout(() => this.done || this.hello("join"), RETRY_DELAY_MS);
  }

  // the game

  onPrompt(msg) {
    if (msg.Playerid !== this.seat) return;
    if (this.seat === null) throw new Surprise(`a prompt with Legal before any Deal: ${JSON.stringify(msg)}`);
    const seq = intField(msg, "Seq");
    const { Legal: legal, Type: kind } = msg;
    if (!Array.isArray(legal) || (!legal.length && kind !== "Discard")) {
      throw new Surprise(`a prompt with no legal answer: ${JSON.stringify(msg)}`);
    }
    const wanted = kind === "Bid" ? "number" : "string";
    if (!legal.every((item) => typeof item === wanted)) {
      throw new Surprise(`Legal is not a list of ${wanted}s: ${JSON.stringify(msg)}`);
    }
    if (seq === this.lastSeq && !this.mayRepeat) return; // answered; a prompt comes again only after an Error
    this.mayRepeat = false;
    const errors = this.errorsBySeq.get(seq) || 0;
    if (errors >= GIVE_UP_AFTER) throw new Surprise(`the server refused ${errors} answers to prompt Seq ${seq}`);
    const fallback = errors >= FALLBACK_AFTER;
    const answer = { Type: kind, Playerid: this.seat, Seq: seq };
    if (kind === "Bid") answer.Bid = fallback ? legal[0] : this.strategy.bid(legal, this.hand);
    else if (kind === "Trump") answer.Trump = fallback ? legal[0] : this.strategy.trump(legal, this.hand);
    else if (kind === "Discard") answer.Cards = fallback ? [] : this.strategy.discard(legal, this.trump);
    else if (kind === "Play") {
      if (msg.Trump) this.trump = msg.Trump;
      answer.PlayedCard = fallback ? legal[0] : this.strategy.play(legal, msg);
    } else throw new Surprise(`a prompt of unknown Type: ${JSON.stringify(msg)}`);
    this.lastSeq = seq;
    this.send(answer);
  }

  onError(msg) {
    const text = `${msg.Code}: ${msg.Message}`;
    if (this.seat !== null && this.lastSeq !== null) {
      const count = (this.errorsBySeq.get(this.lastSeq) || 0) + 1;
      this.errorsBySeq.set(this.lastSeq, count);
      this.mayRepeat = true;
      process.stderr.write(`bot: error for Seq ${this.lastSeq} (${count}): ${text}\n`);
      return; // the server sends the prompt again
    }
    if (["bad_name", "bad_option", "line_too_long"].includes(msg.Code)) throw new Surprise(`the server refused us: ${text}`);
    if (++this.lobbyErrors >= MAX_LOBBY_ERRORS) throw new Surprise(`${this.lobbyErrors} lobby errors in a row, the last ${text}`);
    process.stderr.write(`bot: lobby error: ${text}\n`);
    if (this.opts.join !== undefined) {
      // e.g. the table filled up: if no new prompt comes, look at the list again
      clearTimeout(this.nudgeTimer);
      this.nudgeTimer = setTimeout(() => this.done || this.hello("join"), NUDGE_AFTER_MS);
    }
  }

  onGameOver(msg) {
    const score = msg.Score;
    if (this.seat === null || !Array.isArray(score) || score.length <= this.seat) {
      throw new Surprise(`GameOver that does not fit our seat ${this.seat}: ${JSON.stringify(msg)}`);
    }
    this.played += 1;
    if (msg.Win) this.wins += 1;
    this.scores.push(score[this.seat]);
    this.seat = null;
    this.lastSeq = null;
    this.lobbyErrors = 0;
    this.errorsBySeq.clear();
  }
}

function intField(msg, key) {
  if (!Number.isInteger(msg[key])) throw new Surprise(`${msg.Type} without an integer ${key}: ${JSON.stringify(msg)}`);
  return msg[key];
}

new Bot(parseArgs(process.argv.slice(2))).start();
