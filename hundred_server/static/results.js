// The public results (issue #31): a leaderboard per game and pool, an account's page,
// and a finished game's record stepped through trick by trick. They read the server's
// JSON API (protocol.md, Accounts); nothing here writes.

import { cardEl, suitLabel } from "./cards.js";
import { el } from "./dom.js";

const page = document.body.dataset.page;
const query = new URLSearchParams(location.search);

function say(text) {
  document.getElementById("error").textContent = text;
}

async function fetchJson(path) {
  const answer = await fetch(path);
  const body = await answer.json();
  if (!answer.ok) throw new Error(`${body.Code}: ${body.Message}`);
  return body;
}

function row(cells) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const td = document.createElement("td");
    if (cell instanceof Node) td.append(cell);
    else td.textContent = String(cell);
    tr.append(td);
  }
  return tr;
}

function accountLink(name) {
  const a = document.createElement("a");
  a.href = `/results-account.html?name=${encodeURIComponent(name)}`;
  a.textContent = name;
  return a;
}

async function leaderboard() {
  const form = document.getElementById("pick");
  const game = query.get("game") || "hundredandten";
  const pool = query.get("pool") || "bots";
  form.game.value = game;
  form.pool.value = pool;
  const rows = await fetchJson(
    `/api/leaderboard?game=${encodeURIComponent(game)}&pool=${encodeURIComponent(pool)}`,
  );
  const body = document.querySelector("#board tbody");
  body.replaceChildren(
    ...rows.map((r, i) =>
      row([i + 1, accountLink(r.name), r.rating.toFixed(2), r.sigma.toFixed(2), r.games, r.wins]),
    ),
  );
  if (!rows.length) say("Nobody is rated in this game and pool yet.");
}

async function account() {
  const name = query.get("name") || "";
  const found = await fetchJson(`/api/accounts/${encodeURIComponent(name)}`);
  document.getElementById("name").textContent = `${found.name}${found.bot ? " (a bot)" : ""}`;
  document.querySelector("#ratings tbody").replaceChildren(
    ...found.ratings.map((r) =>
      row([r.game, r.pool, r.rating.toFixed(2), r.sigma.toFixed(2), r.games, r.wins]),
    ),
  );
  document.getElementById("games").replaceChildren(
    ...found.games.map((g) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/results-game.html?id=${g.id}`;
      a.textContent = `game ${g.id} (${g.game})`;
      const names = g.seats.map((s) => (s ? s.name : "AI")).join(", ");
      li.append(a, ` ${names}`);
      return li;
    }),
  );
}

// A record's lines (records.py) as steps: each deal with its auction, then each trick.
// A step's lines are [who, what, cards]: a seat's name, what it did, the cards shown.
function steps(lines) {
  const [head, ...rest] = lines;
  const players = head.Players || [];
  const name = (seat) => players[seat] ?? `seat ${seat}`;
  const out = [];
  let current = null;
  let plays = 0;
  let rounds = 0;
  const begin = (title) => {
    current = { title, lines: [] };
    out.push(current);
  };
  for (const line of rest) {
    if (line.Type === "Deal") {
      rounds += 1;
      begin(`Round ${rounds}: dealt by ${name(line.Dealer)}`);
      plays = 0;
      continue;
    }
    if (line.Type === "Play") {
      if (plays % players.length === 0) begin(`Trick ${plays / players.length + 1}`);
      plays += 1;
      current.lines.push([name(line.Playerid), "plays", [line.PlayedCard]]);
      continue;
    }
    if (current === null) begin("Before the deal");
    current.lines.push(said(head.Game, name(line.Playerid), line));
  }
  return { players, steps: out };
}

// One line of a record other than a deal or a play, in words.
function said(game, who, line) {
  const { Type, Playerid, ...what } = line;
  if (Type === "Bid" && typeof line.Bid === "number") {
    if (line.Bid === 0) return [who, game === "spades" ? "bids nil" : "passes", []];
    return [who, `bids ${line.Bid}`, []];
  }
  if (Type === "Trump" && typeof line.Trump === "string") {
    return [who, `names ${suitLabel(line.Trump)} trump`, []];
  }
  if (Type === "Discard" && Array.isArray(line.Cards)) {
    return [who, line.Cards.length ? "discards" : "discards nothing", line.Cards];
  }
  return [who, `${Type} ${JSON.stringify(what)}`, []];
}

function stepEl(step) {
  const list = el("ul", { className: "step-lines" });
  for (const [who, what, cards] of step.lines) {
    const shown = cards.map((c) => cardEl(c, { small: true }));
    list.append(
      el("li", {}, el("span", { className: "who" }, who), ` ${what}`, shown.length ? " " : "", ...shown),
    );
  }
  return [el("h3", {}, step.title), list];
}

async function game() {
  const id = query.get("id") || "";
  const answer = await fetch(`/api/games/${encodeURIComponent(id)}`);
  if (!answer.ok) {
    const body = await answer.json();
    throw new Error(`${body.Code}: ${body.Message}`);
  }
  const lines = (await answer.text())
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const record = steps(lines);
  document.getElementById("title").textContent =
    `Game ${id}: ${lines[0].Game}, ${record.players.join(", ")}`;
  let at = 0;
  const prev = document.getElementById("prev");
  const next = document.getElementById("next");
  const show = () => {
    const step = record.steps[at];
    document.getElementById("where").textContent = `${at + 1} of ${record.steps.length}`;
    document.getElementById("step").replaceChildren(...(step ? stepEl(step) : []));
    prev.disabled = at === 0;
    next.disabled = at >= record.steps.length - 1;
  };
  const go = (by) => {
    at = Math.min(Math.max(0, at + by), Math.max(0, record.steps.length - 1));
    show();
  };
  prev.onclick = () => go(-1);
  next.onclick = () => go(1);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "ArrowRight") go(1);
  });
  show();
}

const pages = { leaderboard, account, game };
(pages[page] || (async () => say("no such page")))().catch((error) => say(String(error.message)));
