// "Copy as": the request a view made, as curl, Python requests + pandas, R httr and the TypeScript library call.
// The key is never written into a snippet: it is read from EVAP_API_KEY.

export type SnippetKind = 'curl' | 'python' | 'r' | 'typescript';
export const snippetKinds: readonly { kind: SnippetKind; label: string }[] = [
  { kind: 'curl', label: 'curl' },
  { kind: 'python', label: 'Python (requests + pandas)' },
  { kind: 'r', label: 'R (httr)' },
  { kind: 'typescript', label: 'TypeScript (evap library)' },
];

const quote = (s: string) => JSON.stringify(s); // a double-quoted literal valid in Python, R and TypeScript

/** The snippet of one kind for a GET of `url` (path and query) against `origin`. */
export function snippet(kind: SnippetKind, origin: string, url: string): string {
  const parsed = new URL(url, origin);
  const base = `${origin}${parsed.pathname}`;
  const params = [...parsed.searchParams];
  switch (kind) {
    case 'curl':
      return `curl -H "api-key: $EVAP_API_KEY" '${origin}${url.replace(/'/g, "'\\''")}'`;
    case 'python':
      return [
        'import os',
        'import pandas as pd',
        'import requests',
        '',
        `response = requests.get(`,
        `    ${quote(base)},`,
        `    params={${params.map(([k, v]) => `${quote(k)}: ${quote(v)}`).join(', ')}},`,
        `    headers={"api-key": os.environ["EVAP_API_KEY"]},`,
        ')',
        'response.raise_for_status()',
        'df = pd.DataFrame(response.json())',
      ].join('\n');
    case 'r':
      return [
        'library(httr)',
        '',
        `response <- GET(`,
        `  ${quote(base)},`,
        `  query = list(${params.map(([k, v]) => `${/^[A-Za-z_][A-Za-z0-9_.]*$/.test(k) ? k : `\`${k}\``} = ${quote(v)}`).join(', ')}),`,
        '  add_headers(`api-key` = Sys.getenv("EVAP_API_KEY"))',
        ')',
        'stop_for_status(response)',
        'df <- jsonlite::fromJSON(content(response, as = "text", encoding = "UTF-8"))',
      ].join('\n');
    case 'typescript':
      return libraryCall(parsed.pathname, new Map(params));
  }
}

const list = (v: string | undefined) => (v ? `[${v.split(',').map(quote).join(', ')}]` : undefined);

// the library method and options that answer the same as a path (README, "The library")
function libraryCall(path: string, q: Map<string, string>): string {
  const interval = /^\/timeseries\/([^/]+)\/(reservoirs|stations)\/daterange$/.exec(path);
  const station = path.includes('/stations');
  const options: [string, string | undefined][] = [];
  let method: string;
  if (path.endsWith('/date')) {
    method = station ? 'stationTimeseriesOnDate' : 'reservoirTimeseriesOnDate';
    if (!station) options.push(['datasets', list(q.get('datasets'))]);
    options.push(['variables', list(q.get('variables'))], ['date', q.has('date') ? quote(q.get('date')!) : undefined]);
  } else {
    const aggregate = interval !== null && interval[1] !== 'daily'; // monthly, annual, water-year: the aggregates' method
    method = `${station ? 'station' : 'reservoir'}${aggregate ? 'Aggregates' : 'Timeseries'}`;
    options.push(['names', list(q.get(station ? 'STA_NAMES' : 'RES_NAMES'))]);
    if (!station) options.push(['datasets', list(q.get('datasets'))]);
    options.push(
      ['variables', list(q.get('variables'))],
      ['start', q.has('start_date') ? quote(q.get('start_date')!) : undefined],
      ['end', q.has('end_date') ? quote(q.get('end_date')!) : undefined],
    );
    if (aggregate) options.push(['interval', quote(interval[1]!)]);
  }
  options.push(['units', q.has('units') ? quote(q.get('units')!) : undefined]);
  const body = options.filter(([, v]) => v !== undefined).map(([k, v]) => `  ${k}: ${v},`);
  return [
    "import { openStore } from 'evap';",
    '',
    'const store = await openStore(); // or openStore(folder of your store)',
    `const records = await store.${method}({`,
    ...body,
    '});',
  ].join('\n');
}
