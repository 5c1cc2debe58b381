// Where a store's numbers come from: its provenance and how to cite it, kept in the manifest and carried by every
// snapshot, so an answer can always say whether it is synthetic, mirrored or loaded from files.
import { relative } from 'node:path';

/** What kind of data a store holds. */
export const dataKinds = ['synthetic', 'mirror', 'ingested', 'unknown'] as const;
export type DataKind = (typeof dataKinds)[number];

/** A store's provenance and citation. */
export interface StoreAbout {
  data: DataKind;
  title: string;
  description?: string; // what the data are, in a sentence or two (a database's line in GET /databases)
  source: string; // the URL the data came from, or SYNTHETIC_SOURCE
  retrieved?: string; // ISO time of a mirror's last fetch from its source
  model?: string; // the model (and its version when known) that made the values
  licence: string;
  citation: string;
  status?: string; // what the source says of the data's standing (the public service: provisional)
  dayTimeZone: string; // the time zone in which a "day" of the data begins and ends
}

/** The source of a store made by the seeded generator. */
export const SYNTHETIC_SOURCE = 'synthetic, seeded model';

/** The public OperEvap service, whose FAQ ("How do I cite this dataset?") and methods pages are quoted here. */
export const OPEREVAP_URL = 'https://operevap.dri.edu';

/** What a mirror of the public service repeats from its documentation (samapriya/evap-docs, docs/faq.md and docs/methods.md). */
export const operEvapAbout = {
  title: 'Reservoir Evaporation API (OperEvap), Open Water Evaporation Network, Desert Research Institute and Bureau of Reclamation',
  model: 'Daily Lake Evaporation Model (DLEM), Penman-based, forced by gridded daily weather (RTMA); version not published by the source',
  licence: 'not stated by the source; see its documentation before redistributing',
  citation:
    'Reservoir Evaporation API (OperEvap), Desert Research Institute and Bureau of Reclamation, https://operevap.dri.edu. Related: Zhao, G., & Gao, H. (2019). Estimating reservoir evaporation losses for the United States: Fusing remote sensing and modeling approaches. Remote Sensing of Environment, 226, 109-124. Zhao, B., Huntington, J., Pearson, C., Zhao, G., Ott, T., Zhu, J., et al., & Gao, H. (2024). Developing a general Daily Lake Evaporation Model and demonstrating its application in the state of Texas. Water Resources Research, 60(3), e2023WR036181.',
  status:
    'The source says: evaporation data should be considered provisional and not used for operational support or decision making; the last two months are revised daily (Early, Provisional and Final flags).',
  dayTimeZone: 'as the source defines its days (not stated in its documentation)',
} as const;

/** The Texas database of the Open Water Evaporation Network: its API's address and what its documentation says
 * (openwaterevap/evap-docs, docs/databases/twdb_db.md and docs/overview.md). */
export const TWDB_URL = 'https://twdb.dri.edu';

export const twdbAbout = {
  title:
    'Texas Reservoir Evaporation API, Open Water Evaporation Network, Desert Research Institute, Texas Water Development Board and U.S. Army Corps of Engineers',
  description:
    'Daily, near-real-time evaporation estimates for major Texas water-supply reservoirs, made with the Daily Lake Evaporation Model (DLEM) forced by RTMA (gridMET bias-corrected to RTMA before 2016), with reservoir area, volume and depth from TWDB.',
  model: 'Daily Lake Evaporation Model (DLEM), forced by RTMA from 2016 and bias-corrected gridMET for 1980-2015; version not published by the source',
  licence: 'not stated by the source; see its documentation before redistributing',
  citation:
    'Texas Reservoir Evaporation API, Desert Research Institute, Texas Water Development Board and U.S. Army Corps of Engineers, https://twdb.dri.edu. Zhao, B., Huntington, J., Pearson, C., Zhao, G., Ott, T., Zhu, J., et al., & Gao, H. (2024). Developing a general Daily Lake Evaporation Model and demonstrating its application in the state of Texas. Water Resources Research, 60(3), e2023WR036181.',
  status: 'The source says: OWEN is in beta; its estimates are research-level products to be reviewed before operational use.',
  dayTimeZone: 'as the source defines its days (not stated in its documentation)',
} as const;

/** The provenance of a store made by the seeded generator (the demo store, `evap generate`). */
export function syntheticAbout(seed: number): StoreAbout {
  return {
    data: 'synthetic',
    title: `evap synthetic store (seed ${seed}): real reservoir and station names, values made by a model, NOT OperEvap data`,
    description:
      'Daily evaporation estimates made by the seeded model for real Reclamation reservoir and station names; the values describe no real reservoir.',
    source: SYNTHETIC_SOURCE,
    model: `the evap package's seeded generator (lib/model): Penman-type daily lake evaporation with heat storage, area-capacity curves, seasonal weather`,
    licence: 'MIT (the evap package); the values describe no real reservoir',
    citation: 'Synthetic values for trying the software only; do not cite them as observations or estimates of any reservoir.',
    dayTimeZone: 'UTC',
  };
}

