import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { filterPointsByShapefile, maxPrjBytes, type Polygons, parseShapefile, pointInPolygons } from '../../../lib/spatial/within.js';
import type { NamedPoint, ShapefileParts } from '../../../lib/types.js';

const dir = new URL('../../fixtures/shapefiles/', import.meta.url);
type Ring = [number, number][];

function readFixture(name: string): Record<'shp' | 'dbf' | 'prj' | 'shx', Uint8Array> {
  const read = (ext: string) => new Uint8Array(readFileSync(new URL(`${name}/${name}.${ext}`, dir)));
  return { shp: read('shp'), dbf: read('dbf'), prj: read('prj'), shx: read('shx') };
}

// The demo reservoirs and stations (copied from the reference CSVs): NAME,LAT,LON.
const points: NamedPoint[] = readFileSync(new URL('points.csv', dir), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [name, lat, lon] = line.split(',');
    return { name: name!, lat: Number(lat), lon: Number(lon) };
  });

// Expected sets, listed by hand from the coordinates.
const colorado = [
  'BLUE MESA RESERVOIR',
  'CARTER LAKE',
  'HORSETOOTH RESERVOIR',
  'LAKE ESTES',
  'LAKE GRANBY',
  'MCPHEE RESERVOIR',
  'MORROW POINT RESERVOIR',
  'PUEBLO RESERVOIR',
  'RUEDI RESERVOIR',
  'SHADOW MOUNTAIN RESERVOIR',
  'TURQUOISE LAKE',
  'BLUE MESA_STATION',
  'CARTER LAKE_STATION',
  'LAKE GRANBY_STATION',
  'OLYMPUS DAM_STATION',
  'RUEDI DAM_STATION',
];
// Box around Mead, Mohave and Havasu with a hole around LAKE MOHAVE (35.20) but not LAKE MOHAVE_STATION (35.49); box around Powell.
const lowerColorado = [
  'LAKE HAVASU',
  'LAKE MEAD',
  'LAKE POWELL',
  'BLW_STATION',
  'LAKE HAVASU_STATION',
  'LAKE MEAD_STATION',
  'LAKE MOHAVE_STATION',
  'LAKE POWELL_STATION',
];

// Writes a Polygon (type 5) .shp: one record per entry, each a list of rings (closed here).
function writeShp(records: Ring[][]): Uint8Array {
  const contents = records.map((rings) => {
    const closed = rings.map((ring) => [...ring, ring[0]!]);
    const count = closed.reduce((n, ring) => n + ring.length, 0);
    const view = new DataView(new ArrayBuffer(44 + 4 * closed.length + 16 * count));
    view.setInt32(0, 5, true);
    view.setInt32(36, closed.length, true);
    view.setInt32(40, count, true);
    let index = 0;
    closed.forEach((ring, p) => {
      view.setInt32(44 + 4 * p, index, true);
      for (const [x, y] of ring) {
        view.setFloat64(44 + 4 * closed.length + 16 * index, x, true);
        view.setFloat64(52 + 4 * closed.length + 16 * index, y, true);
        index++;
      }
    });
    return new Uint8Array(view.buffer);
  });
  const length = contents.reduce((n, c) => n + 8 + c.length, 100);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  view.setInt32(0, 9994);
  view.setInt32(24, length / 2);
  view.setInt32(28, 1000, true);
  view.setInt32(32, 5, true);
  let offset = 100;
  contents.forEach((content, i) => {
    view.setInt32(offset, i + 1);
    view.setInt32(offset + 4, content.length / 2);
    out.set(content, offset + 8);
    offset += 8 + content.length;
  });
  return out;
}

// Reference: winding number (Sunday), independent of the even-odd ray casting under test.
function windingNumber(ring: Ring, x: number, y: number): number {
  let wn = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[(i + 1) % ring.length]!;
    const left = (bx - ax) * (y - ay) - (x - ax) * (by - ay);
    if (ay <= y) {
      if (by > y && left > 0) wn++;
    } else if (by <= y && left < 0) wn--;
  }
  return wn;
}

