// The search box: an ARIA combobox over every name (prefix matches first, then names containing what was typed, else
// names close to it despite typos or word order, under the API's own "did you mean"), arrow keys to move, Enter to select.
import type { Bodies } from './bodies.js';
import { didYouMeanName, fuzzyMatches } from './fuzzy.js';

const LIMIT = 40;

/** Wires the combobox; `select(i)` is called with the chosen body's index. */
export function setupSearch(input: HTMLInputElement, list: HTMLUListElement, bodies: Bodies, select: (i: number) => void): void {
  let matches: number[] = [];
  let active = -1;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (n: number) => {
    active = n;
    const options = list.querySelectorAll('[role=option]'); // after the "did you mean" line, when there is one
    options.forEach((li, m) => li.setAttribute('aria-selected', String(m === n)));
    if (n >= 0) {
      input.setAttribute('aria-activedescendant', `search-option-${n}`);
      options[n]?.scrollIntoView({ block: 'nearest' });
    }
  };
  const choose = (n: number) => {
    const i = matches[n];
    if (i === undefined) return;
    input.value = bodies.names[i]!;
    close();
    select(i);
  };

  input.addEventListener('input', () => {
    const query = input.value.trim().toUpperCase();
    if (!query) return close();
    const prefix: number[] = [];
    const inner: number[] = [];
    for (let i = 0; i < bodies.size && prefix.length < LIMIT; i++) {
      const at = bodies.names[i]!.toUpperCase().indexOf(query);
      if (at === 0) prefix.push(i);
      else if (at > 0 && inner.length < LIMIT) inner.push(i);
    }
    const byName = (a: number, b: number) => bodies.names[a]!.localeCompare(bodies.names[b]!);
    matches = [...prefix.sort(byName), ...inner.sort(byName)].slice(0, LIMIT);
    let hint: HTMLLIElement[] = [];
    if (matches.length === 0) {
      matches = fuzzyMatches(query, bodies.names, LIMIT);
      const meant = didYouMeanName(query, bodies.names) ?? (matches.length ? bodies.names[matches[0]!] : undefined);
      if (meant !== undefined) {
        const li = Object.assign(document.createElement('li'), {
          textContent: `no name contains "${input.value.trim()}"; did you mean "${meant}"?`,
          className: 'none',
        });
        li.setAttribute('role', 'presentation');
        hint = [li];
      }
    }
    list.replaceChildren(
      ...hint,
      ...(matches.length
        ? matches.map((i, n) => {
            const li = document.createElement('li');
            li.id = `search-option-${n}`;
            li.setAttribute('role', 'option');
            li.textContent = bodies.names[i]!;
            const kind = document.createElement('small');
            kind.textContent = bodies.kinds[i] === 'station' ? 'station' : String(bodies.metadata[i]?.STATE ?? 'reservoir');
            li.append(' ', kind);
            li.addEventListener('mousedown', (e) => {
              e.preventDefault(); // keep the focus in the input
              choose(n);
            });
            return li;
          })
        : [Object.assign(document.createElement('li'), { textContent: 'no match', className: 'none' })]),
    );
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    highlight(matches.length ? 0 : -1);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && matches.length) {
      e.preventDefault();
      if (list.hidden) input.dispatchEvent(new Event('input'));
      else highlight((active + 1) % matches.length);
    } else if (e.key === 'ArrowUp' && matches.length) {
      e.preventDefault();
      highlight((active - 1 + matches.length) % matches.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (!list.hidden && active >= 0) choose(active);
    } else if (e.key === 'Escape') {
      close();
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
}
