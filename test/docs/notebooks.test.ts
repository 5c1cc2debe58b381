// docs/notebooks/ run as a reader runs them: every notebook executed with nbclient under the Deno and the tslab
// Jupyter kernels (kernelspecs written into a temporary Jupyter path, nothing into the user's), no cell failing but
// the ones tagged to show an error; answer cells display HTML and chart cells SVG whose series, point counts and axis
// labels are those of the same query answered here in-process, as are the numbers of what-if.ipynb's table.
// UPDATE_NOTEBOOKS=1 saves the Deno run's outputs into docs/notebooks/.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { defaultStoreDir } from '../../lib/synthetic/demo.js';
import type { WireRecord } from '../../lib/types.js';
import { tempDir } from '../helpers.js';

const root = join(import.meta.dirname, '..', '..');
const folder = join(root, 'docs', 'notebooks');
const run = promisify(execFile);
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  traceback?: string[];
}
interface Cell {
  cell_type: string;
  source: string | string[];
  metadata: { tags?: string[] };
  outputs?: Output[];
}
const joined = (text: string | string[] | undefined) => (Array.isArray(text) ? text.join('') : (text ?? ''));

// a Python with Debian's nbclient (the first python3 on PATH may be another one), and the kernels from node_modules
async function findTools(): Promise<{ python: string } | { missing: string }> {
  for (const name of ['/usr/bin/python3', 'python3']) {
    try {
      await run(name, ['-c', 'import nbclient, nbformat, jupyter_client']);
      for (const kernel of ['deno', 'tslab']) {
        if (!(await readdir(join(root, 'node_modules', '.bin'))).includes(kernel)) return { missing: `node_modules/.bin/${kernel} (npm ci installs it)` };
      }
      return { python: name };
    } catch {}
  }
  return { missing: 'python3 with nbclient (Debian: apt-get install python3-nbclient python3-jupyter-client python3-nbformat)' };
}

const tools = await findTools();
const notebooks = (await readdir(folder)).filter((f) => f.endsWith('.ipynb')).sort();
const kernels = ['deno', 'tslab'] as const;

if ('missing' in tools) {
  // loud, and a failure where the kernels are required (.ci/run installs them)
  console.warn(`\n*** docs/notebooks NOT RUN: ${tools.missing} is missing ***\n`);
  if (process.env.EVAP_NOTEBOOK_KERNELS === 'required') throw new Error(`the notebook kernels are required here but ${tools.missing} is missing`);
}

// what each chart cell plots, asked again here: the series (name and key) and points the SVG must hold
type Ask = (store: EvapStore) => Promise<WireRecord[]>;
const lakeAliceNetE: Ask = (s) =>
  s.reservoirTimeseries({ names: ['LAKE ALICE'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2020-01-01', end: '2020-12-31' });
const losses = { names: ['LAKE MEAD', 'LAKE POWELL', 'FLAMING GORGE RESERVOIR'], datasets: ['nete-volume-calcs'], units: 'english' };
const charts: Record<string, Ask[]> = {
  'examples.ipynb': [
    lakeAliceNetE,
    (s) =>
      s.reservoirTimeseries({
        names: ['LAKE ALICE', 'LAKE ESTES', 'RUEDI RESERVOIR'],
        datasets: ['nete-volume-calcs'],
        variables: ['NetE'],
        start: '2020-06-01',
        end: '2020-08-31',
      }),
    (s) => s.reservoirAggregates({ names: ['LAKE MEAD'], datasets: ['nete-volume-calcs'], variables: ['E_volume'], start: '2020-01-01', end: '2020-12-31' }),
    (s) => s.reservoirTimeseries({ names: ['LAKE POWELL'], datasets: ['rtma'], variables: ['tmmx_c', 'tmmn_c', 'pr'], start: '2020-06-01', end: '2020-08-31' }),
  ],
  'losses.ipynb': [
    (s) => s.reservoirAggregates({ ...losses, variables: ['E_volume', 'NetE_volume'], start: '2019-01-01', end: '2021-12-31', interval: 'annual' }),
    (s) => s.reservoirAggregates({ ...losses, variables: ['E_volume'], start: '2019-10-01', end: '2021-09-30', interval: 'water-year' }),
    (s) => s.reservoirNormals({ ...losses, variables: ['E_volume'] }),
    (s) => s.reservoirAggregates({ ...losses, variables: ['E_volume'], start: '2021-01-01', end: '2021-12-31' }),
  ],
  'what-if.ipynb': [],
};

// the numbers a notebook's table shows, asked again here: each row's label and the cells after it
type Rows = (store: EvapStore) => Promise<Record<string, string[]>>;
const whatIf2020: Rows = async (s) => {
  const year = { names: ['LAKE MEAD'], variables: ['E_volume'], units: 'english', start: '2020-01-01', end: '2020-12-31', interval: 'annual' };
  const total = async (scenario: object) => (await s.reservoirModel({ ...year, ...scenario }))[0]!['E_volume (acre-ft)'] as number;
  const base = await total({});
  const row = async (scenario: object) => {
    const t = await total(scenario);
    return [String(Math.round(t)), String(Math.round(t - base))];
  };
  return {
    baseline: await row({}),
    '+2 °C': await row({ taDelta: 2 }),
    '10 m lower stage': await row({ stageDelta: -10 }),
    '+2 °C and 10 m lower stage': await row({ taDelta: 2, stageDelta: -10 }),
  };
};
const tables: Record<string, Rows> = { 'what-if.ipynb': whatIf2020 };

/** The rows of the HTML tables of `view` (label, then the other cells' text). */
function readRows(html: string): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const [, row] of html.matchAll(/<tr>(.*?)<\/tr>/g)) {
    const cells = [...row!.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]!);
    if (cells.length) rows[cells[0]!] = cells.slice(1);
  }
  return rows;
}

