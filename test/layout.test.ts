// The shape of lib/ as a newcomer reads it: its folders a stack, each importing only those below it, no import cycles
// between files (type-only imports too), no way up into server/ or cli/,
// writing apart from the public Store, one binary search, node:fs in one file, and no HTTP words but in the remote
// client (lib/sync/client.ts), the one file of lib/ that speaks HTTP; the operations table (lib/operations.ts) names
// each operation's path, as data, and nothing else of HTTP.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { exportUses } from './support/export-uses.js';

const root = resolve(import.meta.dirname, '..');

/** The .ts files under a folder of the repository, as '/'-separated paths relative to it, sorted. */
function sourcesUnder(folder: string): string[] {
  const files = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return files.map((f) => join(folder, f).split('\\').join('/')).sort();
}

// `import … from 'x'`, `import type … from 'x'`, `export … from 'x'`, `import 'x'` and `import('x')`, over several lines too
const importPattern = /(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source text imports or re-exports, in order. */
function importsOf(text: string): string[] {
  return [...text.matchAll(importPattern)].map((m) => (m[1] ?? m[2])!);
}

/** A relative specifier resolved to the repository path of its .ts file; a package name as it is. */
function resolveSpecifier(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  return relative(root, resolve(root, dirname(file), specifier))
    .split('\\')
    .join('/')
    .replace(/\.js$/, '.ts');
}

/** Each lib/ file and what it imports (repository paths for relative imports, package names otherwise). */
function libGraph(): Map<string, string[]> {
  return new Map(sourcesUnder('lib').map((file) => [file, importsOf(readFileSync(join(root, file), 'utf8')).map((s) => resolveSpecifier(file, s))]));
}

/** One cycle of a graph as a path that ends where it starts, or undefined when there is none. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node) || !graph.has(node)) return undefined;
    path.push(node);
    for (const next of graph.get(node)!) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The text of every string literal and template part of a source file, and its identifiers (names and property names). */
function wordsOf(file: string): { strings: string[]; identifiers: string[] } {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest);
  const words = { strings: [] as string[], identifiers: [] as string[] };
  const walk = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) words.strings.push(node.text);
    else if (ts.isTemplateExpression(node)) words.strings.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
    else if (ts.isIdentifier(node)) words.identifiers.push(node.text);
    node.forEachChild(walk);
  };
  walk(source);
  return words;
}

// The stack of lib/, lowest first: a folder imports its own files and those of the folders below it, never one above.
// The files at lib/'s root are `base` (what every folder uses) but the operations table and the entry points.
const stack = [
  'base',
  'spatial',
  'store',
  'tables',
  'writer',
  'format',
  'model',
  'query',
  'operations',
  'forecast',
  'ingest',
  'synthetic',
  'display',
  'notebook',
  'open',
  'sync',
  'entries',
] as const;
const rootLayers: Record<string, (typeof stack)[number]> = {
  'lib/operations.ts': 'operations',
  'lib/index.ts': 'entries',
  'lib/dlem.ts': 'entries',
  'lib/entry-notebook.ts': 'entries',
  'lib/entry-sync.ts': 'entries',
  'lib/entry-write.ts': 'entries',
};
// the layer of a lib/ file: its folder's, or for a root file `base` unless named above
const layerOf = (file: string) => (file.split('/').length > 2 ? file.split('/')[1]! : (rootLayers[file] ?? 'base'));

const speaksHttp = (file: string) => file === 'lib/sync/client.ts';
// the paths of the operations, which the routes and the client read from it
const namesPaths = (file: string) => file === 'lib/operations.ts';
// the object-storage client talks S3's HTTP protocol, whose status codes its messages name (`answered 200, not 412`)
const speaksS3 = (file: string) => file === 'lib/store/s3.ts' || file === 'lib/store/bucket.ts';

describe('importsOf', () => {
  it('finds imports, type imports, re-exports and dynamic imports over several lines', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      '  type D,',
      "} from './c.js';",
      "export { e } from './e.js';",
      "export type * from './f.js';",
      "import 'node:fs';",
      "const g = await import('./g.js');",
      'const h = \'import x from "./not-at-a-statement.js"\';',
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.js', '../b.js', './c.js', './e.js', './f.js', 'node:fs', './g.js']);
  });
});

