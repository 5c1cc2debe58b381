// reservoirObservationPage against the store's own range answer (records, rounded): pages concatenated in a plain loop
// give exactly the unpaged rows, and a page decodes a page's row groups, not the store's.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDay, parseDay } from '../../../lib/dates.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { ObservationPage } from '../../../lib/query/observations.js';
import { withKeys } from '../../../lib/query/plan.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { roundValue } from '../../../lib/units.js';
import { tempDir } from '../../helpers.js';

const [start, end] = ['2020-12-20', '2021-01-12'];
const ROW_GROUP = 50; // small groups: a name's days straddle them, and a group holds several names
const variables = withKeys(
  [
    { name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' },
    { name: 'E_volume', dataset: 'nete-volume-calcs', unit: 'm3' },
  ],
  'metric',
);

async function makeStore(reservoirs: number): Promise<string> {
  const dir = await tempDir('evap-observations-');
  await generateStore(dir, { reservoirs, stations: 0, start, end, seed: 3, rowGroupSize: ROW_GROUP, byDateDays: 0 });
  return dir;
}

// the rows of a page as [name, day, values rounded as the wire rounds them]
const rowsOf = ({ frame }: ObservationPage) =>
  Array.from(frame.days, (d, i) => [frame.names[i], formatDay(d), ...frame.columns.map((c) => (Number.isNaN(c[i]!) ? null : roundValue(c[i]!)))]);

let small: string;
let large: string;
beforeAll(async () => {
  [small, large] = await Promise.all([makeStore(9), makeStore(120)]);
}, 120_000);

describe('reservoirObservationPage', () => {
  it('pages through any names, days and limit: the pages concatenated are the unpaged answer, counted alike', async () => {
    const store = await openStore(small);
    const names = store.manifest.reservoirs.names;
    const days = [parseDay(start, 'start'), parseDay(end, 'end')] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(names, { minLength: 1 }),
        fc.integer({ min: days[0], max: days[1] }),
        fc.integer({ min: 0, max: days[1] - days[0] }),
        fc.integer({ min: 1, max: 60 }),
        async (asked, from, span, limit) => {
          const [startDay, endDay] = [from, Math.min(days[1], from + span)];
          const records = await store.reservoirTimeseries({
            names: asked,
            datasets: ['nete-volume-calcs'],
            variables: ['NetE', 'E_volume'],
            start: formatDay(startDay),
            end: formatDay(endDay),
          });
          const expected = records.map((r) => [r.RES_NAME, r.start_date, r['NetE (mm)'], r['E_volume (m3)']]);
          const got: unknown[][] = [];
          for (let offset = 0; ; offset += limit) {
            const page = await store.reservoirObservationPage('nete-volume-calcs', { names: asked, startDay, endDay, variables, offset, limit });
            expect(page.matched).toBe(expected.length);
            expect(page.frame.days.length).toBe(Math.max(0, Math.min(limit, expected.length - offset)));
            got.push(...rowsOf(page));
            if (offset + limit >= page.matched) break;
          }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('decodes as many rows for a page of ten in a store of 120 reservoirs as in one of 9, wherever the page is', async () => {
    const decoded = async (dir: string, where: (matched: number) => number) => {
      const probe = await openStore(dir);
      const query = { names: probe.manifest.reservoirs.names, startDay: parseDay(start, 'start'), endDay: parseDay(end, 'end'), variables, limit: 10 };
      const { matched } = await probe.reservoirObservationPage('nete-volume-calcs', { ...query, offset: 0 });
      const store: EvapStore = await openStore(dir); // cold: its own caches
      const page = await store.reservoirObservationPage('nete-volume-calcs', { ...query, offset: where(matched) });
      expect(page.frame.days.length).toBe(10);
      return { rows: store.readStats().rowsDecoded, matched };
    };
    for (const where of [() => 0, (m: number) => Math.floor(m / 2) + 7, (m: number) => m - 10]) {
      const [a, b] = [await decoded(small, where), await decoded(large, where)];
      expect(b.matched).toBeGreaterThan(10 * a.matched);
      // a page reads the row groups holding its rows and, to find where it starts, one or two groups' dates and
      // names in each of the two years' files: a bound on the page, not on the store (120 reservoirs: 2,880 rows)
      const bound = 2 * 3 * ROW_GROUP * (2 + variables.length);
      expect(a.rows).toBeLessThanOrEqual(bound);
      expect(b.rows).toBeLessThanOrEqual(bound);
    }
  });
});