interface SvgSeries {
  name: string;
  variable: string;
  points: number;
}

/** The series and axis labels an SVG chart holds, read with an XML parser. */
function readSvg(svg: string): { series: SvgSeries[]; axisLabels: string[]; title: string } {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: false, isArray: () => true });
  const doc = parser.parse(svg) as { svg: Record<string, unknown>[] };
  const series: SvgSeries[] = [];
  const axisLabels: string[] = [];
  const titles: string[] = [];
  const text = (t: unknown): string => (typeof t === 'object' && t !== null ? String((t as { '#text'?: unknown })['#text'] ?? '') : String(t));
  const walk = (node: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(node)) {
      if (!Array.isArray(value)) continue;
      for (const child of value as Record<string, unknown>[]) {
        if (typeof child !== 'object' || child === null) continue;
        const cls = String(child.class ?? '');
        if (key === 'g' && cls === 'series')
          series.push({ name: String(child['data-name']), variable: String(child['data-variable']), points: Number(child['data-points']) });
        if (key === 'text' && cls.split(' ').includes('axis-label')) axisLabels.push(text(child));
        if (key === 'text' && (cls === 'title' || cls === 'subtitle')) titles.push(text(child));
        walk(child);
      }
    }
  };
  walk(doc.svg[0]!);
  return { series, axisLabels, title: titles.join(' · ') };
}

/** The series an answer holds: each name with each "<variable> (<unit>)" key, and the name's record count. */
function expectedSeries(records: WireRecord[]): SvgSeries[] {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)).flatMap((k) => /^(\S+ \([^)]*\))/.exec(k)?.[1] ?? []))];
  const names = [...new Set(records.map((r) => String(r.RES_NAME)))];
  return names.flatMap((name) => keys.map((variable) => ({ name, variable, points: records.filter((r) => r.RES_NAME === name).length })));
}

