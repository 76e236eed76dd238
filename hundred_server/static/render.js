// Drawing the state: the lobby (lobby.js), the table (the felt: felt.js; here the
// prompt and its choices, the game over, the scores), who is at the table, and the
// chat. Every server string goes in as a text node (dom.js).

import { answer, mute, send, unmute } from "./app.js";
import { COLOURS, parseCard, rookDeck, suitEl, suitLabel } from "./cards.js";
import { $, el } from "./dom.js";
import {
  clockLeft,
  renderHand,
  renderInfo,
  renderScoreline,
  renderSeats,
  renderTrick,
  sideName,
} from "./felt.js";
import { renderLobby } from "./lobby.js";
import { bidLabel, gameInfo, myName, playerName, state } from "./state.js";

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
export function promptChoices() {
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
  if (index < 10)
    button.append(el("kbd", { className: "key", ariaHidden: "true" }, String((index + 1) % 10)));
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
