// The table's cloth drawn: the bar (round, dealer, bid, trump, the running score),
// the seats around the felt, the trick in the middle (a card played comes in from its
// player, a trick taken goes to its winner) and your hand, fanned. Every server string
// goes in as a text node (dom.js).

import { answer } from "./app.js";
import { cardEl, suitEl } from "./cards.js";
import { $, el } from "./dom.js";
import { bidLabel, gameInfo, playerName, state } from "./state.js";
import { promptChoices, render } from "./render.js";

/** The bar over the felt: the round, the dealer, the bid, trump (always in sight). */
export function renderInfo() {
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
export function renderScoreline() {
  const g = state.g;
  const info = gameInfo();
  const parts = [el("strong", {}, "Score")];
  if (g.score) {
    const bySide = g.score.length < g.players.length && g.score.length >= 2;
    g.score.forEach((total, i) => {
      const who = bySide ? sideName(i) : playerName(i);
      parts.push(
        el(
          "span",
          { className: "score", dataset: { row: String(i) } },
          `${who} `,
          el("b", {}, String(total)),
        ),
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

export function sideName(side) {
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

export function renderSeats() {
  const g = state.g;
  const p = g.prompt;
  const perSeat = g.score && g.score.length === g.players.length;
  const boxes = g.players.map((name, seat) => {
    const box = el("div", {
      className: "seat",
      dataset: { seat: String(seat), place: placeOf(seat) },
    });
    const me = seat === state.seat && !state.watching;
    if (me) box.classList.add("me");
    const acting = p && p.Playerid === seat;
    if (acting) box.classList.add("acting");
    const badges = [];
    if (seat === g.dealer)
      badges.push(el("span", { className: "badge", title: "dealer" }, "dealer"));
    if (seat === g.bidder && !gameInfo().sideBids)
      badges.push(el("span", { className: "badge", title: "bidder" }, "bidder"));
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
export function renderTrick() {
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

export function renderHand() {
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
 * in sight, at least MIN_STRIP px of it), a slight tilt and arc; in as few rows as
 * leave that much (two for Whist's thirteen at a phone's width). */
const MIN_STRIP = 28;

/** A fan row's padding, each side (style.css): room for the tilted cards' corners. */
const FAN_PADDING = 16;

function fan(cards) {
  const hand = $("hand");
  const width = (hand.clientWidth || 340) - 2 * FAN_PADDING;
  const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 56;
  const fits = (k) => k <= 1 || cardWidth + (k - 1) * MIN_STRIP <= width;
  let rowCount = 1;
  while (rowCount < cards.length && !fits(Math.ceil(cards.length / rowCount))) rowCount += 1;
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
