// The README's request path stays true: the request it describes is sent over a socket, the functions that run are
// taken from V8's precise coverage, and every function the README names must run in the file named with it; the steps
// name no more files than the README says, the files of lib/ and server/ that run, helpers included, are no more than
// it says, and each of them is a step's file or one the README's sentence before the steps names.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root, startTestServer } from '../server/harness.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('- The request path of `GET '), readme.indexOf('- `test/consumer.test.ts`'));
const target = /The request path of `GET ([^`]+)`/.exec(section)![1]!;
const mostOwn = Number(/in at most (\d+) files\s+of\s+its\s+own/.exec(section)![1]);
const most = Number(/no more than (\d+) files of\s+`lib\/`/.exec(section)![1]);
const listAt = section.search(/\n {2}1\. /);
const shared = section.slice(section.indexOf("Besides the steps' files"), listAt); // the sentence naming what else runs
const list = section
  .slice(listAt + 1)
  .trimEnd()
  .split('\n'); // the numbered steps
// `file` `fn` `fn` -> [file, [fn, fn]]: every file a text names, with the functions named after it
const namedIn = (text: string) =>
  [...text.matchAll(/`((?:lib|server)\/[\w/.-]+\.ts)`((?:\s*`\w+`)*)/g)].map((m) => [m[1]!, [...m[2]!.matchAll(/`(\w+)`/g)].map((f) => f[1]!)] as const);
const inSteps = namedIn(list.join('\n'));
const inShared = namedIn(shared);
const stepFiles = new Set(inSteps.map(([file]) => file));
const sharedFiles = new Set(inShared.map(([file]) => file));

const session = new Session();
afterAll(() => session.disconnect());

describe('the README request path', () => {
  it('names steps of files and functions, no more files than it says, and apart from the files of the sentence before them', () => {
    expect(inSteps.length).toBeGreaterThanOrEqual(9);
    expect(stepFiles.size, [...stepFiles].join(' ')).toBeLessThanOrEqual(mostOwn);
    expect(sharedFiles.size).toBeGreaterThan(0);
    expect([...stepFiles].filter((file) => sharedFiles.has(file))).toEqual([]);
  });

  it('is one numbered list, 1 to n, each step naming a file and a function', () => {
    const steps = list.filter((line) => /^ {2}\d+\. /.test(line));
    expect(steps.map((line) => Number(/\d+/.exec(line)![0]))).toEqual(steps.map((_, i) => i + 1));
    // a step goes on in lines indented under it; anything else inside the list is text pasted into it
    expect(list.filter((line) => !/^ {2}\d+\. /.test(line) && !/^ {5}\S/.test(line))).toEqual([]);
    for (const step of steps) expect(step).toMatch(/`(lib|server)\/[\w/.-]+\.ts` `\w+`/);
  });

  it('runs each function it names, in its file, and no more files than it says', async () => {
    const server = await startTestServer();
    const query = 'RES_NAMES=LAKE%20MEAD&datasets=nete-volume-calcs&variables=NetE&start_date=2020-01-01&end_date=2020-01-31';
    // once before: what runs the first time only is not the path; with another day, so that the answer measured is made,
    // not sent from the cache of recent answers
    await (await server.get(`${target}?${query.replace('2020-01-31', '2020-01-30')}`)).text();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const response = await server.get(`${target}?${query}`);
    expect(response.status).toBe(200);
    await response.text();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    const ran = new Map<string, Set<string>>();
    for (const script of result) {
      const path = decodeURIComponent(script.url.replace(/^file:\/\//, '')).split('?')[0]!;
      const file = path.startsWith(root) ? path.slice(root.length) : undefined;
      if (file === undefined || !/^(lib|server)\//.test(file)) continue;
      const functions = script.functions.filter((f) => f.ranges[0]!.count > 0).map((f) => f.functionName);
      if (functions.length > 0) ran.set(file, new Set([...(ran.get(file) ?? []), ...functions]));
    }
    // the options are checked once per request, by the store's stream method (the route only reads them off the wire)
    const checked = result
      .filter((script) => script.url.endsWith('/lib/operations.ts'))
      .flatMap((script) => script.functions.filter((f) => f.functionName === 'checkOptions'))
      .reduce((calls, f) => calls + f.ranges[0]!.count, 0);
    expect(checked).toBe(1);
    const missing = [...inSteps, ...inShared].flatMap(([file, functions]) => functions.filter((f) => !ran.get(file)?.has(f)).map((f) => `${file} ${f}`));
    expect(missing).toEqual([]);
    expect(ran.size, [...ran.keys()].sort().join(' ')).toBeLessThanOrEqual(most);
    // every file that runs is told of, and every file told of runs
    expect([...ran.keys()].filter((file) => !stepFiles.has(file) && !sharedFiles.has(file)).sort()).toEqual([]);
    expect([...stepFiles, ...sharedFiles].filter((file) => !ran.has(file))).toEqual([]);
    await server.close();
  });
});
