// Each figure stands under its heading (issue 33, "Looking back on a phone"): where a page
// shows figures, measured in the page (tests/browser/test_stats_fit.py runs it through CDP).
// fits.js finds what leaves the screen; this finds a figure that fits but stands apart from
// what names it:
//   1. a table's cell whose text is not horizontally inside its column's heading, or stands
//      above it (a shown table, one cell per heading; the last row of its head);
//   2. a figure of a card (``article dl > div``: its label ``dt``, its value ``dd``) whose
//      label or value leaves the figure's box, a value above its label, a figure outside its
//      card, two figures of a card over each other, or a card without a shown heading.
(() => {
  const out = [];
  const shown = (e) => {
    if (e.closest('.sr-only, [hidden], svg, details:not([open]) > :not(summary)')) return false;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.display === 'none') return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const text = (e) => {   // the box of the text drawn inside e (null: none)
    const range = document.createRange();
    range.selectNodeContents(e);
    const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
    if (!rects.length) return null;
    return {left: Math.min(...rects.map(r => r.left)), right: Math.max(...rects.map(r => r.right)),
            top: Math.min(...rects.map(r => r.top)), bottom: Math.max(...rects.map(r => r.bottom))};
  };
  const words = (e) => (e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
  const px = (a, b) => `${Math.round(a)}..${Math.round(b)}`;
  // 1. tables
  for (const table of document.querySelectorAll('main table')) {
    if (!shown(table)) continue;
    const head = [...table.querySelectorAll('thead tr')].pop();
    if (!head) continue;
    const heads = [...head.children];
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = [...row.children];
      if (cells.length !== heads.length) continue;   // a row across the table ("Nobody yet")
      cells.forEach((cell, i) => {
        const t = shown(cell) ? text(cell) : null;
        if (!t) return;
        if (!shown(heads[i])) { out.push(`"${words(cell)}" has no heading shown`); return; }
        const h = heads[i].getBoundingClientRect();
        if (t.left < h.left - 1 || t.right > h.right + 1 || t.top < h.bottom - 1) {
          out.push(`"${words(cell)}" ${px(t.left, t.right)} not under its heading ` +
                   `"${words(heads[i])}" ${px(h.left, h.right)}`);
        }
      });
    }
  }
  // 2. cards
  for (const card of document.querySelectorAll('main article')) {
    if (!shown(card)) continue;
    const c = card.getBoundingClientRect();
    const title = card.querySelector('h2, h3, h4');
    if (!title || !shown(title)) out.push(`a card without a heading: "${words(card)}"`);
    const boxes = [];
    for (const figure of card.querySelectorAll('dl > div')) {
      if (!shown(figure)) continue;
      const f = figure.getBoundingClientRect();
      const label = figure.querySelector('dt'), value = figure.querySelector('dd');
      const lt = label && shown(label) ? text(label) : null;
      const vt = value && shown(value) ? text(value) : null;
      const name = `"${words(label || figure)}" of "${title ? words(title) : '?'}"`;
      if (!lt || !vt) { out.push(`${name}: a figure without its label or value shown`); continue; }
      for (const [what, t] of [['label', lt], ['value', vt]]) {
        if (t.left < f.left - 1 || t.right > f.right + 1 || t.top < f.top - 1 || t.bottom > f.bottom + 1) {
          out.push(`${name}: its ${what} ${px(t.left, t.right)} leaves its box ${px(f.left, f.right)}`);
        }
      }
      if (vt.top < lt.bottom - 1) out.push(`${name}: the value "${words(value)}" is not under its label`);
      if (f.left < c.left - 1 || f.right > c.right + 1 || f.top < c.top - 1 || f.bottom > c.bottom + 1) {
        out.push(`${name}: outside its card ${px(c.left, c.right)}`);
      }
      for (const [other, o] of boxes) {
        if (f.left < o.right - 1 && o.left < f.right - 1 && f.top < o.bottom - 1 && o.top < f.bottom - 1) {
          out.push(`${name} lies over "${other}"`);
        }
      }
      boxes.push([words(label), f]);
    }
  }
  return out;
})
