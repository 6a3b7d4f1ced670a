// What does not fit a phone, measured in the page (issue 23; tests/browser/test_fits.py runs
// it through CDP, which the page's CSP does not restrict). Stricter than looks.js: nothing
// counts as a deliberate sideways scroller, and text that leaves its box is clipped text.
//   1. the page, or any element, scrolls sideways (scrollWidth > clientWidth where it may
//      scroll or clips), or an element's box leaves the screen;
//   2. a text leaves the box it is drawn in (a chip, a button, a label, a cell with a
//      border or a background) or an element that clips it, or the screen;
//   3. an internal code is visible: a game's or a preset's code as written in the code.
(() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  const shown = (e) => {
    if (e.closest('.sr-only, [hidden], svg, details:not([open]) > :not(summary)')) return false;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.display === 'none' || s.display === 'contents') return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const what = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} "${(e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30)}"`;
  // 1. sideways
  const root = document.scrollingElement;
  if (root.scrollWidth > root.clientWidth) out.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  for (const e of document.querySelectorAll('body *')) {
    if (!shown(e)) continue;
    const s = getComputedStyle(e);
    if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && !e.matches('input, select, textarea')) {
      out.push(`scrolls or clips sideways inside: ${what(e)} ${e.scrollWidth} > ${e.clientWidth}`);
    }
    const r = e.getBoundingClientRect();
    if (r.right > W + 0.5 || r.left < -0.5) out.push(`leaves the screen: ${what(e)} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // 2. clipped text
  const boxed = (e) => {
    const s = getComputedStyle(e);
    if (s.display === 'inline') return false;
    const border = parseFloat(s.borderLeftWidth) > 0 || parseFloat(s.borderRightWidth) > 0;
    const background = s.backgroundColor !== 'rgba(0, 0, 0, 0)' && s.backgroundColor !== 'transparent';
    return border || background || s.overflowX !== 'visible';
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim() || !node.parentElement || !shown(node.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0);
    if (!rects.length) continue;
    const left = Math.min(...rects.map(r => r.left)), right = Math.max(...rects.map(r => r.right));
    const text = node.data.trim().slice(0, 30);
    if (left < -0.5 || right > W + 0.5) { out.push(`text leaves the screen: "${text}" ${Math.round(left)}..${Math.round(right)}`); continue; }
    for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
      if (!boxed(box)) continue;
      const b = box.getBoundingClientRect();
      if (left < b.left - 1 || right > b.right + 1) {
        out.push(`text clipped by its box: "${text}" ${Math.round(left)}..${Math.round(right)} in ${what(box)} ${Math.round(b.left)}..${Math.round(b.right)}`);
        break;
      }
    }
  }
  // 3. internal codes: the games' and the presets' codes, as the code spells them
  const visible = document.body.innerText;
  const codes = /\b(salzburg|geiser|murln|mulatschak|muller_matz|mueller_matz)\b|\(mura\)|\bmura \u00b7|\u00b7 mura\b/g;
  for (const m of visible.matchAll(codes)) {
    out.push(`internal code visible: "${visible.slice(Math.max(0, m.index - 25), m.index + m[0].length + 10).replace(/\s+/g, ' ')}"`);
  }
  return out;
})
