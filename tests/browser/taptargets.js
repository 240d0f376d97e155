// What test_browser_phone.py measures on a page: its width, tap targets under 44 px, and
// the strip each card of the hand shows. One arrow function, evaluated by Playwright.
(() => {
  const out = { scroll: document.documentElement.scrollWidth, width: innerWidth, small: [], cards: [] };
  const seen = (e) => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && !e.closest("[hidden], .visually-hidden"); };
  const sel = "button, a[href], select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), summary, label.check";
  for (const e of document.querySelectorAll(sel)) {
    if (!seen(e) || e.matches("#hand button.card")) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) out.small.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${Math.round(r.width)}x${Math.round(r.height)} "${e.textContent.trim().slice(0, 20)}"`);
    if (r.right > innerWidth + 0.5 || r.left < -0.5) out.small.push(`off screen: ${e.tagName} ${e.id} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // a card in the hand: the strip not covered by the next card of its row
  const cards = [...document.querySelectorAll("#hand .card")].map((e) => e.getBoundingClientRect());
  cards.forEach((r, i) => {
    const next = cards[i + 1];
    const sameRow = next && Math.abs(next.top - r.top) < 20;
    const below = cards.find((q) => q.top > r.top + 20);
    out.cards.push({ w: sameRow ? next.left - r.left : r.width, h: below ? Math.min(r.height, below.top - r.top) : r.height, top: Math.round(r.top) });
  });
  return out;
})
