// The one table (every query at every scale, cold and warm, beside DuckDB, targets marked) as Markdown, the stores
// and their revisions, and an SVG chart of the cold answers (log-log: cost against size).
import type { ScaleQueryRow, ScaleRow } from './scale.js';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0));

/** What a query must reach against DuckDB and ClickHouse: cold at least as fast; warm at least 5× (one reservoir and one date: 20×). */
export function warmTarget(id: string): number {
  return id === 'Q1' || id === 'Q3' || id === 'Q3L' ? 20 : 5;
}
const COLD_TARGET = 1;
const HTTP_TARGET = 0.9; // of a bare node:http server sending the same bytes
const RSS_TARGET = 1e9;

/** A scale the table has a column for, measured (a row) or not. */
export interface TableColumn {
  reservoirs: number;
  years: number;
}

const size = (n: number) => n.toLocaleString('en');
const missed = (met: boolean) => (met ? '' : ' **missed**');
// ours / DuckDB's / ClickHouse's time, then each peer's time over ours; missed when either ratio is under the target
const cell = (ours: number, duck: number, ch: number, target: number) => {
  if (!Number.isFinite(ours) || !Number.isFinite(duck)) return 'not run';
  const [d, c] = [duck / ours, ch / ours];
  const chText = Number.isFinite(ch) ? ` / ${ms(ch)}` : ' / –';
  const chRatio = Number.isFinite(ch) ? ` · **${c.toFixed(1)}×**` : '';
  return `${ms(ours)} / ${ms(duck)}${chText} ms, **${d.toFixed(1)}×**${chRatio}${missed(d >= target && !(c < target))}`;
};

// the CPU time of the cold runs (every thread), which a busy machine stretches far less than wall time
const cpu = (q: ScaleQueryRow) =>
  Number.isFinite(q.oursColdCpu) ? ` (CPU ${ms(q.oursColdCpu)} / ${ms(q.duckColdCpu)}${Number.isFinite(q.chColdCpu) ? ` / ${ms(q.chColdCpu)}` : ''} ms)` : '';

/**
 * The one table: a row per query cold and warm (ours / DuckDB, the ratio, marked where the target is missed), then
 * HTTP Q1 against the bare server, the server's RSS and the open time, with a column per scale ("not run" where a
 * scale was left out); below it the profiles of the cold answers behind DuckDB's, and the stores.
 */