/** The provenance of the Texas-like demo store: Texas reservoir names, the seeded model's values. */
export function texasDemoAbout(seed: number): StoreAbout {
  return {
    ...syntheticAbout(seed),
    title: `evap synthetic Texas-like store (seed ${seed}): real Texas reservoir names, values made by a model, NOT Texas Reservoir Evaporation data`,
    description: `Shaped like the Texas database of the Open Water Evaporation Network (${TWDB_URL}/docs): daily evaporation estimates for 30 major Texas water-supply reservoirs, here made by the seeded model from approximate public facts (location, area, capacity); the values describe no real reservoir.`,
  };
}

/** The provenance of a mirror of `baseUrl`, retrieved at `retrieved`: the public service's citation when it is the source. */
export function mirrorAbout(baseUrl: string, retrieved: string, previous?: StoreAbout): StoreAbout {
  const host = new URL(baseUrl).host;
  if (host === new URL(OPEREVAP_URL).host) return { data: 'mirror', source: baseUrl, retrieved, ...operEvapAbout };
  if (host === new URL(TWDB_URL).host) return { data: 'mirror', source: baseUrl, retrieved, ...twdbAbout };
  // another evap server: repeat what it says of its own data; a copy of synthetic data stays synthetic
  if (previous?.data === 'synthetic') {
    const title = previous.title.includes(baseUrl) ? previous.title : `${previous.title}; copied from ${baseUrl}`;
    return { ...previous, retrieved, title };
  }
  const kept = previous?.data === 'unknown' ? undefined : previous;
  return {
    data: 'mirror',
    title: kept?.title ?? `a copy of the server at ${baseUrl}`,
    description: kept?.description,
    source: baseUrl,
    retrieved,
    model: kept?.model,
    licence: kept?.licence ?? 'as the source server states',
    citation: kept?.citation ?? `Data retrieved from ${baseUrl} on ${retrieved.slice(0, 10)}; cite the source's own publication.`,
    status: kept?.status,
    dayTimeZone: kept?.dayTimeZone ?? 'as the source defines its days',
  };
}

/** The provenance of a store first loaded from files by `evap ingest`, naming them; what else is known, its maker adds. */
export function ingestedAbout(files: readonly string[], loaded: string): StoreAbout {
  const named = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
  return {
    data: 'ingested',
    title: `loaded from files by evap ingest: ${named}`,
    source: `files: ${named}`,
    retrieved: loaded,
    licence: "as the files' source states (not recorded by evap ingest)",
    citation: "cite the files' source; evap ingest records only the file names and the time they were loaded",
    dayTimeZone: "as the files' source defines its days",
  };
}

/** What a store without provenance (written before it was recorded) is described as. */
export const unknownAbout: StoreAbout = {
  data: 'unknown',
  title: 'a store whose provenance was not recorded',
  source: 'unknown',
  licence: 'unknown',
  citation: 'unknown: the store was written without provenance; ask whoever made it',
  dayTimeZone: 'unknown',
};

/** The provenance as key/value rows (`field`, `value`), in a fixed order, for tables, CSV and Parquet metadata. */
export function aboutEntries(about: StoreAbout): [string, string][] {
  const order: (keyof StoreAbout)[] = ['data', 'title', 'description', 'source', 'retrieved', 'model', 'licence', 'citation', 'status', 'dayTimeZone'];
  return order.filter((k) => about[k] !== undefined).map((k) => [k, String(about[k])]);
}

/** The line said on stderr when no store was named and the synthetic demo store answers instead. */
export function demoFallbackNote(dir: string): string {
  // relative to where the user is: short, and a notebook saved with this line in its output names no machine's folders
  const where = relative(process.cwd(), dir) || '.';
  return `evap: no store given, answering from the demo store at ${where}: SYNTHETIC values (real names, made-up numbers), not OperEvap data; give a store (--store DIR, openStore(DIR)) for real data`;
}

/** The provenance as key/value metadata of a Parquet or Arrow answer: `evap.synthetic` (`true` or `false`, for a
 * reader that checks one key), then `evap.data`, `evap.title`, ..., `evap.citation`. */
export function aboutMetadata(about: StoreAbout): Map<string, string> {
  const synthetic: [string, string] = ['evap.synthetic', String(about.data === 'synthetic')];
  return new Map([synthetic, ...aboutEntries(about).map(([field, value]): [string, string] => [`evap.${field}`, value])]);
}
