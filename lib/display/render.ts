// An answer summary as a notebook shows it: a compact HTML table and the same as plain text.
import type { WireRecord, WireValue } from '../types.js';
import type { AnswerSummary } from './summary.js';

/** Escapes text for HTML and SVG (element text and quoted attributes). */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One line of what the answer holds: rows, names, dates, variables. */
function describeSummary(s: AnswerSummary): string {
  const parts = [`${s.rows} ${s.rows === 1 ? 'row' : 'rows'}`];
  if (s.names.length > 0) parts.push(`${s.names.length === 1 ? '' : `${s.names.length} names: `}${listed(s.names, 6)}`);
  if (s.first !== undefined) parts.push(s.first === s.last ? s.first : `${s.first} to ${s.last}`);
  if (s.variables.length > 0) parts.push(listed(s.variables, 8));
  return parts.join(' · ');
}

function listed(items: readonly string[], most: number): string {
  return items.length <= most ? items.join(', ') : `${items.slice(0, most).join(', ')} and ${items.length - most} more`;
}

function cell(value: WireValue | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The summary as HTML: a caption line and a table of the first and last rows, the hidden middle counted. */
export function summaryHtml(title: string, s: AnswerSummary): string {
  const hidden = s.rows - s.head.length - s.tail.length;
  const row = (r: WireRecord) => `<tr>${s.columns.map((c) => `<td>${escapeMarkup(cell(r[c]))}</td>`).join('')}</tr>`;
  const gap = hidden > 0 ? `<tr><td colspan="${s.columns.length}" style="text-align:center;font-style:italic">… ${hidden} more rows …</td></tr>` : '';
  return [
    '<div class="evap-answer">',
    `<div><strong>${escapeMarkup(title)}</strong> · ${escapeMarkup(describeSummary(s))}</div>`,
    '<table>',
    `<thead><tr>${s.columns.map((c) => `<th>${escapeMarkup(c)}</th>`).join('')}</tr></thead>`,
    `<tbody>${s.head.map(row).join('')}${gap}${s.tail.map(row).join('')}</tbody>`,
    '</table>',
    '</div>',
  ].join('');
}

/** The summary as plain text: the caption line, then the first and last rows aligned in columns. */
export function summaryText(title: string, s: AnswerSummary): string {
  const hidden = s.rows - s.head.length - s.tail.length;
  const lines = [s.columns, ...s.head.map((r) => s.columns.map((c) => cell(r[c])))];
  const tail = s.tail.map((r) => s.columns.map((c) => cell(r[c])));
  const widths = s.columns.map((_, i) => Math.max(...[...lines, ...tail].map((l) => l[i]!.length)));
  const format = (l: string[]) =>
    l
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [`${title} · ${describeSummary(s)}`];
  if (s.columns.length > 0) {
    out.push(...lines.map(format));
    if (hidden > 0) out.push(`… ${hidden} more rows …`);
    out.push(...tail.map(format));
  }
  return out.join('\n');
}
