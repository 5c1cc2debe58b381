// The published Lake Powell run of the Texas A&M DLEM implementation (test/fixtures/dlem-powell/README.md): its inputs
// as a forcing file of ours, and its outputs, for the tests that use it as an oracle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = join(import.meta.dirname, '../../fixtures/dlem-powell');

// M/D/YY (meteo, output) and YYYYMMDD (area and depth) as the files have them, to YYYY-MM-DD
function isoDate(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text);
  if (slashed) return `20${slashed[3]}-${slashed[1]!.padStart(2, '0')}-${slashed[2]!.padStart(2, '0')}`;
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}

function table(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(folder, file), 'utf8').trim().split(/\r?\n/);
  const keys = header!.split(',');
  return lines.map((line) => {
    const row = Object.fromEntries(line.split(',').map((cell, i) => [keys[i]!, cell]));
    return keys[0] === 'date' ? { ...row, date: isoDate(row.date!) } : row;
  });
}

/** The run's constants: latitude and elevation of the lake, as the published run set them. */
export const powellLake = { lat: 36, elev: 1600 };

/** The fetch file's 12 sector values (0°, 30°, …, 330°; its 13th column repeats 0° as 360°). */
export function powellFetch(): number[] {
  const [row] = table('fetch.csv');
  return ['0', '30', '60', '90', '120', '150', '180', '210', '240', '270', '300', '330'].map((k) => Number(row![k]));
}

/** The inputs as a forcing CSV of the API's names: air temperature in °C from kelvin, the rest as published. */
export function powellForcingCsv(): string {
  const meteo = table('meteo.csv');
  const state = new Map(table('area_depth.csv').map((row) => [row.date!, row]));
  const lines = ['date,srad,ta_c,vpd_kpa,vs2m,th,depth_m,area_m2'];
  for (const row of meteo) {
    const lake = state.get(row.date!)!;
    lines.push([row.date, row.srd, Number(row.tem) - 273.15, row.vpd, row.wind, row.dir, lake.depth_m, lake.area_m2].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The published outputs by date: evaporation with heat storage (mm/day) and the error code. */
export function powellOutput(): Map<string, { evapHs: number; error: number }> {
  return new Map(table('output.csv').map((row) => [row.date!, { evapHs: Number(row.evap_hs), error: Number(row.error) }]));
}