export function renderTable(rows: readonly ScaleRow[], columns: readonly TableColumn[]): string {
  const of = (c: TableColumn) => rows.find((r) => r.reservoirs === c.reservoirs);
  const ids = [...new Set(rows.flatMap((r) => r.queries.map((q) => q.id)))];
  const lines = [`| query | | ${columns.map((c) => `${size(c.reservoirs)} × ${c.years} y`).join(' | ')} | target |`];
  lines.push(`|---|---|${columns.map(() => '---:|').join('')}---|`);
  for (const id of ids) {
    const q = (c: TableColumn) => of(c)?.queries.find((x) => x.id === id);
    // the title without what differs from store to store: a year, a span of dates, a count of reservoirs
    const title = rows
      .flatMap((r) => r.queries)
      .find((x) => x.id === id)!
      .title.replace(/, \d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d/, ', every date held')
      .replace(/, (19|20)\d\d\b/g, '')
      .replace(/ \([\d,]+\)/, '');
    const records = columns.map((c) => (q(c) ? size(q(c)!.records) : '–')).join(' · ');
    lines.push(
      `| ${id} ${title} (records: ${records}) | cold | ${columns.map((c) => (q(c) ? cell(q(c)!.oursCold, q(c)!.duckCold, q(c)!.chCold, COLD_TARGET) + cpu(q(c)!) : 'not run')).join(' | ')} | each peer/ours ≥ ${COLD_TARGET}× |`,
    );
    lines.push(
      `| | warm | ${columns.map((c) => (q(c) ? cell(q(c)!.oursWarm, q(c)!.duckWarm, q(c)!.chWarm, warmTarget(id)) : 'not run')).join(' | ')} | each peer/ours ≥ ${warmTarget(id)}× |`,
    );
  }
  const http = (c: TableColumn) => {
    const h = q1AndBare(of(c));
    if (!h) return 'not run';
    return `${h.q1.toFixed(0)} / ${h.bare.toFixed(0)} req/s, **${(h.q1 / h.bare).toFixed(2)}×**${missed(h.q1 >= HTTP_TARGET * h.bare)}`;
  };
  lines.push(`| HTTP Q1, ours / bare node:http sending the same bytes | | ${columns.map(http).join(' | ')} | ≥ ${HTTP_TARGET}× |`);
  const rss = (c: TableColumn) => {
    const r = of(c)?.serverPeakRssBytes;
    return r === undefined || r === null ? 'not run' : `${(r / 1e6).toFixed(0)} MB${missed(r < RSS_TARGET)}`;
  };
  lines.push(`| server peak RSS under the HTTP load | | ${columns.map(rss).join(' | ')} | under 1 GB |`);
  const open = (c: TableColumn) => (of(c) ? `${ms(of(c)!.openMs)} ms, ${(of(c)!.openRssBytes / 1e6).toFixed(0)} MB${missed(of(c)!.openMs < 300)}` : 'not run');
  lines.push(`| open a store, fresh process (and its RSS) | | ${columns.map(open).join(' | ')} | under 300 ms |`);
  const profiles = rows.flatMap((r) => r.queries.filter((q) => q.profile).map((q) => ({ r, q })));
  if (profiles.length > 0) {
    lines.push('', 'Where the cold answers behind DuckDB or ClickHouse spend their time (a CPU profile of the timed part of one more fresh process):', '');
    for (const { r, q } of profiles) lines.push(`- ${size(r.reservoirs)}, ${q.id}: ${q.profile!.join('; ')}`);
  }
  const unchecked = rows.flatMap((r) => r.queries.filter((q) => !q.checked).map((q) => `${q.id} at ${size(r.reservoirs)}`));
  lines.push(
    '',
    `Every answer's records were compared with DuckDB's and ClickHouse's, record by record (Q4: DuckDB's CSV text, ClickHouse's records)${unchecked.length > 0 ? `, except ${unchecked.join(', ')} (too large to hold twice: record counts compared)` : ''}; a difference fails the run.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The Markdown section on the stores: size, generation, revisions. */
export function renderStores(rows: readonly ScaleRow[], chartFile: string): string {
  const lines = ['## The stores', ''];
  lines.push(`![cold answer time against the number of water bodies](${chartFile})`, '');
  lines.push('| store | files | on disk | manifest | generated | reservoir-years/s |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    lines.push(
      `| ${size(r.reservoirs)} × ${r.years} years | ${r.files} | ${mib(r.diskBytes)} | ${mib(r.manifestBytes)} | ${(r.generatedMs / 1000).toFixed(0)} s | ${rate(r).toFixed(0)} |`,
    );
  }
  lines.push(
    '',
    'Revision: the last 65 days of every water body in nete-volume-calcs (4 variables) through `evap ingest`, a CSV as the service exports it (after the queries above).',
    '',
  );
  lines.push('| store | records | time | files written | bytes written | of the store |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const v = r.revision;
    lines.push(
      `| ${size(r.reservoirs)} | ${v.records} | ${(v.ms / 1000).toFixed(1)} s | ${v.filesWritten} | ${mib(v.bytesWritten)} | ${((100 * v.bytesWritten) / v.storeBytes).toFixed(1)}% |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// Q1's requests/s from the server and from the bare server, when the scale was driven over HTTP
function q1AndBare(r: ScaleRow | undefined): { q1: number; bare: number } | null {
  const q1 = r?.http.find((h) => h.id === 'Q1');
  const bare = r?.http.find((h) => h.id === 'Q1 bare');
  return q1 && bare ? { q1: q1.requestsPerSecond, bare: bare.requestsPerSecond } : null;
}

/** The HTTP table: requests/s and latencies of each query driven over HTTP at each scale, and the bare server's row. */
export function renderHttp(rows: readonly ScaleRow[], columns: readonly TableColumn[], seconds: number, connections: number): string {
  const ids = [...new Set(rows.flatMap((r) => r.http.map((h) => h.id)))];
  if (ids.length === 0) return '';
  const lines = [
    `## HTTP (autocannon in its own process, ${connections} connections, ${seconds} s per query after a warm-up, JSON without gzip)`,
    '',
    "`Q1 bare`: a bare node:http server (bench/bare-server.ts) sending Q1's answer, prebuilt, with the headers the server sent it with, to every request: the socket's limit, driven by the same client in the same run. The server answers a repeated query from its cache of recent answers (`--answer-cache-mib`); `npx tsx bench/http-limit.ts` also measures it without.",
    '',
    `| query | ${columns.map((c) => `${size(c.reservoirs)}: req/s, p50 / p99`).join(' | ')} |`,
    `|---|${columns.map(() => '---:|').join('')}`,
  ];
  for (const id of ids) {
    const cells = columns.map((c) => {
      const h = rows.find((r) => r.reservoirs === c.reservoirs)?.http.find((x) => x.id === id);
      return h ? `${h.requestsPerSecond.toFixed(0)}, ${h.p50Ms} / ${h.p99Ms} ms${h.errors > 0 ? ` (**${h.errors} errors**)` : ''}` : 'not run';
    });
    lines.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

function rate(r: ScaleRow): number {
  return (r.reservoirs * r.years) / (r.generatedMs / 1000);
}

/** Each target, per store: every query cold and warm against DuckDB, HTTP Q1 against the bare server, RSS, open. */
export function scaleTargets(rows: readonly ScaleRow[]): { target: string; figure: string; met: boolean }[] {
  const out: { target: string; figure: string; met: boolean }[] = [];
  for (const r of rows) {
    const at = size(r.reservoirs);
    for (const q of r.queries) {
      for (const [peer, cold, warm] of [
        ['DuckDB', q.duckCold, q.duckWarm],
        ['ClickHouse', q.chCold, q.chWarm],
      ] as const) {
        if (!Number.isFinite(warm)) continue; // a peer not run
        if (Number.isFinite(q.oursCold) && Number.isFinite(cold))
          out.push({ target: `${at}: ${q.id} cold at least as fast as ${peer}`, figure: `${ms(q.oursCold)} vs ${ms(cold)} ms`, met: q.oursCold <= cold });
        out.push({
          target: `${at}: ${q.id} warm at least ${warmTarget(q.id)}× faster than ${peer}`,
          figure: `${(warm / q.oursWarm).toFixed(1)}×`,
          met: warm >= warmTarget(q.id) * q.oursWarm,
        });
      }
    }
    const h = q1AndBare(r);
    if (h)
      out.push({
        target: `${at}: HTTP Q1 at least ${HTTP_TARGET}× the bare server`,
        figure: `${(h.q1 / h.bare).toFixed(2)}×`,
        met: h.q1 >= HTTP_TARGET * h.bare,
      });
    if (r.serverPeakRssBytes !== null)
      out.push({
        target: `${at}: server RSS under 1 GB under load`,
        figure: `${(r.serverPeakRssBytes / 1e6).toFixed(0)} MB`,
        met: r.serverPeakRssBytes < RSS_TARGET,
      });
    out.push({ target: `${at}: open under 300 ms`, figure: `${ms(r.openMs)} ms`, met: r.openMs < 300 });
  }
  return out;
}

/** A log-log SVG chart: cold time of each query against the number of water bodies, ours solid, DuckDB dashed. */
export function renderChart(rows: readonly ScaleRow[]): string {
  const width = 720;
  const height = 420;
  const pad = { left: 70, right: 180, top: 30, bottom: 50 };
  const colors: Record<string, string> = { Q1: '#1f77b4', Q3: '#d62728', Q7: '#2ca02c', Q3L: '#9467bd' }; // the queries charted
  const xs = rows.map((r) => r.reservoirs);
  const ys = rows.flatMap((r) => r.queries.filter((q) => q.id in colors).flatMap((q) => [q.oursCold, q.duckCold])).filter(Number.isFinite);
  if (ys.length === 0) ys.push(1, 10);
  const [x0, x1] = [Math.log10(Math.min(...xs)) - 0.1, Math.log10(Math.max(...xs)) + 0.1];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  const px = (x: number) => pad.left + ((Math.log10(x) - x0) / (x1 - x0)) * (width - pad.left - pad.right);
  const py = (y: number) => height - pad.bottom - ((Math.log10(y) - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
  ];
  parts.push(`<text x="${pad.left}" y="18" font-size="14">Cold answer time against the number of water bodies (log-log)</text>`);
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    parts.push(
      `<line x1="${pad.left}" x2="${width - pad.right}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${pad.left - 8}" y="${y + 4}" text-anchor="end">${10 ** e >= 1000 ? `${10 ** (e - 3)} s` : `${10 ** e} ms`}</text>`,
    );
  }
  for (const x of xs)
    parts.push(
      `<line x1="${px(x)}" x2="${px(x)}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#eee"/><text x="${px(x)}" y="${height - pad.bottom + 18}" text-anchor="middle">${x.toLocaleString('en')}</text>`,
    );
  parts.push(`<text x="${(pad.left + width - pad.right) / 2}" y="${height - 10}" text-anchor="middle">water bodies in the store</text>`);
  let legend = pad.top + 10;
  for (const id of (rows[0]?.queries.map((q) => q.id) ?? []).filter((id) => id in colors)) {
    for (const [engine, dash] of [
      ['ours', ''],
      ['DuckDB', ' stroke-dasharray="6 4"'],
    ] as const) {
      const points = rows.map((r) => {
        const q = r.queries.find((x) => x.id === id)!;
        return `${px(r.reservoirs).toFixed(1)},${py(engine === 'ours' ? q.oursCold : q.duckCold).toFixed(1)}`;
      });
      parts.push(`<polyline fill="none" stroke="${colors[id] ?? '#555'}" stroke-width="2"${dash} points="${points.join(' ')}"/>`);
      for (const p of points) parts.push(`<circle cx="${p.split(',')[0]}" cy="${p.split(',')[1]}" r="3" fill="${colors[id] ?? '#555'}"/>`);
      parts.push(
        `<line x1="${width - pad.right + 15}" x2="${width - pad.right + 45}" y1="${legend}" y2="${legend}" stroke="${colors[id] ?? '#555'}" stroke-width="2"${dash}/><text x="${width - pad.right + 52}" y="${legend + 4}">${id} ${engine}</text>`,
      );
      legend += 20;
    }
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
