// SVG playing cards, built with DOM calls only (no HTML strings), so nothing from the
// network is ever parsed as markup.
import { t, pt, listText } from "/static/common.js";

const NS = "http://www.w3.org/2000/svg";
export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// Suit and rank words as a card's name uses them ("queen of diamonds", "donna di quadri").
const SUIT_WORD = { S: () => pt("card", "spades"), H: () => pt("card", "hearts"), D: () => pt("card", "diamonds"), C: () => pt("card", "clubs") };
const RANK_WORD = { A: () => pt("card", "ace"), K: () => pt("card", "king"), Q: () => pt("card", "queen"), J: () => pt("card", "jack") };
const RANKS = "23456789TJQKA";
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternate colours in the hand
// The four-colour deck (an option): clubs green and diamonds blue, told apart at a glance.
let fourColour = false;
export function setFourColour(on) { fourColour = !!on; }
function suitColour(suit) {
  if (fourColour) return { S: "#1b1b1f", H: "#c4122f", D: "#1456b8", C: "#137333" }[suit];
  return suit === "H" || suit === "D" ? "#c4122f" : "#1b1b1f";
}

// The jokers of the house rules (docs/spec/house-rules.md): "BJ" and "LJ".
const JOKER_NAME = { BJ: () => t("Big Joker"), LJ: () => t("Little Joker") };
export function isJoker(card) { return card === "BJ" || card === "LJ"; }
export function rankOf(card) { return isJoker(card) ? (card === "BJ" ? 15 : 14) : RANKS.indexOf(card[0]); }
export function suitOf(card) { return isJoker(card) ? "S" : card[card.length - 1]; }
export function rankLabel(card) { return card[0] === "T" ? "10" : card[0]; }
export function cardName(card) {
  if (isJoker(card)) return JOKER_NAME[card]();
  const rank = card[0] in RANK_WORD ? RANK_WORD[card[0]]() : rankLabel(card);
  return pt("card", "{rank} of {suit}", { rank, suit: SUIT_WORD[suitOf(card)]() });
}

// Cards in a sentence: "queen of diamonds", "2 of spades, 4 of hearts and 4 of clubs".
export function cardList(cards) { return listText(cards.map(cardName)); }
export const FULL_DECK = [..."SHDC"].flatMap((s) => [...RANKS].map((r) => r + s));

// A hand sorted as the server's deck order says (``deck.order``: spades in play first, the
// jokers at their head and the jjdd 2D among them, each suit high to low); without it, by
// printed suit and rank.
export function sortHand(cards, order) {
  if (order && order.length) {
    const at = new Map(order.map((c, i) => [c, i]));
    return [...cards].sort((a, b) => (at.get(a) ?? 99) - (at.get(b) ?? 99));
  }
  return [...cards].sort((a, b) => (SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)]) || (rankOf(b) - rankOf(a)));
}

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// A joker: its short name in the corners, a star and its full name in the middle (the Big
// Joker red, the Little Joker black), so the two are told apart at any size.
function jokerSVG(card) {
  const big = card === "BJ";
  const colour = big ? "#c4122f" : "#1b1b1f";
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg joker", role: "img", "aria-label": JOKER_NAME[card](), "data-joker": card });
  svg.appendChild(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: big ? "#fff4e0" : "#f1f3f7", stroke: "#9a958a", "stroke-width": 1.2 }));
  const corner = el("g", { fill: colour, "font-family": "Georgia, 'Times New Roman', serif", "font-weight": 700 });
  corner.appendChild(el("text", { x: 4, y: 15, "font-size": 13 }, card));
  corner.appendChild(el("text", { x: 5, y: 28, "font-size": 11 }, "\u2605"));
  svg.appendChild(corner);
  const back = corner.cloneNode(true);
  back.setAttribute("transform", "rotate(180 30 42)");
  svg.appendChild(back);
  svg.appendChild(el("text", { x: 30, y: 47, "font-size": 26, "text-anchor": "middle", fill: colour }, "\u2605"));
  const word = el("g", { fill: colour, "font-family": "system-ui, sans-serif", "font-weight": 800, "text-anchor": "middle" });
  // The printed words of the card: a face, like the letters A K Q J, not translated.
  word.setAttribute("aria-hidden", "true");
  word.appendChild(el("text", { x: 30, y: 57, "font-size": 8.5 }, big ? "BIG" : "LITTLE")); // i18n-ok: printed face
  word.appendChild(el("text", { x: 30, y: 66, "font-size": 8.5 }, "JOKER")); // i18n-ok: printed face
  svg.appendChild(word);
  return svg;
}

// ``trump``: a card that is a spade in play though not printed as one (the jjdd 2D): it
// carries a small spade badge, and says so to a screen reader.
export function cardSVG(card, trump = false) {
  if (isJoker(card)) return jokerSVG(card);
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img", "aria-label": trump ? t("{card} (a spade)", { card: cardName(card) }) : cardName(card) });
  const suit = suitOf(card);
  const red = suit === "H" || suit === "D";
  const colour = suitColour(suit);
  svg.appendChild(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: "#fffdf8", stroke: "#9a958a", "stroke-width": 1.2 }));
  const corner = el("g", { fill: colour, "font-family": "Georgia, 'Times New Roman', serif", "font-weight": 700 });
  corner.appendChild(el("text", { x: 5, y: 17, "font-size": 15 }, rankLabel(card)));
  corner.appendChild(el("text", { x: 5, y: 31, "font-size": 13 }, SUIT_SYMBOL[suit]));
  svg.appendChild(corner);
  const back = corner.cloneNode(true);
  back.setAttribute("transform", "rotate(180 30 42)");
  svg.appendChild(back);
  const big = "JQK".includes(card[0]);
  if (big) {
    svg.appendChild(el("rect", { x: 15, y: 17, width: 30, height: 50, rx: 3, fill: red ? "#fde8ea" : "#ebedf3", stroke: colour, "stroke-width": 0.8 }));
    svg.appendChild(el("text", { x: 30, y: 50, "font-size": 24, "text-anchor": "middle", fill: colour, "font-family": "Georgia, serif", "font-weight": 700 }, card[0]));
  } else {
    svg.appendChild(el("text", { x: 30, y: 53, "font-size": card[0] === "A" ? 34 : 26, "text-anchor": "middle", fill: colour }, SUIT_SYMBOL[suit]));
  }
  if (trump) {
    // Under the corner, where an overlapped card in a hand still shows.
    svg.appendChild(el("circle", { cx: 11, cy: 44, r: 7.5, fill: "#1b1b1f" }));
    svg.appendChild(el("text", { x: 11, y: 48.3, "font-size": 11.5, "text-anchor": "middle", fill: "#fff" }, SUIT_SYMBOL.S));
  }
  return svg;
}

export function backSVG() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img", "aria-label": t("face-down card") });
  svg.appendChild(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: "#1f3f75", stroke: "#0f2247", "stroke-width": 1.2 }));
  svg.appendChild(el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, fill: "none", stroke: "#c9a54b", "stroke-width": 1.2 }));
  for (let i = 0; i < 6; i++) {
    svg.appendChild(el("path", { d: `M5 ${12 + i * 12} L30 ${6 + i * 12} L55 ${12 + i * 12}`, fill: "none", stroke: "#3d67ad", "stroke-width": 1.4 }));
  }
  svg.appendChild(el("text", { x: 30, y: 50, "font-size": 22, "text-anchor": "middle", fill: "#c9a54b" }, "\u2660"));
  return svg;
}
