// The reservoir and station catalogues: the real reference lists, extended with plausible generated places.
import { Random } from './random.js';
import type { ReservoirSpec, StationSpec } from './reference.js';
import { referenceReservoirs, referenceStations } from './reference.js';

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// rough boxes of western states: [state, lat min, lat max, lon min, lon max, elevation min, elevation max]
const regions: readonly (readonly [string, number, number, number, number, number, number])[] = [
  ['AZ', 31.6, 36.8, -114.4, -109.2, 300, 2300],
  ['CA', 34.2, 41.8, -123.0, -118.2, 50, 2200],
  ['CO', 37.1, 40.9, -108.9, -102.3, 1300, 3200],
  ['ID', 42.1, 48.5, -116.9, -111.1, 700, 2100],
  ['MT', 44.6, 48.9, -115.8, -104.2, 700, 2000],
  ['NE', 40.1, 42.9, -103.9, -98.2, 550, 1400],
  ['NM', 32.1, 36.9, -108.9, -103.2, 1000, 2600],
  ['NV', 35.3, 41.9, -119.9, -114.2, 400, 2100],
  ['OR', 42.1, 45.9, -123.2, -117.1, 100, 1800],
  ['UT', 37.1, 41.9, -113.9, -109.2, 1100, 2700],
  ['WA', 45.7, 48.9, -122.4, -117.2, 100, 1400],
  ['WY', 41.1, 44.9, -110.9, -104.2, 1200, 2600],
];

const words = [
  'ANTELOPE',
  'ASPEN',
  'BADGER',
  'BEAR',
  'BEAVER',
  'BIG SAGE',
  'BITTERROOT',
  'BLACK ROCK',
  'BLUE',
  'BOULDER',
  'BUFFALO',
  'CEDAR',
  'CHALK',
  'CLEAR',
  'COAL',
  'COTTONWOOD',
  'COYOTE',
  'CROOKED',
  'DEER',
  'DRY',
  'EAGLE',
  'ELK',
  'FALCON',
  'FOX',
  'GOOSE',
  'GRANITE',
  'GRASSY',
  'GROUSE',
  'HAWK',
  'HORSE',
  'HIGHLINE',
  'JUNIPER',
  'LITTLE',
  'LOST',
  'MEADOW',
  'MESA',
  'MILL',
  'MUD',
  'OTTER',
  'PINE',
  'PINON',
  'RABBIT',
  'RATTLESNAKE',
  'RED',
  'ROCK',
  'SAGE',
  'SALT',
  'SAND',
  'SHEEP',
  'SILVER',
  'SPRING',
  'STONY',
  'SULPHUR',
  'TROUT',
  'TURKEY',
  'WILLOW',
  'WOLF',
  'YELLOW',
  'BIRCH',
  'CANYON',
  'COPPER',
  'CRANE',
  'DUCK',
  'FLAT',
  'IRON',
  'LIMESTONE',
  'OAK',
];
const patterns = ['CREEK RESERVOIR', 'RESERVOIR', 'LAKE', 'FLAT RESERVOIR', 'CANYON RESERVOIR', 'VALLEY RESERVOIR', 'CREEK LAKE', 'DRAW RESERVOIR'];

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const significant = (x: number, figures: number) => {
  const scale = 10 ** (Math.floor(Math.log10(x)) - figures + 1);
  return Math.round(x / scale) * scale;
};

/** The reference reservoirs, extended to `count` with generated ones (the i-th depends only on seed and i), sorted by name. */
export function catalogueReservoirs(count: number, seed: number): ReservoirSpec[] {
  const real = [...referenceReservoirs].sort(byName);
  if (count <= real.length) return real.slice(0, Math.max(0, count));
  const taken = new Set(real.map((r) => r.name));
  const out = [...real];
  for (let i = 0; out.length < count; i++) {
    const rng = new Random(seed, `generated reservoir ${i}`);
    let name = '';
    for (let attempt = 0; attempt < 40 && (name === '' || taken.has(name)); attempt++) {
      name = `${words[Math.floor(rng.uniform() * words.length)]} ${patterns[Math.floor(rng.uniform() * patterns.length)]}`;
    }
    for (let k = 2; taken.has(name); k++) name = `${name.replace(/ NO \d+$/, '')} NO ${k}`;
    taken.add(name);
    const [state, lat0, lat1, lon0, lon1, elev0, elev1] = regions[Math.floor(rng.uniform() * regions.length)]!;
    const area = significant(Math.exp(rng.between(Math.log(3e5), Math.log(1.2e8))), 3);
    const meanDepth = 2 + rng.uniform() ** 1.5 * (6 + 6 * Math.log10(area / 1e5));
    const b = rng.between(0.5, 0.72); // area-capacity exponent: a cone has 2/3
    out.push({
      name,
      state,
      lat: round(rng.between(lat0, lat1), 2),
      lon: round(rng.between(lon0, lon1), 2),
      elevM: Math.round(rng.between(elev0, elev1)),
      fullAreaM2: area,
      maxDepthM: Math.max(Math.ceil(meanDepth) + 1, Math.round(meanDepth / (1 - b))),
      capacityM3: significant(area * meanDepth, 3),
    });
  }
  return out.sort(byName);
}

/** The reference stations, extended to `count` with generated ones at the given reservoirs, sorted by name. */
export function catalogueStations(count: number, reservoirs: readonly ReservoirSpec[], seed: number): StationSpec[] {
  const real = [...referenceStations].sort(byName);
  if (count <= real.length || reservoirs.length === 0) return real.slice(0, Math.max(0, count));
  const taken = new Set(real.map((s) => s.name));
  const out = [...real];
  for (let i = 0; out.length < count; i++) {
    const rng = new Random(seed, `generated station ${i}`);
    const reservoir = reservoirs[Math.floor(rng.uniform() * reservoirs.length)]!;
    const base = reservoir.name.replace(/ (RESERVOIR|LAKE)$/, '');
    let name = `${base}_STATION`;
    for (const suffix of [' DAM', ' NORTH', ' SOUTH', ' EAST', ' WEST']) if (taken.has(name)) name = `${base}${suffix}_STATION`;
    for (let k = 2; taken.has(name); k++) name = `${base} ${k}_STATION`;
    taken.add(name);
    const u = rng.uniform();
    const type: StationSpec['type'] = u < 0.35 ? 'shore-weather' : u < 0.6 ? 'buoy' : u < 0.75 ? 'pan' : u < 0.85 ? 'raft' : 'eddy-covariance';
    const onLake = type === 'buoy' || type === 'raft' || type === 'eddy-covariance';
    out.push({
      name,
      type,
      status: rng.uniform() < 0.2 ? 'inactive' : 'active',
      lat: round(reservoir.lat + rng.between(-0.03, 0.03), 2),
      lon: round(reservoir.lon + rng.between(-0.03, 0.03), 2),
      elevM: Math.round(onLake ? reservoir.elevM - rng.between(0, 15) : reservoir.elevM + rng.between(5, 60)),
      reservoir: reservoir.name,
    });
  }
  return out.sort(byName);
}