describe.skipIf('missing' in tools)('docs/notebooks', () => {
  let jupyterPath = '';
  let env: NodeJS.ProcessEnv = {};
  let store: EvapStore;

  beforeAll(async () => {
    const dir = await tempDir('evap-notebooks-');
    jupyterPath = join(dir, 'jupyter');
    const specs = {
      deno: {
        argv: [bin('deno'), 'jupyter', '--kernel', '--conn', '{connection_file}'],
        display_name: 'Deno',
        language: 'typescript',
        env: { DENO_DIR: join(dir, 'deno'), DENO_NO_UPDATE_CHECK: '1' },
      },
      tslab: { argv: [bin('tslab'), 'kernel', '--config-path', '{connection_file}'], display_name: 'TypeScript', language: 'typescript' },
    };
    for (const [name, spec] of Object.entries(specs)) {
      await mkdir(join(jupyterPath, 'kernels', name), { recursive: true });
      await writeFile(join(jupyterPath, 'kernels', name, 'kernel.json'), JSON.stringify(spec));
    }
    // every Jupyter folder in the temporary one: kernelspecs, connection files, settings
    env = {
      ...process.env,
      JUPYTER_PATH: jupyterPath,
      JUPYTER_RUNTIME_DIR: join(dir, 'runtime'),
      JUPYTER_DATA_DIR: join(dir, 'data'),
      JUPYTER_CONFIG_DIR: join(dir, 'config'),
      IPYTHONDIR: join(dir, 'ipython'),
    };
    store = await openStore(defaultStoreDir());
  });

  it('finds the three notebooks, and the build they import is not older than the library', async () => {
    expect(notebooks).toEqual(['examples.ipynb', 'losses.ipynb', 'what-if.ipynb']);
    // the notebooks import dist/ (tslab cannot import TypeScript files): a stale build would test old code
    const built = (await stat(join(root, 'dist', 'lib', 'index.js'))).mtimeMs;
    const sources = (await readdir(join(root, 'lib'), { recursive: true })).filter((f) => f.endsWith('.ts'));
    const newest = Math.max(...(await Promise.all(sources.map(async (f) => (await stat(join(root, 'lib', f))).mtimeMs))));
    expect(newest <= built, 'lib/ changed since the last build: run npm run build').toBe(true);
  });

  for (const notebook of notebooks) {
    for (const kernel of kernels) {
      it(`runs ${notebook} under ${kernel}: answers as HTML, charts as SVG of the answer`, { timeout: 180_000 }, async () => {
        const out = join(jupyterPath, `${kernel}-${notebook}`);
        const python = (tools as { python: string }).python;
        const done = await run(python, [join(root, 'test', 'support', 'execute-notebook.py'), join(folder, notebook), kernel, out, '120'], {
          env,
          cwd: folder,
        }).catch((error: { stderr?: string; message: string }) => ({ failed: error.stderr || error.message }));
        expect('failed' in done ? done.failed : '').toBe('');
        const cells = (JSON.parse(await readFile(out, 'utf8')) as { cells: Cell[] }).cells.filter((c) => c.cell_type === 'code');
        const asked = charts[notebook]!;
        let chartCount = 0;
        let html = '';
        for (const cell of cells) {
          const source = joined(cell.source);
          const outputs = cell.outputs ?? [];
          const data = (mime: string) => outputs.flatMap((o) => (o.data?.[mime] === undefined ? [] : [joined(o.data[mime])]));
          for (const o of outputs) expect(JSON.stringify(o), 'an output names this machine').not.toContain(root);
          // an answer or a chart is one output holding its rich form and its text (not a display and a printed copy)
          const shownOnce = () => {
            // stderr notes aside, and what a cell prints itself with console.log
            const printed = (o: Output) => o.output_type === 'stream' && (o.name === 'stderr' || source.includes('console.log'));
            const shown = outputs.filter((o) => !printed(o));
            expect(
              shown.map((o) => o.output_type),
              `${kernel}: ${source}`,
            ).toHaveLength(1);
            expect(shown[0]!.data?.['text/plain'], `${kernel}: ${source}`).toBeDefined();
          };
          if (cell.metadata.tags?.includes('raises-exception')) {
            // one readable line: Deno's traceback, or what tslab prints on stderr
            const shown = outputs.flatMap((o) =>
              o.output_type === 'error' ? (o.traceback ?? []) : o.name === 'stderr' ? joined(o.text).trimEnd().split('\n') : [],
            );
            expect(shown, source).toEqual(['NotFoundError: reservoir not found: "LAKE MAED" (did you mean "LAKE MEAD"?)']);
          } else if (/\bplot\(/.test(source)) {
            const svgs = data('image/svg+xml');
            expect(svgs, source).toHaveLength(1);
            shownOnce();
            const svg = readSvg(svgs[0]!);
            const records = await asked[chartCount++]!(store);
            const expected = expectedSeries(records);
            const order = (list: SvgSeries[]) => [...list].sort((a, b) => `${a.name} ${a.variable}`.localeCompare(`${b.name} ${b.variable}`));
            expect(order(svg.series), source).toEqual(order(expected));
            for (const unit of new Set(expected.map((s) => /\(([^)]*)\)$/.exec(s.variable)![1]!)))
              expect(
                svg.axisLabels.some((l) => l.endsWith(`(${unit})`)),
                `${source}: ${unit} axis`,
              ).toBe(true);
            expect(svg.title).toContain('demo store (synthetic values)');
          } else if (/\bview\(/.test(source) || cell.metadata.tags?.includes('answer')) {
            const shown = data('text/html');
            expect(shown.length, source).toBeGreaterThanOrEqual(1);
            shownOnce();
            expect(shown.join(''), source).toContain('<table>');
            html += shown.join('');
          }
        }
        expect(chartCount).toBe(asked.length);
        const rows = tables[notebook];
        if (rows) expect(readRows(html)).toEqual(await rows(store));
        if (process.env.UPDATE_NOTEBOOKS && kernel === 'deno') await copyFile(out, join(folder, notebook));
      });
    }
  }
});
