// What the wire does not say about each game, one small entry a game: its title, how
// its bids read, its side names, its trump colours, and what ends the game (its
// target, from the game's rules: the wire never sends it). A game missing here still
// plays, with plain labels (the page takes everything else from the server's messages).

export const GAMES = {
  hundredandten: {
    title: "Hundred and Ten",
    bidLabel: (b) => (b === 0 ? "Pass" : b === 60 ? "60 (shoot the moon)" : String(b)),
    prePass: true, // a seat not to act may pass early (protocol.md, pre-pass)
    target: "game to 110",
  },
  whist: {
    title: "Whist",
    sides: ["North-South", "East-West"],
    sideCodes: ["NS", "EW"],
    target: "game to 5 points",
  },
  pinochle: {
    title: "Pinochle",
    sides: ["Team 0", "Team 1"],
    target: "game to 100 (or below -50)",
  },
  rook: {
    title: "Rook",
    colours: ["B", "G", "R", "Y"], // a Setup answer's Trump
    hideFinishedTricks: true, // "nobody sees a finished trick again"
    target: "game to 500",
  },
  hundert: { title: "Hundert", noTricks: true, target: "each player deals twice" },
  spades: {
    title: "Spades",
    bidLabel: (b) => (b === 0 ? "Nil" : String(b)),
    sides: ["North-South", "East-West"],
    sideCodes: ["NS", "EW"],
    sideBids: true, // a side's contract is its two bids added: no high bid
    target: "game to 500 (or -200)",
  },
};
export const GAME_ORDER = Object.keys(GAMES);
export const DEFAULT_GAME = "hundredandten";

export function gameTitle(name) {
  return (GAMES[name] && GAMES[name].title) || String(name);
}