describe('findCycle', () => {
  it('reports the path of a cycle, and none in a graph without one', () => {
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['b', 'x']],
        ]),
      ),
    ).toEqual(['b', 'c', 'b']);
    expect(
      findCycle(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('lib/', () => {
  const graph = libGraph();

  it('has no import cycle, type-only imports included', () => {
    expect(findCycle(graph)?.join(' -> ')).toBeUndefined();
  });

  it('imports down its stack of folders only', () => {
    const rank = (file: string) => stack.indexOf(layerOf(file) as (typeof stack)[number]);
    expect([...graph.keys()].filter((file) => rank(file) < 0)).toEqual([]); // every folder has its place
    const upward = [...graph].flatMap(([file, imports]) =>
      imports.filter((i) => i.startsWith('lib/') && rank(i) > rank(file)).map((i) => `${file} -> ${layerOf(i)}`),
    );
    expect([...new Set(upward)].sort()).toEqual([]);
  });

  it('is the stack the README and docs/architecture.md say', () => {
    for (const page of ['README.md', 'docs/architecture.md']) expect(readFileSync(join(root, page), 'utf8'), page).toContain(stack.join(' < '));
  });

  it('never imports server/ or cli/', () => {
    const upward = [...graph].flatMap(([file, imports]) => imports.filter((i) => /^(server|cli)\//.test(i)).map((i) => `${file} -> ${i}`));
    expect(upward).toEqual([]);
  });

  it('writes without the public Store: the writer, its readback and the ingests (of forecasts too) never reach open/store.ts, even indirectly', () => {
    const reach = (from: string, seen = new Set<string>()): Set<string> => {
      for (const next of graph.get(from) ?? []) if (!seen.has(next)) reach(next, seen.add(next));
      return seen;
    };
    const writing = [...graph.keys()].filter(
      (f) => f === 'lib/writer/write.ts' || f === 'lib/store/readback.ts' || f === 'lib/forecast/ingest.ts' || f.startsWith('lib/ingest/'),
    );
    expect(writing.filter((f) => reach(f).has('lib/open/store.ts'))).toEqual([]);
  });

  it('halves a search range in one place only, the binary search of order.ts', () => {
    // (lo + hi) >>> 1 or >> 1, whatever the names; Math.floor((lo + hi) / 2) where the names are a range's ends (not a mean of two temperatures)
    const midpoint = /\(\s*\w+\s*\+\s*\w+\s*\)\s*>>>?\s*1\b|\(\s*(lo|low|left|start|from)\s*\+\s*(hi|high|right|end|to)\s*\)\s*\/\s*2\b/;
    expect([...graph.keys()].filter((file) => midpoint.test(readFileSync(join(root, file), 'utf8')))).toEqual(['lib/order.ts']);
  });

  it('imports node:fs in one file only, lib/store/disk.ts', () => {
    const fsUsers = [...graph].filter(([, imports]) => imports.some((i) => /^(node:)?fs(\/promises)?$/.test(i))).map(([file]) => file);
    expect(fsUsers).toEqual(['lib/store/disk.ts']);
  });

  it("speaks no HTTP outside the remote client: no status codes, API paths (but the operations table's), or request locations", () => {
    const found = [...graph.keys()]
      .filter((file) => !speaksHttp(file))
      .flatMap((file) => {
        const { strings, identifiers } = wordsOf(file);
        return [
          ...strings.filter((text) => !speaksS3(file) && /\b[45]\d\d\b/.test(text)).map((text) => `${file}: status code in ${JSON.stringify(text)}`),
          ...strings
            .filter((text) => (!namesPaths(file) && /(^|[\s(`'"])\/(info|timeseries|metadata)\/|openapi\.json/.test(text)) || /openapi\.json/.test(text))
            .map((text) => `${file}: API path in ${JSON.stringify(text)}`),
          ...strings.filter((text) => text === 'query' || text === 'body').map((text) => `${file}: request location ${JSON.stringify(text)}`),
          ...identifiers.filter((name) => name === 'loc').map(() => `${file}: loc`),
        ];
      });
    expect(found).toEqual([]);
  });
});

describe('a process that serves or queries', () => {
  // the packages of Arrow and Parquet answers, Parquet writing and shapefile projections: about 200 ms of CPU to load,
  // paid by the first request that needs them rather than by every server, worker and `evap query` at start
  const onDemand = ['apache-arrow', 'parquet-wasm', 'proj4'];
  // what loading a file loads before any of its code runs: its imports but type-only and dynamic ones, transitively
  const loadedAtStart = (entry: string): Set<string> => {
    const loaded = new Set<string>();
    const visit = (file: string): void => {
      if (loaded.has(file)) return;
      loaded.add(file);
      if (!file.endsWith('.ts')) return;
      const text = readFileSync(join(root, file), 'utf8').replace(/\bimport\(\s*['"][^'"]+['"]\s*\)/g, '');
      const specifiers = [...text.matchAll(importPattern)].filter((m) => !/^\s*(?:import|export)\s+type\b/.test(m[0].replace(/^[\n;]/, ''))).map((m) => m[1]!);
      for (const specifier of specifiers) if (!specifier.startsWith('node:')) visit(resolveSpecifier(file, specifier));
    };
    visit(entry);
    return loaded;
  };

  it('loads Arrow, parquet-wasm and proj4 only when an answer or a shapefile needs them', () => {
    for (const entry of ['server/process/start.ts', 'cli/commands/query.ts']) {
      expect(
        [...loadedAtStart(entry)].filter((m) => onDemand.includes(m.split('/')[0]!)),
        entry,
      ).toEqual([]);
    }
  });

  it("loads no module of notebook/ or sync/ from the package's own entry (evap): they are entry points of their own", () => {
    const plain = [...loadedAtStart('lib/index.ts')];
    expect(plain.filter((m) => /^lib\/(notebook|sync)\//.test(m))).toEqual([]);
    // and the entries that hold them do load them
    expect(loadedAtStart('lib/entry-notebook.ts').has('lib/notebook/view.ts')).toBe(true);
    expect(loadedAtStart('lib/entry-sync.ts').has('lib/sync/client.ts')).toBe(true);
  });

  it("loads neither Arrow nor parquet-wasm from the package's own entry (evap): writing and tables are evap/write", () => {
    expect([...loadedAtStart('lib/index.ts')].filter((m) => onDemand.includes(m.split('/')[0]!))).toEqual([]);
    const write = loadedAtStart('lib/entry-write.ts');
    expect(['apache-arrow', 'parquet-wasm', 'lib/writer/write.ts'].map((m) => write.has(m))).toEqual([true, true, true]);
  });

  it('loads no forecast query, what-if, summary, changes or observations module from the store: their first call does', () => {
    // a daily answer's process needs none of them (issue 44); each is an import() in lib/open/store.ts. Of lib/model/,
    // only what checkOptions loads to check a scenario's options.
    const lazy =
      /^lib\/(forecast\/(?!variable-list\.ts$)|model\/|query\/(what-if|summaries|day-counts|observations|modelled|series|forcing)\.ts$|tables\/|ingest\/|writer\/|synthetic\/generate)/;
    const checking = loadedAtStart('lib/operations.ts');
    const loaded = [...loadedAtStart('lib/open/store.ts')];
    expect(loaded.filter((m) => lazy.test(m) && !checking.has(m))).toEqual([]);
    expect(loaded.filter((m) => onDemand.includes(m.split('/')[0]!))).toEqual([]);
    // and the test sees them when they are imported statically
    expect(loadedAtStart('lib/query/what-if.ts').has('lib/query/summaries.ts')).toBe(true);
    expect(loadedAtStart('lib/forecast/store-methods.ts').has('lib/forecast/query.ts')).toBe(true);
  });

  it('sees a package a file loads through a chain of static imports, and not one loaded by import()', () => {
    expect(loadedAtStart('lib/writer/write.ts').has('apache-arrow')).toBe(true);
    expect(loadedAtStart('lib/spatial/within.ts').has('proj4')).toBe(false);
    expect(loadedAtStart('lib/writer/write.ts').has('lib/store/parquet-encode.ts')).toBe(true);
  });
});

describe('exportUses', () => {
  it('sees named, namespace, dynamic, re-exported and type imports, and an export used in its own file only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evap-exports-'));
    const files: Record<string, string> = {
      'src/a.ts':
        'export const named = 1;\nexport const viaNamespace = 2;\nexport const notImported = 3;\nexport function local() {}\nlocal();\nexport type Typed = 1;',
      'src/b.ts': 'export const destructured = 1;\nexport const member = 2;\nexport const unread = 3;',
      'src/c.ts': 'export const reExported = 1;\nexport const everything = 2;',
      'src/d.ts': "export * from './c.js';",
      'src/e.ts': "export { reExported as renamed } from './c.js';",
      'use/u.ts': [
        "import { named } from '../src/a.js';",
        "import * as a from '../src/a.js';",
        "import '../src/e.js';",
        "const { destructured } = await import('../src/b.js');",
        "const b = await import('../src/b.js');",
        "type T = import('../src/a.js').Typed;",
        'a.viaNamespace; b.member;',
      ].join('\n'),
      'use/v.ts': "import { everything } from '../src/d.js';",
    };
    try {
      mkdirSync(join(dir, 'src'));
      mkdirSync(join(dir, 'use'));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
      const uses = exportUses(dir, ['src'], ['use']);
      const unused = uses.filter((u) => u.importers.length === 0).map((u) => `${u.file}: ${u.name}${u.local ? ' (local)' : ''}`);
      expect(unused.sort()).toEqual(['src/a.ts: local (local)', 'src/a.ts: notImported', 'src/b.ts: unread', 'src/e.ts: renamed']);
      expect(uses.find((u) => u.name === 'everything')?.importers).toEqual(['src/d.ts']); // export * takes every export
      expect(uses.find((u) => u.name === 'reExported')?.importers).toEqual(['src/d.ts', 'src/e.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every export of lib/, server/ and cli/', () => {
  it("is imported by another file (a test, a bench, a script or the explorer counts), or is the API of an entry point of package.json's exports", () => {
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
    const entries = Object.values(exports).map((e) => e.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
    expect(entries).toContain('lib/index.ts');
    const unused = exportUses(root, ['lib', 'server', 'cli'], ['test', 'bench', 'scripts', 'explorer'])
      .filter((u) => u.importers.length === 0 && !entries.includes(u.file))
      .map((u) => `${u.file}: ${u.name}${u.local ? ' (used in its file only: unexport it)' : ' (imported by nothing: remove it)'}`);
    expect(unused).toEqual([]);
  });
});
