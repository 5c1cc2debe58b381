import { describe, expect, it } from 'vitest';
import { catalogueReservoirs, catalogueStations, referenceReservoirs, referenceStations } from '../../../lib/model/index.js';

const sortedNames = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('referenceReservoirs', () => {
  it('embeds the 67 reservoirs of the reference list with consistent sizes', () => {
    expect(referenceReservoirs).toHaveLength(67);
    const alice = referenceReservoirs.find((r) => r.name === 'LAKE ALICE');
    expect(alice).toMatchObject({ state: 'NE', fullAreaM2: 4557804, elevM: 1275 });
    for (const r of referenceReservoirs) expect(r.capacityM3 / r.fullAreaM2).toBeLessThan(r.maxDepthM); // mean depth < max depth
  });
});

describe('referenceStations', () => {
  it('embeds the 27 stations, each tied to a known reservoir or to none', () => {
    expect(referenceStations).toHaveLength(27);
    const names = new Set(referenceReservoirs.map((r) => r.name));
    for (const s of referenceStations) {
      expect(s.name.endsWith('_STATION')).toBe(true);
      if (s.reservoir !== null) expect(names.has(s.reservoir)).toBe(true);
    }
    expect(referenceStations.filter((s) => s.reservoir === null).map((s) => s.name)).toEqual(['HERMISTON_STATION', 'KIMBERLY_STATION']);
  });
});

describe('catalogueReservoirs', () => {
  it('gives 247 unique sorted names including every real reservoir', () => {
    const list = catalogueReservoirs(247, 42);
    const names = list.map((r) => r.name);
    expect(list).toHaveLength(247);
    expect(new Set(names).size).toBe(247);
    expect(names).toEqual(sortedNames(names));
    for (const real of referenceReservoirs) expect(list).toContainEqual(real);
  });

  it('generates plausible western reservoirs with consistent sizes', () => {
    const real = new Set(referenceReservoirs.map((r) => r.name));
    const generated = catalogueReservoirs(247, 42).filter((r) => !real.has(r.name));
    expect(generated).toHaveLength(180);
    for (const r of generated) {
      expect(r.name).toMatch(/^[A-Z][A-Z ]+(RESERVOIR|LAKE)( NO \d+)?$/);
      expect(r.lat).toBeGreaterThan(31);
      expect(r.lat).toBeLessThan(49.5);
      expect(r.lon).toBeGreaterThan(-125);
      expect(r.lon).toBeLessThan(-98);
      expect(r.elevM).toBeGreaterThan(0);
      expect(r.elevM).toBeLessThan(3300);
      const meanDepth = r.capacityM3 / r.fullAreaM2;
      expect(meanDepth).toBeGreaterThan(0.5);
      expect(meanDepth).toBeLessThan(r.maxDepthM);
    }
  });

  it('keeps generated reservoirs when the count grows, and depends on the seed', () => {
    const small = catalogueReservoirs(100, 7);
    const large = catalogueReservoirs(247, 7);
    for (const r of small) expect(large).toContainEqual(r);
    expect(catalogueReservoirs(247, 7)).toEqual(large);
    const other = catalogueReservoirs(247, 8).map((r) => r.name);
    expect(other).not.toEqual(large.map((r) => r.name));
  });

  it('takes reference reservoirs only when the count is at most 67', () => {
    const list = catalogueReservoirs(10, 1);
    expect(list).toHaveLength(10);
    expect(list[0]!.name).toBe('ABIQUIU LAKE');
    expect(catalogueReservoirs(67, 1)).toEqual(catalogueReservoirs(67, 2));
  });
});

describe('catalogueStations', () => {
  it('extends the real stations with stations at the given reservoirs', () => {
    const reservoirs = catalogueReservoirs(247, 3);
    const stations = catalogueStations(60, reservoirs, 3);
    const names = stations.map((s) => s.name);
    expect(stations).toHaveLength(60);
    expect(new Set(names).size).toBe(60);
    expect(names).toEqual(sortedNames(names));
    for (const real of referenceStations) expect(stations).toContainEqual(real);
    const reservoirNames = new Set(reservoirs.map((r) => r.name));
    for (const s of stations) {
      expect(s.name.endsWith('_STATION')).toBe(true);
      expect(['buoy', 'eddy-covariance', 'raft', 'shore-weather', 'pan']).toContain(s.type);
      if (s.reservoir !== null) expect(reservoirNames.has(s.reservoir)).toBe(true);
    }
    expect(catalogueStations(60, reservoirs, 3)).toEqual(stations);
  });
});
