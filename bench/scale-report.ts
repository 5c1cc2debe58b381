// The scale curve as Markdown (a table and the targets of issue 11) and as an SVG chart (log-log: cost against size).
import type { ScaleRow } from './scale.js';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

/** The Markdown section: stores, queries cold and warm beside DuckDB, revisions, and the targets marked met or not. */
export function renderScale(rows: readonly ScaleRow[], chartFile: string): string {
  const lines = ['## Scale: 247, 5,000 and 44,000 water bodies', ''];
  lines.push(`![cost against the number of water bodies](${chartFile})`, '');
  lines.push('| store | files | on disk | manifest | generated | reservoir-years/s | open | open RSS | server peak RSS under load |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    lines.push(
      `| ${r.reservoirs.toLocaleString('en')} × ${r.years} years | ${r.files} | ${mib(r.diskBytes)} | ${mib(r.manifestBytes)} | ${(r.generatedMs / 1000).toFixed(0)} s | ${rate(r).toFixed(0)} | ${ms(r.openMs)} ms | ${(r.openRssBytes / 1e6).toFixed(0)} MB | ${r.serverPeakRssBytes === null ? 'n/a' : `${(r.serverPeakRssBytes / 1e6).toFixed(0)} MB`} |`,
    );
  }
  lines.push(
    '',
    "Cold: a fresh process opens the store (or DuckDB) and makes the JSON answer (ours: the server's text from the columns; DuckDB: `COPY ... (FORMAT json, ARRAY true)`); files in the OS page cache. Warm: the same answer again in one process.",
    '',
  );
  lines.push('| store | query | records | ours cold | DuckDB cold | DuckDB/ours cold | ours warm | DuckDB warm | DuckDB/ours warm |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    for (const q of r.queries) {
      lines.push(
        `| ${r.reservoirs.toLocaleString('en')} | ${q.id} ${q.title} | ${q.records} | ${ms(q.oursCold)} ms | ${ms(q.duckCold)} ms | **${(q.duckCold / q.oursCold).toFixed(1)}×** | ${ms(q.oursWarm)} ms | ${ms(q.duckWarm)} ms | **${(q.duckWarm / q.oursWarm).toFixed(1)}×** |`,
      );
    }
  }
  lines.push(
    '',
    'Revision: the last 65 days of every water body in nete-volume-calcs (4 variables) through `evap ingest`, a CSV as the service exports it.',
    '',
  );
  lines.push('| store | records | time | files written | bytes written | of the store |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const v = r.revision;
    lines.push(
      `| ${r.reservoirs.toLocaleString('en')} | ${v.records} | ${(v.ms / 1000).toFixed(1)} s | ${v.filesWritten} | ${mib(v.bytesWritten)} | ${((100 * v.bytesWritten) / v.storeBytes).toFixed(1)}% |`,
    );
  }
  lines.push('', '### Targets of issue 11', '', '| target | figure | met |', '|---|---|:---:|');
  for (const t of scaleTargets(rows)) lines.push(`| ${t.target} | ${t.figure} | ${t.met ? 'yes' : '**no**'} |`);
  return `${lines.join('\n')}\n`;
}

function rate(r: ScaleRow): number {
  return (r.reservoirs * r.years) / (r.generatedMs / 1000);
}

/** Each target of the issue, per store where it is per store. */
export function scaleTargets(rows: readonly ScaleRow[]): { target: string; figure: string; met: boolean }[] {
  const out: { target: string; figure: string; met: boolean }[] = [];
  for (const r of rows) {
    const size = r.reservoirs.toLocaleString('en');
    for (const q of r.queries) {
      out.push({
        target: `${size}: ${q.id} cold at least as fast as DuckDB`,
        figure: `${ms(q.oursCold)} vs ${ms(q.duckCold)} ms`,
        met: q.oursCold <= q.duckCold,
      });
      out.push({
        target: `${size}: ${q.id} warm at least 20× faster than DuckDB`,
        figure: `${(q.duckWarm / q.oursWarm).toFixed(1)}×`,
        met: q.duckWarm >= 20 * q.oursWarm,
      });
    }
    out.push({ target: `${size}: open under 300 ms`, figure: `${ms(r.openMs)} ms`, met: r.openMs < 300 });
    out.push({
      target: `${size}: server RSS under 1 GB with the HTTP benchmark running`,
      figure: r.serverPeakRssBytes === null ? 'n/a' : `${(r.serverPeakRssBytes / 1e6).toFixed(0)} MB`,
      met: r.serverPeakRssBytes !== null && r.serverPeakRssBytes < 1e9,
    });
  }
  const rates = rows.map(rate);
  const spread = Math.max(...rates) / Math.min(...rates);
  out.push({
    target: 'generation linear: reservoir-years per second within 25% across the sizes',
    figure: rates.map((x) => x.toFixed(0)).join(', '),
    met: spread <= 1.25,
  });
  return out;
}

/** A log-log SVG chart: cold time of each query against the number of water bodies, ours solid, DuckDB dashed. */
export function renderChart(rows: readonly ScaleRow[]): string {
  const width = 720;
  const height = 420;
  const pad = { left: 70, right: 180, top: 30, bottom: 50 };
  const xs = rows.map((r) => r.reservoirs);
  const ys = rows.flatMap((r) => r.queries.flatMap((q) => [q.oursCold, q.duckCold]));
  const [x0, x1] = [Math.log10(Math.min(...xs)) - 0.1, Math.log10(Math.max(...xs)) + 0.1];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  const px = (x: number) => pad.left + ((Math.log10(x) - x0) / (x1 - x0)) * (width - pad.left - pad.right);
  const py = (y: number) => height - pad.bottom - ((Math.log10(y) - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const colors: Record<string, string> = { Q1: '#1f77b4', Q3: '#d62728', Q7: '#2ca02c', Q3L: '#9467bd' };
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
  for (const id of rows[0]?.queries.map((q) => q.id) ?? []) {
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
