// What a person would call broken on a phone, measured in the page (tests/browser/test_looks.py
// runs it through CDP, which the page's CSP does not restrict).
(() => {
  const W = document.documentElement.clientWidth;
  const shown = (e) => {
    if (e.closest('.sr-only, [hidden], details:not([open]) > :not(summary)')) return false;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.display === 'none' || s.display === 'contents') return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const out = [];
  const what = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} "${(e.textContent || e.value || '').trim().slice(0, 24)}"`;
  // 1. wider than the screen, outside a deliberate scroller
  if (document.scrollingElement.scrollWidth > W) out.push(`page scrolls sideways: ${document.scrollingElement.scrollWidth} px`);
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('.scroller') || !shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.right > W + 0.5 || r.left < -0.5) out.push(`wider than the screen: ${what(e)} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // 2. a player's name that breaks inside a word
  for (const e of document.querySelectorAll('.pname')) {
    if (!shown(e)) continue;
    const text = e.firstChild;
    if (!text || text.nodeType !== 3) continue;
    let at = 0;
    for (const word of text.data.split(/(\s+)/)) {
      if (word.trim()) {
        const range = document.createRange();
        range.setStart(text, at); range.setEnd(text, at + word.length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(`name broken inside a word: "${word}"`);
      }
      at += word.length;
    }
  }
  // 3. tap targets under 44 x 44 px (labels included)
  const labelOk = (input) => {
    const labels = [...(input.labels || [])];
    return labels.some(l => { const r = l.getBoundingClientRect(); return r.width >= 43.5 && r.height >= 43.5; });
  };
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, label')) {
    if (!shown(e) || e.closest('.scroller caption')) continue;
    if (e.matches('select.enhanced')) continue;
    if (e.matches('input[type=checkbox], input[type=radio]') && labelOk(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) out.push(`tap target ${Math.round(r.width)}x${Math.round(r.height)}: ${what(e)}`);
  }
  // 3b. tap targets on top of each other (one inside the other is fine: a label and its input;
  // what scrolls under a pinned bar is fine too)
  const pinned = (e) => {
    for (let p = e; p; p = p.parentElement) {
      if (['sticky', 'fixed'].includes(getComputedStyle(p).position)) return true;
    }
    return false;
  };
  const targets = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')]
    .filter(e => shown(e) && !pinned(e) && !e.matches('select.enhanced, .chips input, .home-toggle input'));
  for (let i = 0; i < targets.length; i++) {
    const a = targets[i].getBoundingClientRect();
    for (let j = i + 1; j < targets.length; j++) {
      const b = targets[j].getBoundingClientRect();
      if (targets[i].contains(targets[j]) || targets[j].contains(targets[i])) continue;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) out.push(`tap targets overlap: ${what(targets[i])} and ${what(targets[j])}`);
    }
  }
  // 3c. a label over a tap target that is not its own
  for (const l of document.querySelectorAll('label, .stepper-label')) {
    if (!shown(l) || pinned(l)) continue;
    const a = l.getBoundingClientRect();
    for (const t of targets) {
      if (l.contains(t) || (l.control && l.control === t) || t.contains(l)) continue;
      const b = t.getBoundingClientRect();
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) out.push(`text over a tap target: ${what(l)} over ${what(t)}`);
    }
  }
  // 4. the QR code, whole
  for (const svg of document.querySelectorAll('.qr svg')) {
    const r = svg.getBoundingClientRect();
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width) out.push('QR code without a viewBox: it is clipped when scaled');
    if (r.left < 0 || r.right > W || Math.abs(r.width - r.height) > 1.5) out.push(`QR code not fully visible: ${Math.round(r.left)}..${Math.round(r.right)}, ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
})
