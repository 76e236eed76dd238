// The public results (issue #31): a leaderboard per game and pool, an account's page,
// and a finished game's record stepped through trick by trick. They read the server's
// JSON API (protocol.md, Accounts); nothing here writes.

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

// A record's lines (records.py) as steps: the deal, the auction, then each trick.
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
      current.lines.push(`${name(line.Playerid)} plays ${line.PlayedCard}`);
      continue;
    }
    if (current === null) begin("Before the deal");
    const { Type, Playerid, ...what } = line;
    current.lines.push(`${name(Playerid)}: ${Type} ${JSON.stringify(what)}`);
  }
  return { players, steps: out };
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
  const show = () => {
    const step = record.steps[at];
    document.getElementById("where").textContent = `${at + 1} of ${record.steps.length}`;
    document.getElementById("step").textContent = step
      ? `${step.title}\n${step.lines.join("\n")}`
      : "";
  };
  document.getElementById("prev").onclick = () => {
    at = Math.max(0, at - 1);
    show();
  };
  document.getElementById("next").onclick = () => {
    at = Math.min(record.steps.length - 1, at + 1);
    show();
  };
  show();
}

const pages = { leaderboard, account, game };
(pages[page] || (async () => say("no such page")))().catch((error) => say(String(error.message)));
