// Drawing the state: the lobby (options, tables), the table (seats, trick, prompt,
// hand, scores), the chat. Every server string goes in as a text node (dom.js).

import { answer, askOptions, create, join, mute, send, unmute, watch } from "./app.js";
import { cardEl, COLOURS, parseCard, rookDeck, suitEl, suitLabel } from "./cards.js";
import { $, el } from "./dom.js";
import { GAME_ORDER, gameTitle } from "./games.js";
import { bidLabel, clearError, gameInfo, myName, playerName, state } from "./state.js";

const TITLE = document.title;

export function render() {
  const active = document.activeElement;
  const keyboard = active && active.classList && active.classList.contains("choice");
  if (keyboard) state.g.highlight = Number(active.dataset.index) || 0;
  document.body.dataset.view = state.view;
  $("lobby").hidden = state.view !== "lobby";
  $("table").hidden = state.view !== "table";
  renderStatus();
  if (state.view === "lobby") renderLobby();
  else renderTable();
  renderPeople();
  renderChat();
  // A tab in the background says when it is your turn.
  document.title = `${promptChoices() ? "Your turn · " : ""}${TITLE}`;
  if (keyboard && !document.body.contains(active)) refocus();
}

export function renderStatus() {
  const node = $("status");
  node.dataset.state = state.conn;
  node.textContent =
    state.conn === "open"
      ? "connected"
      : state.conn === "reconnecting"
        ? "reconnecting…"
        : "connecting…";
}

function renderLobby() {
  renderTabs();
  renderOptions();
  renderTables();
}

/** The game tabs: built once and then only marked, so that a click never lands on a
 * button that a message's render replaced under the pointer. A tab switches at once:
 * every game's options were asked for on connecting. */
function renderTabs() {
  const tabs = $("game-tabs");
  if (tabs.children.length !== GAME_ORDER.length) {
    tabs.replaceChildren(
      ...GAME_ORDER.map((name) =>
        el(
          "button",
          {
            type: "button",
            className: "tab",
            role: "tab",
            dataset: { game: name },
            onclick: () => {
              state.game = name;
              clearError("create");
              if (!state.options[name] && !state.optionsFor.includes(name)) askOptions(name);
              render();
            },
          },
          gameTitle(name),
        ),
      ),
    );
  }
  for (const tab of tabs.children) {
    tab.setAttribute("aria-selected", String(tab.dataset.game === state.game));
  }
}

/** The presets of the tab's game, each button holding its own game (rebuilt only when
 * the game or its options change). */
