// What test_browser_overflow.py measures on a page: the page's width against the screen's,
// every button, label, table cell (and the like) whose text is wider than its box (cut,
// ellipsised or spilling out), and every top-bar button whose label wraps onto a second line.
// One arrow function, evaluated by Playwright.
(() => {
  const seen = (e) => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && !e.closest("[hidden], .visually-hidden"); };
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : ""} "${e.textContent.trim().replace(/\s+/g, " ").slice(0, 30)}"`;
  const out = { scroll: document.documentElement.scrollWidth, width: innerWidth, over: [], wrapped: [] };
  const sel = "button, label, th, td, a.button, summary, legend, select, .chip, .topbar a, .topbar .status, .topbar .score, .tabs a";
  // Any box holding text of its own is measured too (a name cut with an ellipsis inside a chip).
  const own = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const boxes = new Set([...document.querySelectorAll(sel)]);
  for (const e of document.body.querySelectorAll("*")) if (own(e)) boxes.add(e);
  for (const e of boxes) {
    if (!seen(e) || e.closest("#hand button.card, svg, .visually-hidden")) continue;
    const s = getComputedStyle(e);
    if (s.display === "inline" || e.clientWidth === 0) continue; // an inline box has no width of its own
    if (["auto", "scroll"].includes(s.overflowX) || ["auto", "scroll"].includes(s.overflowY)) continue; // a scroller by design
    if (e.scrollWidth > e.clientWidth + 1) out.over.push(`${name(e)}: ${e.scrollWidth} > ${e.clientWidth} wide`);
    else if (e.matches("button, a.button, th, td, label") && e.scrollHeight > e.clientHeight + 1) out.over.push(`${name(e)}: ${e.scrollHeight} > ${e.clientHeight} high`);
  }
  for (const e of document.querySelectorAll(".topbar button, .topbar nav a, .topbar .brand")) {
    if (!seen(e)) continue;
    const r = document.createRange();
    r.selectNodeContents(e);
    const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
    if (tops.size > 1) out.wrapped.push(name(e));
  }
  return out;
})
