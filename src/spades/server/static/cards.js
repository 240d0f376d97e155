// SVG playing cards, built with DOM calls only (no HTML strings), so nothing from the
// network is ever parsed as markup.
const NS = "http://www.w3.org/2000/svg";
export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = "23456789TJQKA";
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternate colours in the hand

export function rankOf(card) { return RANKS.indexOf(card[0]); }
export function suitOf(card) { return card[card.length - 1]; }
export function rankLabel(card) { return card[0] === "T" ? "10" : card[0]; }
export function cardName(card) {
  const names = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
  return `${names[card[0]] || card[0]} of ${SUIT_NAME[suitOf(card)]}`;
}

// Cards in a sentence: "queen of diamonds", "2 of spades, 4 of hearts and 4 of clubs".
export function cardList(cards) {
  const names = cards.map(cardName);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
export const FULL_DECK = [..."SHDC"].flatMap((s) => [...RANKS].map((r) => r + s));

export function sortHand(cards) {
  return [...cards].sort((a, b) => (SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)]) || (rankOf(b) - rankOf(a)));
}

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

export function cardSVG(card) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img", "aria-label": cardName(card) });
  const suit = suitOf(card);
  const red = suit === "H" || suit === "D";
  const colour = red ? "#c4122f" : "#1b1b1f";
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
  return svg;
}

export function backSVG() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img", "aria-label": "face-down card" });
  svg.appendChild(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: "#1f3f75", stroke: "#0f2247", "stroke-width": 1.2 }));
  svg.appendChild(el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, fill: "none", stroke: "#c9a54b", "stroke-width": 1.2 }));
  for (let i = 0; i < 6; i++) {
    svg.appendChild(el("path", { d: `M5 ${12 + i * 12} L30 ${6 + i * 12} L55 ${12 + i * 12}`, fill: "none", stroke: "#3d67ad", "stroke-width": 1.4 }));
  }
  svg.appendChild(el("text", { x: 30, y: 50, "font-size": 22, "text-anchor": "middle", fill: "#c9a54b" }, "\u2660"));
  return svg;
}
