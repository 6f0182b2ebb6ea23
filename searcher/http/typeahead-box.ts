/**
 * @module searcher/http/typeahead-box
 * The search box's type-ahead: `/api/suggest?q=` answers titles and
 * headings starting with (or holding words starting with) what was typed
 * (searcher/typeahead), and `/typeahead.js`, the one script our pages load,
 * makes the box an ARIA combobox: suggestions under it as the user types,
 * chosen with the arrow keys and Enter or a click, closed with Escape,
 * counted for screen readers. The list floats over the page, so nothing
 * moves when it opens; without script, or on a server that does not
 * suggest (a broker answers 404), the box is a plain search form.
 */
import type { Context } from 'hono';
import type { Snapshot } from '../snapshot.js';
import { typeAheadOf } from '../typeahead.js';

/** Suggestions a request may ask for (`limit`), and how many it gets unless it asks. */
const MAX_LIMIT = 20;
const DEFAULT_LIMIT = 8;

export function suggestJson(snap: Snapshot, q: string, limit = DEFAULT_LIMIT) {
  const ta = typeAheadOf(snap, snap.settings.typeAheadEntries);
  return { query: q, suggestions: ta.suggest(q, Math.min(MAX_LIMIT, Math.max(1, limit))), complete: ta.complete };
}

/** The box's markup inside the search form: the input, the list it controls, and a live line read out on change (not a status role: the page's own notices are its status). */
export function typeAheadInput(inputHtml: string): string {
  return `<div class="ta">${inputHtml}<ul id="q-suggestions" role="listbox" aria-label="Suggestions" hidden></ul></div><span id="q-status" class="sr" aria-live="polite"></span>`;
}

/** The input's combobox attributes. */
export const COMBOBOX_ATTRS = 'role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="q-suggestions"';

export const TYPEAHEAD_CSS = `
.ta{position:relative;flex:1 1 14rem;min-width:0;display:flex}
.ta input[type=search]{flex:1 1 auto;width:100%}
#q-suggestions{position:absolute;top:100%;left:0;right:0;z-index:10;margin:.15rem 0 0;padding:.2rem 0;list-style:none;background:var(--bg);border:1px solid var(--muted);border-radius:.35rem;max-height:60vh;overflow:auto;box-shadow:0 .3rem .8rem rgba(0,0,0,.2)}
#q-suggestions li{padding:.35rem .6rem;cursor:pointer;overflow-wrap:anywhere}
#q-suggestions li[aria-selected=true]{background:var(--line);outline:2px solid var(--focus);outline-offset:-2px}
#q-suggestions .kind{color:var(--muted);font-size:.85rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
`;

/** Runs in the browser: no page data is ever written as HTML, only as text. */
const SCRIPT = `(() => {
  const input = document.getElementById('q');
  const list = document.getElementById('q-suggestions');
  const status = document.getElementById('q-status');
  if (!input || !list || !status) return;
  let items = [];
  let active = -1;
  let timer = 0;
  let ctrl;
  const close = () => {
    list.hidden = true;
    list.replaceChildren();
    items = [];
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const mark = (i) => {
    active = i;
    [...list.children].forEach((li, k) => li.setAttribute('aria-selected', String(k === i)));
    if (i >= 0) {
      input.setAttribute('aria-activedescendant', list.children[i].id);
      list.children[i].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const choose = (i) => {
    input.value = items[i].text;
    close();
    input.form.requestSubmit();
  };
  const show = (suggestions) => {
    items = suggestions;
    active = -1;
    list.replaceChildren(...suggestions.map((s, i) => {
      const li = document.createElement('li');
      li.id = 'q-option-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.textContent = s.text;
      if (s.kind === 'heading') {
        const kind = document.createElement('span');
        kind.className = 'kind';
        kind.textContent = ' · section';
        li.append(kind);
      }
      li.addEventListener('mousedown', (e) => { e.preventDefault(); choose(i); });
      return li;
    }));
    list.hidden = suggestions.length === 0;
    input.setAttribute('aria-expanded', String(suggestions.length > 0));
    input.removeAttribute('aria-activedescendant');
    status.textContent = suggestions.length ? suggestions.length + (suggestions.length === 1 ? ' suggestion' : ' suggestions') + ', arrow keys to choose' : '';
  };
  let off = false;
  const ask = async () => {
    const q = input.value;
    if (off || q.trim().length < 2) return close();
    ctrl?.abort();
    ctrl = new AbortController();
    try {
      const r = await fetch('/api/suggest?q=' + encodeURIComponent(q), { signal: ctrl.signal });
      // A server that does not suggest (a broker) leaves the box plain.
      if (r.status === 404) off = true;
      if (!r.ok) return;
      const body = await r.json();
      if (input.value === q && document.activeElement === input) show(body.suggestions);
    } catch {}
  };
  input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(ask, 100); });
  input.addEventListener('keydown', (e) => {
    if (list.hidden) return;
    if (e.key === 'ArrowDown') { e.preventDefault(); mark((active + 1) % items.length); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); mark(active <= 0 ? items.length - 1 : active - 1); }
    else if (e.key === 'Enter' && active >= 0) { e.preventDefault(); choose(active); }
    else if (e.key === 'Escape') { e.preventDefault(); close(); }
  });
  input.addEventListener('blur', close);
})();
`;

export function typeAheadScript(c: Context): Response {
  return c.body(SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'max-age=3600' });
}
