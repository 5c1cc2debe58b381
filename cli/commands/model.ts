// evap model: the Daily Lake Evaporation Model on a forcing file (any water body), or over a store's own forcing
// (a recompute written as a new snapshot, or a what-if scenario printed).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseForcingCsv } from '../../lib/model/forcing-csv.js';
import { type Lake, type ModelResult, modelVariables, runModel } from '../../lib/model/run.js';
import { type Polygons, parseShapefile } from '../../lib/spatial/within.js';
import type { WireRecord } from '../../lib/types.js';
import { type Flags, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, writeRecords } from '../output.js';
import { pathIn } from '../paths.js';

export const usage = `evap model --forcing FILE.csv --lat DEG --elev M (--fetch-m F | F1,...,F12 | --polygon FILE) [--tw0 C] [--tds PPM] [--out FILE]
evap model --store DIR [--names N,...] [--start D --end D] [--dry-run]
evap model --store DIR --names N,... --start D --end D --scenario ta_delta=2,stage_delta=-10,... [--variables V,...]
    [--interval monthly|annual|water-year] [--units english] [--out FILE]
  The Daily Lake Evaporation Model (DLEM) that OWEN publishes its estimates with (docs/model.md).

  On a forcing file: one row per date of FILE.csv, with date then E_hs, E_nhs, Rn, Tw, Tw0, Fetch, Lerr, NetE,
  E_volume, NetE_volume, metric, full precision. FILE.csv has a date column (YYYY-MM-DD, consecutive days) and columns
  named as the API's variables: srad (W m-2), vpd_kpa, vs2m (m/s at 2 m), th (degrees), ta_c (daily mean air
  temperature; else the mean of tmmx_c and tmmn_c), and optionally pres_pa (else from --elev), pr, depth_m,
  area_m2, stage_m.
  --lat DEG, --elev M     the water body's latitude and elevation
  --fetch-m F | F1,...,F12  the fetch in metres: one for every direction, or 12 for the wind sectors centred on
                          0, 30, ..., 330 degrees
  --polygon FILE          the fetch from the outline instead: a .shp (beside its .dbf, .shx, .prj) or GeoJSON
                          (without --fetch-m or --polygon: from area_m2, as a round lake's)
  --depth-m M             the average depth where the forcing has no depth_m column
  --tw0 C                 the water temperature at the start of the first day (default: that day's air temperature)
  --tds PPM               total dissolved solids: salty water evaporates less (10,000-1,000,000 ppm)
  --out FILE              write there (.csv, .json or .parquet by extension) instead of CSV on stdout

  On a store: --store DIR runs the model over the store's rtma and res forcing and writes lem and
  nete-volume-calcs as a new snapshot (--dry-run: only say how much would change); with --scenario, prints the
  what-if answer instead and writes nothing (docs/model.md lists the scenario parameters).`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    forcing: { type: 'string' },
    lat: { type: 'string' },
    elev: { type: 'string' },
    'fetch-m': { type: 'string' },
    polygon: { type: 'string' },
    'depth-m': { type: 'string' },
    tw0: { type: 'string' },
    tds: { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string' },
    store: { type: 'string' },
    names: { type: 'string' },
    start: { type: 'string' },
    end: { type: 'string' },
    scenario: { type: 'string' },
    'dry-run': { type: 'boolean' },
    interval: { type: 'string' },
    units: { type: 'string' },
    datasets: { type: 'string' },
    variables: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (stringFlag(values, 'forcing') !== undefined && stringFlag(values, 'store') !== undefined) throw new UsageError('give --forcing or --store, not both');
  if (stringFlag(values, 'store') !== undefined) return (await import('./model-store.js')).runOnStore(values, io);
  const forcingFile = stringFlag(values, 'forcing');
  if (forcingFile === undefined) throw new UsageError('--forcing FILE.csv or --store DIR is required');
  const lake = await lakeOf(values, io);
  const forcing = parseForcingCsv(await readFile(pathIn(io, forcingFile), 'utf8'));
  const result = runModel(forcing, lake, { tw0: numberFlag(values, 'tw0') });
  const out = stringFlag(values, 'out');
  await writeRecords(
    io,
    resultRecords(result),
    ['date', ...modelVariables],
    chooseFormat(io, stringFlag(values, 'format') ?? (out === undefined ? 'csv' : undefined), out),
    out,
  );
  return 0;
}

/** Each date's outputs as a record, NaN as null. */
export function resultRecords(result: ModelResult): WireRecord[] {
  return result.date.map((date, t) => {
    const record: WireRecord = { date };
    for (const name of modelVariables) {
      const value = result.values[name][t]!;
      record[name] = Number.isNaN(value) ? null : value;
    }
    return record;
  });
}

async function lakeOf(values: Flags, io: CliIo): Promise<Lake> {
  const lat = numberFlag(values, 'lat');
  const elev = numberFlag(values, 'elev');
  if (lat === undefined || lat < -90 || lat > 90) throw new UsageError('--lat DEG is required: the latitude, -90 to 90');
  if (elev === undefined) throw new UsageError('--elev M is required: the elevation in metres');
  const lake: Lake = { lat, elev, depth: numberFlag(values, 'depth-m'), tds: numberFlag(values, 'tds') };
  const fetch = stringFlag(values, 'fetch-m');
  const polygon = stringFlag(values, 'polygon');
  if (fetch !== undefined && polygon !== undefined) throw new UsageError('give --fetch-m or --polygon, not both');
  if (fetch !== undefined) {
    const parts = fetch.split(',').map((part) => Number(part.trim()));
    if ((parts.length !== 1 && parts.length !== 12) || parts.some((f) => !Number.isFinite(f) || f <= 0))
      throw new UsageError(`--fetch-m takes one positive number of metres or 12 of them, got ${JSON.stringify(fetch)}`);
    lake.fetch = parts.length === 1 ? parts[0]! : parts;
  }
  if (polygon !== undefined) {
    const { fetchFromPolygons } = await import('../../lib/model/outline.js'); // proj4: loaded for an outline only
    lake.fetch = fetchFromPolygons(await readOutline(pathIn(io, polygon)));
  }
  return lake;
}

// a shapefile (its parts beside it) or a GeoJSON file
async function readOutline(path: string): Promise<Polygons> {
  const extension = extname(path).toLowerCase();
  if (extension !== '.shp') {
    const { polygonsFromGeoJson } = await import('../../lib/model/outline.js');
    return polygonsFromGeoJson(JSON.parse(await readFile(path, 'utf8')));
  }
  const base = path.slice(0, -extension.length);
  const part = async (ext: string) => readFile(`${base}.${ext}`).catch(() => undefined);
  return parseShapefile({ shp: await readFile(path), shx: await part('shx'), dbf: await part('dbf'), prj: await part('prj') });
}

function numberFlag(values: Flags, name: string): number | undefined {
  const text = stringFlag(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(text)}`);
  return value;
}
