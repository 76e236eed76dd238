// What the wire does not say about each game, one small entry a game: its title, how
// its bids read, its side names, its trump colours. A game missing here still plays,
// with plain labels (the page takes everything else from the server's messages).

export const GAMES = {
  hundredandten: {
    title: "Hundred and Ten",
    bidLabel: (b) => (b === 0 ? "Pass" : b === 60 ? "60 (shoot the moon)" : String(b)),
    prePass: true, // a seat not to act may pass early (protocol.md, pre-pass)
  },
  whist: { title: "Whist", sides: ["North-South", "East-West"], sideCodes: ["NS", "EW"] },
  pinochle: { title: "Pinochle", sides: ["Team 0", "Team 1"] },
  rook: {
    title: "Rook",
    colours: ["B", "G", "R", "Y"], // a Setup answer's Trump
    hideFinishedTricks: true, // "nobody sees a finished trick again"
  },
  hundert: { title: "Hundert", noTricks: true },
  spades: {
    title: "Spades",
    bidLabel: (b) => (b === 0 ? "Nil" : String(b)),
    sides: ["North-South", "East-West"],
    sideCodes: ["NS", "EW"],
  },
};
export const GAME_ORDER = Object.keys(GAMES);
export const DEFAULT_GAME = "hundredandten";

export function gameTitle(name) {
  return (GAMES[name] && GAMES[name].title) || String(name);
}