function renderOptions() {
  const options = state.options[state.game];
  const box = $("options");
  const custom = $("custom");
  const key = `${state.game}:${options ? options.length : "-"}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.dataset.game = state.game;
  if (!options) {
    box.replaceChildren(el("p", { className: "meta" }, "asking the server for the options…"));
    custom.hidden = true;
    return;
  }
  if (!options.length) {
    box.replaceChildren(el("p", { className: "meta" }, "This server does not offer this game."));
    custom.hidden = true;
    return;
  }
  const game = state.game;
  const presets = options.filter((o) => !o.back && !o.custom);
  box.replaceChildren(
    ...presets.map((o) =>
      el(
        "button",
        {
          type: "button",
          className: "option",
          dataset: { option: String(o.n), game },
          onclick: () => create(game, o.n),
        },
        o.text,
      ),
    ),
  );
  const choice = options.find((o) => o.custom);
  custom.hidden = !choice;
  if (choice) renderCustom(choice);
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

export function fillBots() {
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
  // Unchanged lists keep their buttons (a click never lands on a replaced one).
  const key = JSON.stringify(tables);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
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
        buttons.push(
          el(
            "button",
            { type: "button", className: "small join", onclick: () => join(t.Table) },
            "join",
          ),
        );
      }
      if (t.watch) {
        buttons.push(
          el(
            "button",
            { type: "button", className: "small watch", onclick: () => watch(t.Table) },
            "watch",
          ),
        );
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
    if (String(t.Name ?? "") !== `table ${t.Table}`) meta.push(`table ${t.Table}`);
    meta.push(`AI: ${String(t.AI ?? "-")}`);
    if (Array.isArray(t.Flags) && t.Flags.length) meta.push(t.Flags.join(", "));
    if (typeof t.Watchers === "number" && t.Watchers) meta.push(`${t.Watchers} watching`);
    if (t.Free > 0) meta.push(`waiting for ${t.Free} more`);
  }
  if (state.watching) meta.push("you are watching");
  $("table-meta").textContent = meta.join(" · ");
  const over = Boolean(g.gameOver);
  $("leave").hidden = over;
  $("leave").textContent = state.watching ? "stop watching" : "leave table";
  $("back").hidden = !over;
  $("felt").dataset.seats = String(g.players.length);
  renderInfo();
  renderScoreline();
  renderSeats();
  renderTrick();
  renderGameOver();
  renderPrompt();
  renderHand();
  renderScores();
  $("log").replaceChildren(...g.log.slice(-12).map((line) => el("li", {}, line)));
}

/** The bar over the felt: the round, the dealer, the bid, trump (always in sight). */
function renderInfo() {
  const g = state.g;
  const parts = [];
  if (g.round !== null) parts.push(el("span", {}, `Round ${g.round}`));
  if (g.dealer !== null) parts.push(el("span", {}, `Dealer ${playerName(g.dealer)}`));
  const info = gameInfo();
  if (info.sideBids && info.sides) {
    info.sides.forEach((side, i) => {
      const seats = Object.keys(g.bidValues).filter((seat) => Number(seat) % 2 === i);
      if (!seats.length) return;
      const bid = seats.reduce((sum, seat) => sum + g.bidValues[seat], 0);
      const took = g.tricksWon ? ` · took ${g.tricksWon[i]}` : "";
      parts.push(el("span", { className: "chip side-bid" }, `${side} bid ${bid}${took}`));
    });
  } else if (g.highBid !== null && g.bidder !== null) {
    parts.push(
      el(
        "span",
        { id: "bid", className: "chip" },
        `Bid ${bidLabel(g.highBid)} · ${playerName(g.bidder)}`,
      ),
    );
  }
  if (g.trump) {
    const trump = el("span", { id: "trump", className: "chip" }, "Trump ", suitEl(g.trump));
    if (g.trumpCard) trump.append(" ", cardEl(g.trumpCard, { small: true }));
    parts.push(trump);
  }
  if (g.called.length) {
    parts.push(el("span", {}, "Called ", ...g.called.map((c) => cardEl(c, { small: true }))));
  }
  if (g.pointsInDiscard !== null) {
    parts.push(
      el("span", {}, g.pointsInDiscard ? "points in the discard" : "no points in the discard"),
    );
  }
  if (g.kitty) parts.push(el("span", {}, `Kitty ${g.kitty.count} to ${playerName(g.kitty.seat)}`));
  if (g.total !== null)
    parts.push(el("span", { id: "total", className: "chip total" }, `Total ${g.total}`));
  if (g.pile && g.pile.length) {
    parts.push(el("span", {}, "Pile ", ...g.pile.map((c) => cardEl(c, { small: true }))));
  }
  $("info").replaceChildren(...parts);
}

/** The running score (each seat's, or each side's) and what ends the game. */
function renderScoreline() {
  const g = state.g;
  const info = gameInfo();
  const parts = [el("strong", {}, "Score")];
  if (g.score) {
    const bySide = g.score.length < g.players.length && g.score.length >= 2;
    g.score.forEach((total, i) => {
      const who = bySide ? sideName(i) : playerName(i);
      parts.push(
        el("span", { className: "score", dataset: { row: String(i) } }, `${who} `, el("b", {}, String(total))),
      );
    });
  } else {
    parts.push(el("span", { className: "score" }, "none yet"));
  }
  if (info.target) parts.push(el("span", { className: "target" }, `(${info.target})`));
  $("scoreline").replaceChildren(...parts);
}

/** The seat to act and the seconds left on its clock, if it has one. */
export function clockLeft() {
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

/** Where each seat sits around the table, going left (clockwise) from the bottom: you
 * at the bottom (a watcher sees seat 0 there). */
const PLACES = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};

export function placeOf(seat) {
  const n = state.g.players.length;
  const base = state.seat !== null && !state.watching ? state.seat : 0;
  const places = PLACES[n] || [];
  return places[(seat - base + n) % n] || "top";
}

function renderSeats() {
  const g = state.g;
  const p = g.prompt;
  const perSeat = g.score && g.score.length === g.players.length;
  const boxes = g.players.map((name, seat) => {
    const box = el("div", { className: "seat", dataset: { seat: String(seat), place: placeOf(seat) } });
    const me = seat === state.seat && !state.watching;
    if (me) box.classList.add("me");
    const acting = p && p.Playerid === seat;
    if (acting) box.classList.add("acting");
    const badges = [];
    if (seat === g.dealer) badges.push(el("span", { className: "badge", title: "dealer" }, "dealer"));
    if (seat === g.bidder && !gameInfo().sideBids) badges.push(el("span", { className: "badge", title: "bidder" }, "bidder"));
    if (g.partners.has(seat)) badges.push(el("span", { className: "badge" }, "partner"));
    const side = sideOf(seat);
    box.append(
      el(
        "div",
        { className: "seat-name" },
        name === null ? "(free)" : String(name),
        me ? " (you)" : "",
      ),
      el(
        "div",
        { className: "seat-meta" },
        [side !== null ? sideName(side) : `seat ${seat}`].join(""),
        ...badges,
      ),
    );
    const facts = [];
    if (perSeat) facts.push(`score ${g.score[seat]}`);
    if (g.bids[seat] !== undefined) facts.push(`bid ${g.bids[seat]}`);
    if (g.exchanged[seat] !== undefined) facts.push(`drew ${g.exchanged[seat]}`);
    if (g.tricksKnown && g.tricksTaken[seat]) facts.push(`tricks ${g.tricksTaken[seat]}`);
    if (g.meld[seat]) facts.push(`meld ${g.meld[seat].amount}`);
    if (facts.length) box.append(el("div", { className: "seat-facts" }, facts.join(" · ")));
    if (g.meld[seat] && g.meld[seat].cards.length) {
      box.append(
        el(
          "div",
          { className: "meld" },
          ...g.meld[seat].cards.map((c) => cardEl(c, { small: true })),
        ),
      );
    }
    if (acting) {
      const left = clockLeft();
      box.append(
        el(
          "div",
          { className: "turn" },
          me ? "your turn" : "to act",
          left !== null ? el("span", { className: "clock" }, ` ${left.toFixed(1)} s`) : null,
        ),
      );
    }
    return box;
  });
  $("seats").replaceChildren(...boxes);
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The trick in the middle of the felt, each card on its player's side. A card played
 * comes in from its player (CSS, once: the nodes are kept between renders); a trick
 * taken goes to its winner, in a layer of its own, and is gone. */
function renderTrick() {
  const g = state.g;
  const info = gameInfo();
  const center = $("center");
  center.classList.toggle("pile-mode", Boolean(info.noTricks));
  $("trick-title").textContent = info.noTricks
    ? g.trick.length
      ? "Played this deal"
      : ""
    : g.trickDone
      ? `Trick to ${playerName(g.trickWinner)}`
      : "";
  const trick = $("trick");
  const number = String(g.trickNo);
  if (trick.dataset.number !== number) {
    const old = [...trick.children];
    trick.replaceChildren();
    trick.dataset.number = number;
    if (old.length && g.takenBy !== null && !info.noTricks && !reducedMotion()) {
      const taken = $("taken");
      const to = placeOf(g.takenBy);
      for (const node of old) {
        node.classList.remove("enter", "winner");
        node.classList.add("gone");
        node.dataset.to = to;
        node.removeAttribute("id");
        for (const card of node.querySelectorAll("[data-code]")) card.removeAttribute("data-code");
        taken.append(node);
        setTimeout(() => node.remove(), 1300);
      }
    }
  }
  const shown = new Set([...trick.children].map((n) => n.dataset.key));
  g.trick.forEach(({ seat, card }, i) => {
    const key = `${i}:${seat}:${card}`;
    if (shown.has(key)) return;
    const spot = el(
      "figure",
      {
        className: "played enter",
        dataset: { seat: String(seat), key, place: placeOf(seat) },
        title: playerName(seat),
        ariaLabel: `played by ${playerName(seat)}`,
      },
      cardEl(card),
    );
    trick.append(spot);
  });
  for (const spot of trick.children) {
    spot.classList.toggle("winner", g.trickDone && Number(spot.dataset.seat) === g.trickWinner);
  }
  const last = $("last-trick");
  if (g.lastTrick && g.lastTrick.cards.length) {
    last.replaceChildren(
      el("span", { className: "last-title" }, `Last trick, to ${playerName(g.lastTrick.winner)}:`),
      ...g.lastTrick.cards.map(({ seat, card }) =>
        el(
          "span",
          { className: "last-card", title: playerName(seat) },
          cardEl(card, { small: true }),
        ),
      ),
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
    text.textContent = g.gameOver
      ? ""
      : state.table && state.table.Free > 0
        ? "Waiting for players…"
        : "";
    if (gameInfo().prePass && !state.watching && g.prePassed)
      text.textContent = "You passed early.";
    return;
  }
  const left = clockLeft();
  const clock = left !== null ? el("span", { className: "clock" }, ` ${left.toFixed(1)} s`) : "";
  if (!mine) {
    text.replaceChildren(
      `Waiting for ${playerName(p.Playerid)} (${String(p.Type).toLowerCase()})`,
      clock,
    );
    if (
      gameInfo().prePass &&
      p.Type === "Bid" &&
      !state.watching &&
      state.seat !== null &&
      !g.passed.has(state.seat)
    ) {
      choices.append(
        g.prePassed
          ? el(
              "button",
              {
                type: "button",
                className: "small",
                onclick: () => send({ Type: "Unpass" }, "prompt"),
              },
              "take back the pass",
            )
          : el(
              "button",
              {
                type: "button",
                className: "small",
                onclick: () => send({ Type: "Bid", Bid: 0 }, "prompt"),
              },
              "pass early",
            ),
      );
    }
    return;
  }
  const context = [];
  if (p.Lead) context.push(`lead ${suitLabel(p.Lead)}`);
  if (p.WinningCard) context.push(`winning: ${parseCard(p.WinningCard).label}`);
  if (typeof p.Total === "number") context.push(`total ${p.Total}`);
  text.replaceChildren(
    `${PROMPT_TEXT[p.Type] || p.Type}${context.length ? ` (${context.join(", ")})` : ""}`,
    clock,
  );
  const busy = g.sentSeq === p.Seq;
  if (p.Type === "Bid") {
    p.Legal.forEach((value, i) =>
      choices.append(
        choiceButton(bidLabel(value), JSON.stringify(value), i, busy, () =>
          answer({ Type: "Bid", Bid: value }),
        ),
      ),
    );
  } else if (p.Type === "Trump") {
    p.Legal.forEach((value, i) => {
      const button = choiceButton("", JSON.stringify(value), i, busy, () =>
        answer({ Type: "Trump", Trump: value }),
      );
      button.append(suitEl(value));
      choices.append(button);
    });
  } else if (p.Type === "Discard" || p.Type === "Setup") {
    renderPick(p, busy);
  }
  // Play: the legal cards of the hand are the buttons (renderHand).
}

function choiceButton(label, value, index, busy, action) {
  const button = el(
    "button",
    {
      type: "button",
      className: "choice",
      disabled: busy,
      dataset: { value, index: String(index) },
      onclick: action,
    },
    label,
  );
  if (index < 10) button.append(el("kbd", { className: "key", ariaHidden: "true" }, String((index + 1) % 10)));
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
      const b = el("button", {
        type: "button",
        className: "colour",
        disabled: busy,
        dataset: { colour: c },
        ariaPressed: String(g.setupTrump === c),
        onclick: () => {
          g.setupTrump = c;
          render();
        },
      });
      b.append(suitEl(c));
      row.append(b);
      void i;
    });
    choices.append(
      el("p", { className: "meta" }, `Discard ${count} (${picked.length} picked)`),
      row,
    );
    for (let k = 0; k < calls; k++) {
      const select = el("select", {
        className: "call",
        dataset: { call: String(k) },
        ariaLabel: `partner card ${k + 1}`,
        disabled: busy,
      });
      select.append(el("option", { value: "" }, "call a card…"));
      for (const code of rookDeck())
        select.append(
          el("option", { value: code, selected: g.setupCalls[k] === code }, parseCard(code).label),
        );
      select.addEventListener("change", () => {
        g.setupCalls[k] = select.value;
        render();
      });
      choices.append(el("label", { className: "inline" }, `Partner card ${k + 1}: `, select));
    }
    const ready =
      picked.length === count && g.setupTrump && g.setupCalls.filter(Boolean).length === calls;
    const confirm = el(
      "button",
      {
        type: "button",
        className: "choice confirm",
        disabled: busy || !ready,
        dataset: { value: "confirm", index: String(g.hand.length) },
        onclick: () => {
          const msg = { Type: "Setup", Discard: picked, Trump: g.setupTrump };
          if (calls) msg.Partners = g.setupCalls.slice(0, calls);
          answer(msg);
        },
      },
      ready ? "Confirm the setup" : `Confirm (pick ${count}, trump${calls ? ", calls" : ""})`,
    );
    choices.append(confirm);
    return;
  }
  const label = picked.length ? `Throw away ${picked.length} and draw` : "Keep my hand";
  choices.append(
    el(
      "button",
      {
        type: "button",
        className: "choice confirm",
        disabled: busy,
        dataset: { value: "confirm", index: String(g.hand.length) },
        onclick: () => answer({ Type: "Discard", Cards: picked }),
      },
      label,
    ),
  );
}

function renderHand() {
  const g = state.g;
  const box = $("hand-box");
  box.hidden = state.watching || (g.round === null && !g.hand.length);
  if (box.hidden) {
    $("hand").replaceChildren();
    return;
  }
  $("hand-title").textContent = `Your hand (${g.hand.length})`;
  const p = promptChoices();
  const busy = p && g.sentSeq === p.Seq;
  const pick = p && (p.Type === "Discard" || p.Type === "Setup");
  const legal = p && p.Type === "Play" ? new Set(p.Legal.map(String)) : null;
  let index = 0;
  const cards = g.hand.map((code, i) => {
    if (pick || (legal && legal.has(code))) {
      const card = cardEl(code, { button: true });
      card.classList.add("choice");
      card.disabled = Boolean(busy);
      card.dataset.value = code;
      card.dataset.index = String(index);
      if (index < 10) {
        const key = String((index + 1) % 10); // drawn by CSS: the card's name is its label
        card.append(el("kbd", { className: "key", ariaHidden: "true", dataset: { glyph: key } }));
      }
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
  });
  $("hand").replaceChildren(...fan(cards));
}

/** The hand fanned: each card overlapping the one before it (its corner index always
 * in sight, at least MIN_STRIP px of it), a slight tilt and arc; in two rows when one
 * would leave less. */
const MIN_STRIP = 28;

/** A fan row's padding, each side (style.css): room for the tilted cards' corners. */
const FAN_PADDING = 16;

function fan(cards) {
  const hand = $("hand");
  const width = (hand.clientWidth || 340) - 2 * FAN_PADDING;
  const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 56;
  const fits = (k) => k <= 1 || cardWidth + (k - 1) * MIN_STRIP <= width;
  const rowCount = fits(cards.length) ? 1 : 2;
  const perRow = Math.ceil(cards.length / rowCount);
  const rows = [];
  for (let r = 0; r < rowCount; r++) {
    const some = cards.slice(r * perRow, (r + 1) * perRow);
    const k = some.length;
    const strip = k > 1 ? Math.min(cardWidth + 6, (width - cardWidth) / (k - 1)) : 0;
    const row = el("div", { className: "fan-row" }, ...some);
    row.style.setProperty("--overlap", `${(strip - cardWidth).toFixed(1)}px`);
    const tilt = Math.min(2.5, 20 / Math.max(k, 1));
    some.forEach((card, i) => {
      const offset = i - (k - 1) / 2;
      card.style.setProperty("--tilt", `${(offset * tilt).toFixed(2)}deg`);
      card.style.setProperty("--drop", `${Math.min(12, offset * offset * 0.35).toFixed(1)}px`);
    });
    rows.push(row);
  }
  return rows;
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
  const columns = Object.keys(m).filter(
    (k) =>
      k !== "Score" &&
      Array.isArray(m[k]) &&
      m[k].length === n &&
      m[k].every((v) => typeof v === "number"),
  );
  const head = el(
    "tr",
    {},
    el("th", {}, bySide ? "Side" : "Player"),
    ...columns.map((k) => el("th", {}, k)),
    el("th", {}, "Score"),
  );
  const rows = g.score.map((total, i) => {
    let who = bySide ? sideName(i) : playerName(i);
    if (bySide)
      who += ` (${g.players
        .filter((_, s) => s % n === i)
        .map(String)
        .join(", ")})`;
    return el(
      "tr",
      { dataset: { row: String(i) } },
      el("td", {}, who),
      ...columns.map((k) => el("td", {}, String(m[k][i]))),
      el("td", { className: "total" }, String(total)),
    );
  });
  const caption = m.Round ? `Scores after round ${m.Round}` : "Scores";
  box.replaceChildren(
    el("table", {}, el("caption", {}, caption), el("thead", {}, head), el("tbody", {}, ...rows)),
  );
}

/** Beside the table: who sits at it, and how many watch. */
function renderPeople() {
  const box = $("people");
  const t = state.table;
  box.hidden = state.view !== "table" || !t;
  if (box.hidden) return;
  const g = state.g;
  $("people-list").replaceChildren(
    ...g.players.map((name, seat) =>
      el(
        "li",
        { dataset: { seat: String(seat) } },
        name === null ? "(free seat)" : String(name),
        seat === state.seat && !state.watching ? " (you)" : "",
      ),
    ),
  );
  const watchers = typeof t.Watchers === "number" ? t.Watchers : 0;
  const you = state.watching ? " (you among them)" : "";
  $("watchers").textContent =
    watchers === 1 ? `1 watching${you}` : `${watchers || "nobody"} watching${you}`;
}

function renderChat() {
  const lines = state.chat.filter((c) => !state.muted.has(c.from));
  // Our own lines (no mute button): our name, or our seat's ("ann (2)").
  const self = new Set([myName(), state.seat !== null ? state.g.players[state.seat] : null]);
  $("chat-lines").replaceChildren(
    ...lines.slice(-20).map((c) => {
      const li = el(
        "li",
        { dataset: { from: c.from } },
        el("span", { className: "where" }, c.where ? `[${c.where}] ` : ""),
        el("strong", {}, c.from),
        ": ",
        el("span", { className: "text" }, c.text),
      );
      if (!self.has(c.from)) {
        li.append(
          " ",
          el(
            "button",
            { type: "button", className: "small mute", onclick: () => mute(c.from) },
            "mute",
          ),
        );
      }
      return li;
    }),
  );
  const muted = [...state.muted];
  $("muted").replaceChildren(
    ...(muted.length ? ["muted: "] : []),
    ...muted.map((name) =>
      el(
        "button",
        {
          type: "button",
          className: "small unmute",
          dataset: { name },
          onclick: () => unmute(name),
        },
        `${name} ✕`,
      ),
    ),
  );
}

export function choiceButtons() {
  return [...document.querySelectorAll("#table:not([hidden]) .choice")]
    .filter((b) => !b.disabled)
    .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
}

/** After a re-render, the keyboard's choice keeps the focus. */
function refocus() {
  const buttons = choiceButtons();
  if (!buttons.length) return;
  const index = Math.min(state.g.highlight, buttons.length - 1);
  buttons[index].focus();
}
