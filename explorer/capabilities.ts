// What the server offers beyond the daily paths, read from /openapi.json: aggregate intervals and normals light up
// in the page as soon as a server lists them, without a change here.

export interface Capabilities {
  intervals: { reservoir: string[]; station: string[] }; // 'daily' first, then e.g. monthly, annual, water-year
  normals: { reservoir: boolean; station: boolean };
  geojson: { reservoir: boolean; station: boolean }; // the name listings answer output_format=geojson: every name's metadata in one request
  forecast: boolean; // the reservoirs' 28-day forecasts, their totals and verification
  model: boolean; // the model's what-if path: evaporation computed under a scenario
}

interface Operation {
  parameters?: { name?: string; schema?: { enum?: unknown[] } }[];
}

/** The capabilities listed by an OpenAPI document's paths. */
export function readCapabilities(openapi: { paths?: Record<string, unknown> }): Capabilities {
  const paths = Object.keys(openapi.paths ?? {});
  const geojson = (path: string) => {
    const post = (openapi.paths?.[path] as { post?: Operation } | undefined)?.post;
    return post?.parameters?.some((p) => p.name === 'output_format' && p.schema?.enum?.includes('geojson')) ?? false;
  };
  const intervals = (kind: 'reservoirs' | 'stations') => [
    'daily',
    ...paths.flatMap((p) => {
      const m = new RegExp(`^/timeseries/([a-z0-9-]+)/${kind}/daterange$`).exec(p);
      return m && m[1] !== 'daily' ? [m[1]!] : [];
    }),
  ];
  return {
    intervals: { reservoir: intervals('reservoirs'), station: intervals('stations') },
    normals: { reservoir: paths.includes('/timeseries/normals/reservoirs'), station: paths.includes('/timeseries/normals/stations') },
    geojson: { reservoir: geojson('/info/list_RES_NAMES'), station: geojson('/info/list_STA_NAMES') },
    forecast: ['/forecast/daily/reservoirs', '/forecast/total/reservoirs', '/forecast/verification/reservoirs'].every((p) => paths.includes(p)),
    model: paths.includes('/model/reservoirs/daterange'),
  };
}

/** The date-range path of an interval ('daily' is the documented daily path). */
export function rangePath(kind: 'reservoir' | 'station', interval: string): string {
  if (interval === 'daily') return kind === 'reservoir' ? '/timeseries/daily/reservoirs/daterange' : '/timeseries/stations/daterange';
  return `/timeseries/${interval}/${kind}s/daterange`;
}
