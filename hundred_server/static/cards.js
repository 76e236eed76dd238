// Cards drawn in CSS and SVG: French cards (suit symbols, red and black), the joker,
// Rook's colour cards and its bird. A card's code is the wire's (protocol.md, Cards).

import { el, svg } from "./dom.js";

export const SUITS = {
  S: { sym: "\u2660", name: "spades", red: false },
  H: { sym: "\u2665", name: "hearts", red: true },
  D: { sym: "\u2666", name: "diamonds", red: true },
  C: { sym: "\u2663", name: "clubs", red: false },
};
export const COLOURS = { B: "black", G: "green", R: "red", Y: "yellow" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

/** A card code as the page reads it (French, joker, Rook colour card, the bird). */
export function parseCard(code) {
  code = String(code);
  if (code === "JK") return { kind: "joker", code, label: "joker" };
  if (code === "ROOK") return { kind: "bird", code, label: "the Rook bird" };
  let m = /^([BGRY])(\d{1,2})$/.exec(code);
  if (m) {
    return { kind: "rook", code, colour: m[1], rank: m[2], label: `${COLOURS[m[1]]} ${m[2]}` };
  }
  m = /^([2-9TJQKA])([SHDC])$/.exec(code);
  if (m) {
    const suit = SUITS[m[2]];
    const rank = m[1] === "T" ? "10" : m[1];
    const rankName = RANK_NAMES[m[1]] || rank;
    return {
      kind: "french",
      code,
      rank,
      suit: m[2],
      red: suit.red,
      label: `${rankName} of ${suit.name}`,
    };
  }
  return { kind: "unknown", code, label: code };
}

/** A card as an element: a button if it is a choice, else a plain box. */
export function cardEl(code, opts = {}) {
  const c = parseCard(code);
  const node = document.createElement(opts.button ? "button" : "span");
  if (opts.button) node.type = "button";
  node.className = `card card-${c.kind}`;
  if (c.red) node.classList.add("red");
  if (c.colour) node.classList.add(`colour-${c.colour}`);
  if (opts.small) node.classList.add("small");
  node.dataset.code = c.code;
  if (!opts.button) node.setAttribute("role", "img"); // a name on a span needs a role
  node.setAttribute("aria-label", c.label);
  node.title = c.label;
  // A corner index (rank over suit) that shows when the card lies under its neighbour
  // in a fanned hand, and the suit large in the middle. The card is a picture named
  // by its label: its glyphs are drawn by CSS (style.css, from the data attributes),
  // not text that a name would have to repeat.
  if (c.kind === "french") {
    const sym = SUITS[c.suit].sym;
    node.append(corner(c.rank, sym), glyph("pip", sym));
  } else if (c.kind === "rook") {
    node.append(corner(c.rank, c.colour), glyph("pip", c.rank));
  } else if (c.kind === "joker") {
    node.append(corner("J", "\u2605"), jokerSvg(), glyph("word", "JOKER"));
  } else if (c.kind === "bird") {
    node.append(corner("R", "\u2022"), birdSvg(), glyph("word", "ROOK"));
  } else {
    node.append(el("span", { className: "rank" }, c.code));
  }
  return node;
}

function corner(rank, suit) {
  return el("span", { className: "corner", ariaHidden: "true", dataset: { rank, sym: suit } });
}

function glyph(className, text) {
  return el("span", { className, ariaHidden: "true", dataset: { glyph: text } });
}

function jokerSvg() {
  return svg("svg", { viewBox: "0 0 24 24", class: "art", "aria-hidden": "true" }, [
    svg("path", {
      d: "M12 2l2.9 6.3 6.9.8-5.1 4.7 1.4 6.8L12 17.2 5.9 20.6l1.4-6.8L2.2 9.1l6.9-.8z",
      fill: "#7b2cbf",
    }),
  ]);
}

function birdSvg() {
  return svg("svg", { viewBox: "0 0 24 24", class: "art", "aria-hidden": "true" }, [
    svg("path", {
      d: "M3 14c3-1 5-4 9-4 2-3 5-4 8-3l-2 2 3 1c-2 1-3 2-4 4-1 4-5 6-9 6l2-3c-3 0-5-1-7-3z",
      fill: "#222",
    }),
    svg("circle", { cx: 16.5, cy: 8.6, r: 0.9, fill: "#fff" }),
  ]);
}

export function suitLabel(code) {
  if (SUITS[code]) return `${SUITS[code].sym} ${SUITS[code].name}`;
  if (COLOURS[code]) return COLOURS[code];
  return String(code);
}

export function suitEl(code) {
  const span = el("span", { className: "suit" }, suitLabel(code));
  if (SUITS[code] && SUITS[code].red) span.classList.add("red");
  if (COLOURS[code]) span.classList.add(`colour-${code}`);
  return span;
}

export function rookDeck() {
  const codes = [];
  for (const c of Object.keys(COLOURS)) {
    for (const n of [1, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5]) codes.push(`${c}${n}`);
  }
  codes.push("ROOK");
  return codes;
}