function distanceToRing(ring: Ring, x: number, y: number): number {
  let best = Infinity;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[(i + 1) % ring.length]!;
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    best = Math.min(best, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
  }
  return best;
}

// A star-shaped simple polygon: at least 5 vertices, angular gaps under 0.6 pi, so its edges stay 0.29 r from the centre.
const starRing = (cx: number, cy: number, rMin: number, rMax: number) =>
  fc
    .array(fc.record({ jitter: fc.double({ min: 0, max: 0.5, noNaN: true }), r: fc.double({ min: rMin, max: rMax, noNaN: true }) }), {
      minLength: 5,
      maxLength: 40,
    })
    .chain((vertices) =>
      fc.boolean().map((reverse) => {
        const ring: Ring = vertices.map(({ jitter, r }, k) => {
          const a = (2 * Math.PI * (k + jitter)) / vertices.length;
          return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
        });
        return reverse ? ring.reverse() : ring;
      }),
    );

const starWithHole = fc.record({ cx: fc.double({ min: -150, max: -60, noNaN: true }), cy: fc.double({ min: 20, max: 60, noNaN: true }) }).chain(({ cx, cy }) =>
  fc.record({
    outer: starRing(cx, cy, 0.5, 5),
    hole: fc.option(starRing(cx, cy, 0.02, 0.25)),
    points: fc
      .array(fc.tuple(fc.double({ min: -6, max: 6, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true })), {
        maxLength: 30,
      })
      .map((offsets) => offsets.map(([dx, dy]): [number, number] => [cx + dx, cy + dy])),
  }),
);

describe('filterPointsByShapefile', () => {
  it.each(['colorado_wgs84', 'colorado_albers', 'colorado_utm13n', 'colorado_polygonz'])('finds the Colorado points in %s', async (name) => {
    expect(await filterPointsByShapefile(readFixture(name), points)).toEqual(colorado);
  });

  it('handles a multipolygon with a hole', async () => {
    expect(await filterPointsByShapefile(readFixture('lower_colorado_multi'), points)).toEqual(lowerColorado);
  });

  it('returns nothing for a polygon containing no point', async () => {
    expect(await filterPointsByShapefile(readFixture('pacific_empty'), points)).toEqual([]);
  });

  it('finds every point in a polygon of 20,000 vertices', async () => {
    const inCircle = points.filter((p) => Math.hypot(p.lon + 111, p.lat - 41) < 16).map((p) => p.name);
    expect(inCircle).toHaveLength(points.length);
    expect(await filterPointsByShapefile(readFixture('west_circle'), points)).toEqual(inCircle);
  });

  it('keeps the input order', async () => {
    const reversed = [...points].reverse();
    expect(await filterPointsByShapefile(readFixture('colorado_wgs84'), reversed)).toEqual([...colorado].reverse());
  });

  it('reads the .shp alone as WGS84 and accepts ArrayBuffers', async () => {
    const { shp } = readFixture('colorado_wgs84');
    const buffer = new ArrayBuffer(shp.length);
    new Uint8Array(buffer).set(shp);
    expect(await filterPointsByShapefile({ shp: buffer }, points)).toEqual(colorado);
  });

  it('gives the same answer for either ring orientation, also mixed in one record', async () => {
    const box = (w: number, s: number, e: number, n: number): Ring => [
      [w, s],
      [w, n],
      [e, n],
      [e, s],
    ]; // clockwise
    const flip = (ring: Ring, reverse: boolean) => (reverse ? [...ring].reverse() : ring);
    for (let mask = 0; mask < 8; mask++) {
      const rings = [
        flip(box(-115.2, 33.9, -113.8, 36.5), (mask & 1) > 0),
        flip(box(-114.9, 35.0, -114.3, 35.4), (mask & 2) > 0),
        flip(box(-112.0, 36.6, -111.0, 37.4), (mask & 4) > 0),
      ];
      expect(await filterPointsByShapefile({ shp: writeShp([rings]) }, points)).toEqual(lowerColorado);
    }
  });
});

describe('parseShapefile', () => {
  let projected: Record<string, Polygons>;
  beforeAll(async () => {
    const names = ['colorado_wgs84', 'colorado_albers', 'colorado_utm13n', 'west_circle'];
    projected = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await parseShapefile(readFixture(n))])));
  });

  it('gives the same answer in every projection away from the edges', () => {
    const edge = 0.02; // degrees; the projected edges bend by much less between the 0.01-degree vertices
    const point = fc
      .tuple(fc.double({ min: -111, max: -100, noNaN: true }), fc.double({ min: 35, max: 43, noNaN: true }))
      .filter(([lon, lat]) => Math.min(Math.abs(lon + 109.05), Math.abs(lon + 102.05), Math.abs(lat - 37), Math.abs(lat - 41)) > edge);
    fc.assert(
      fc.property(point, ([lon, lat]) => {
        const inBox = lon > -109.05 && lon < -102.05 && lat > 37 && lat < 41;
        for (const name of ['colorado_wgs84', 'colorado_albers', 'colorado_utm13n']) {
          expect(pointInPolygons(projected[name]!, lon, lat), name).toBe(inBox);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with distance to the centre for the 20,000-vertex circle', () => {
    const point = fc
      .tuple(fc.double({ min: -130, max: -90, noNaN: true }), fc.double({ min: 22, max: 60, noNaN: true }))
      .filter(([lon, lat]) => Math.abs(Math.hypot(lon + 111, lat - 41) - 16) > 1e-4);
    fc.assert(
      fc.property(point, ([lon, lat]) => pointInPolygons(projected.west_circle!, lon, lat) === Math.hypot(lon + 111, lat - 41) < 16),
      { numRuns: 500 },
    );
  });

  it('reads polygons with holes in either orientation like the winding-number reference', async () => {
    await fc.assert(
      fc.asyncProperty(starWithHole, async ({ outer, hole, points: pts }) => {
        const polygons = await parseShapefile({ shp: writeShp([hole ? [outer, hole] : [outer]]) });
        for (const [x, y] of pts) {
          fc.pre(distanceToRing(outer, x, y) > 1e-9 && (!hole || distanceToRing(hole, x, y) > 1e-9));
          const inside = windingNumber(outer, x, y) !== 0 && (!hole || windingNumber(hole, x, y) === 0);
          expect(pointInPolygons(polygons, x, y)).toBe(inside);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('pointInPolygons', () => {
  const square: Ring = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
    [0, 0],
  ];
  const hole: Ring = [
    [4, 4],
    [4, 6],
    [6, 6],
    [6, 4],
    [4, 4],
  ];
  const polygons: Polygons = [{ rings: [new Float64Array(square.flat()), new Float64Array(hole.flat())], bbox: [0, 0, 10, 10] }];

  it('counts a point exactly on an edge or vertex as inside, also on a hole', () => {
    for (const [x, y] of [
      [5, 0],
      [10, 5],
      [0, 0],
      [10, 10],
      [0, 7.5],
      [4, 5],
      [5, 6],
      [6, 6],
    ] as const) {
      expect(pointInPolygons(polygons, x, y), `${x},${y}`).toBe(true);
    }
    for (const [x, y] of [
      [5, -1e-9],
      [10 + 1e-9, 5],
      [5, 5],
      [4 + 1e-9, 5],
      [-1, 5],
    ] as const) {
      expect(pointInPolygons(polygons, x, y), `${x},${y}`).toBe(false);
    }
  });

  it('counts a point on the edge of a real fixture as inside', async () => {
    const polygons = await parseShapefile(readFixture('colorado_wgs84'));
    expect(pointInPolygons(polygons, -105, 37)).toBe(true);
    expect(pointInPolygons(polygons, -109.05, 41)).toBe(true);
    expect(pointInPolygons(polygons, -105, 37 - 1e-9)).toBe(false);
  });

  it('returns false for NaN coordinates', () => {
    expect(pointInPolygons(polygons, NaN, 5)).toBe(false);
  });

  it('never excludes an inside point by the bounding box', async () => {
    await fc.assert(
      fc.asyncProperty(starWithHole, async ({ outer, hole, points: pts }) => {
        const polygons = await parseShapefile({ shp: writeShp([hole ? [outer, hole] : [outer]]) });
        const unbounded = polygons.map((p) => ({ ...p, bbox: [-Infinity, -Infinity, Infinity, Infinity] as [number, number, number, number] }));
        for (const [x, y] of pts) expect(pointInPolygons(polygons, x, y)).toBe(pointInPolygons(unbounded, x, y));
      }),
      { numRuns: 200 },
    );
  });
});

describe('parseShapefile errors', () => {
  async function expectError(parts: ShapefileParts, parameter: string, message: RegExp): Promise<void> {
    const error = await parseShapefile(parts).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).toMatchObject({ parameter, reason: 'malformed' });
    expect((error as Error).message).toMatch(message);
  }
  const colo = () => readFixture('colorado_wgs84');
  const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0]);
  const withInt = (bytes: Uint8Array, offset: number, value: number, little: boolean) => {
    const copy = bytes.slice();
    new DataView(copy.buffer).setInt32(offset, value, little);
    return copy;
  };

  it('throws error for parts without a .shp', async () => {
    const { dbf, prj, shx } = colo();
    await expectError({ dbf, prj, shx }, 'shapefile_shp', /\.shp is missing/);
  });

  it.each(['shp', 'dbf', 'prj', 'shx'] as const)('throws error for an empty .%s', async (ext) => {
    await expectError({ ...colo(), [ext]: new Uint8Array(0) }, `shapefile_${ext}`, /empty file/);
  });

  it.each(['shp', 'dbf', 'prj', 'shx'] as const)('throws error for a zip sent as the .%s', async (ext) => {
    await expectError({ ...colo(), [ext]: zip }, `shapefile_${ext}`, /zip.*send the four parts/);
  });

  it('throws error for a truncated or garbage .shp', async () => {
    const { shp } = colo();
    await expectError({ shp: shp.slice(0, 60) }, 'shapefile_shp', /truncated.*100-byte header/);
    await expectError({ shp: shp.slice(0, shp.length - 10) }, 'shapefile_shp', /truncated: the header declares/);
    const longer = new Uint8Array(shp.length + 2);
    longer.set(shp);
    await expectError({ shp: longer }, 'shapefile_shp', /trailing bytes/);
    await expectError({ shp: withInt(shp, 0, 1234, false) }, 'shapefile_shp', /not a shapefile.*9994/);
    await expectError({ shp: withInt(shp, 28, 999, true) }, 'shapefile_shp', /version 999/);
    await expectError({ shp: withInt(shp, 100 + 8 + 40, 1e8, true) }, 'shapefile_shp', /record 1 declares 1 parts and 100000000 points/);
    await expectError({ shp: withInt(shp, 100 + 4, 1e6, false) }, 'shapefile_shp', /record 1 declares 2000000 bytes/);
    const nan = shp.slice();
    new DataView(nan.buffer).setFloat64(100 + 8 + 48, NaN, true);
    await expectError({ shp: nan }, 'shapefile_shp', /non-finite coordinate/);
  });

  it('throws error or parses, never anything else, for random bytes', async () => {
    const { shp } = colo();
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(shp.length - 1), fc.integer({ min: 0, max: 255 }))),
        async (garbage, flips) => {
          const corrupt = shp.slice();
          for (const [i, byte] of flips) corrupt[i] = byte;
          for (const bytes of [garbage, corrupt]) {
            await parseShapefile({ shp: bytes }).catch((e: unknown) => expect(e).toBeInstanceOf(InvalidParameterError));
          }
        },
      ),
    );
  });

  it('throws error for a point or line shapefile', async () => {
    await expectError(readFixture('points_wgs84'), 'shapefile_shp', /shape type Point \(1\).*only polygon/);
    await expectError(readFixture('lines_wgs84'), 'shapefile_shp', /shape type PolyLine \(3\).*only polygon/);
  });

  it('throws error for a shapefile with no polygons', async () => {
    const header = withInt(colo().shp.slice(0, 100), 24, 50, false);
    await expectError({ shp: header }, 'shapefile_shp', /contains no polygons/);
  });

  it('throws error for a .dbf that does not match', async () => {
    await expectError({ ...colo(), dbf: readFixture('points_wgs84').dbf }, 'shapefile_dbf', /does not match.*2 rows.*1 shapes/);
    const { dbf } = colo();
    await expectError({ ...colo(), dbf: dbf.slice(0, dbf.length - 20) }, 'shapefile_dbf', /truncated/);
    await expectError({ ...colo(), dbf: dbf.slice(0, 20) }, 'shapefile_dbf', /truncated/);
  });

  it('throws error for a .shx that does not match', async () => {
    await expectError({ ...colo(), shx: readFixture('points_wgs84').shx }, 'shapefile_shx', /does not match.*2 records.*1/);
    await expectError({ ...colo(), shx: readFixture('pacific_empty').shx }, 'shapefile_shx', /does not match.*record 1/);
    await expectError({ ...colo(), shx: colo().shx.slice(0, 104) }, 'shapefile_shx', /truncated/);
  });

  it('throws error for an unknown or malformed projection', async () => {
    const text = (s: string) => new TextEncoder().encode(s);
    const unknown = readFileSync(new URL('colorado_utm13n/colorado_utm13n.prj', dir), 'utf8').replace('Transverse_Mercator', 'No_Such_Projection');
    await expectError({ ...colo(), prj: text('garbage') }, 'shapefile_prj', /unknown or malformed projection/);
    await expectError({ ...colo(), prj: text('PROJCS["x",GEOGCS["y"]]') }, 'shapefile_prj', /unknown or malformed projection/);
    await expectError({ ...colo(), prj: text('GEOGCS[') }, 'shapefile_prj', /unknown or malformed projection/);
    await expectError({ ...colo(), prj: text(unknown) }, 'shapefile_prj', /unknown or malformed projection/);
    await expectError({ ...readFixture('colorado_utm13n'), prj: colo().prj }, 'shapefile_prj', /does not fit the \.shp/);
    await expectError({ shp: readFixture('colorado_albers').shp }, 'shapefile_prj', /missing.*send the \.prj/);
  });
});

describe('parseShapefile bounds', () => {
  it('refuses a .prj over the WKT bound before parsing it', async () => {
    const wkt = readFileSync(new URL('colorado_albers/colorado_albers.prj', dir), 'utf8').trim();
    const pad = ',PARAMETER["x",1]'; // proj4 reads it, and took 7.8 s on 38 MiB of them
    const padded = (bytes: number) => new TextEncoder().encode(wkt.replace(/\]$/, `${pad.repeat(Math.ceil((bytes - wkt.length) / pad.length))}]`));
    const parts = { ...readFixture('colorado_albers'), prj: padded(maxPrjBytes + 1) };
    await expect(parseShapefile(parts)).rejects.toMatchObject({
      parameter: 'shapefile_prj',
      message: expect.stringMatching(/is \d+ bytes: a projection's WKT is at most 65536 bytes/),
    });
    expect(await parseShapefile({ ...parts, prj: padded(maxPrjBytes - pad.length) })).toHaveLength(1); // under it: read as before
  });

  it('lets the event loop turn while it reprojects a large polygon and tests points against it', async () => {
    const n = 200_000;
    const circle: Ring = Array.from({ length: n }, (_, i) => [-105 + 3 * Math.cos((2 * Math.PI * i) / n), 39 + 3 * Math.sin((2 * Math.PI * i) / n)]);
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const inside = await filterPointsByShapefile({ shp: writeShp([[circle]]) }, points);
    running = false;
    expect(inside).toEqual(points.filter((p) => Math.hypot(p.lon + 105, p.lat - 39) < 3 - 1e-3).map((p) => p.name));
    // all in one piece, no other callback ran before the answer (a 50 MiB .shp held a server for seconds)
    expect(turns).toBeGreaterThan(points.length / 2);
  });
});
