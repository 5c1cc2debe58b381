// Thirty real Texas reservoirs with approximate public facts (location of the dam or lake, conservation-pool elevation,
// surface area and capacity as commonly published, maximum depth rounded): realistic inputs for the Texas-like demo
// database, NOT survey values. Areas and capacities were converted from acres and acre-feet and rounded to 3 digits.
import type { ReservoirSpec } from './reference.js';

// [name, lat, lon, full-pool elevation m, surface area m2, maximum depth m, capacity m3]
const rows: [string, number, number, number, number, number, number][] = [
  ['AMISTAD RESERVOIR', 29.45, -101.06, 340, 263e6, 66, 4.04e9],
  ['BELTON LAKE', 31.11, -97.48, 181, 49.1e6, 38, 5.34e8],
  ['CANYON LAKE', 29.87, -98.2, 277, 33.3e6, 38, 4.66e8],
  ['CEDAR CREEK RESERVOIR', 32.18, -96.07, 98, 132e6, 16, 7.95e8],
  ['CHOKE CANYON RESERVOIR', 28.48, -98.25, 67, 105e6, 29, 8.18e8],
  ['E V SPENCE RESERVOIR', 31.9, -100.52, 579, 59.2e6, 27, 6.38e8],
  ['FALCON RESERVOIR', 26.56, -99.16, 92, 339e6, 34, 3.27e9],
  ['HUBBARD CREEK RESERVOIR', 32.83, -98.96, 361, 61.7e6, 18, 3.92e8],
  ['LAKE BUCHANAN', 30.75, -98.42, 311, 90.4e6, 40, 1.09e9],
  ['LAKE CONROE', 30.36, -95.56, 61, 81.4e6, 21, 5.07e8],
  ['LAKE CORPUS CHRISTI', 28.06, -97.87, 29, 73.9e6, 18, 3.17e8],
  ['LAKE FORK RESERVOIR', 32.8, -95.55, 123, 112e6, 21, 7.46e8],
  ['LAKE LEWISVILLE', 33.07, -96.96, 159, 120e6, 20, 7.89e8],
  ['LAKE LIVINGSTON', 30.63, -95.02, 40, 337e6, 23, 2.15e9],
  ['LAKE MEREDITH', 35.72, -101.55, 895, 66.4e6, 30, 6.2e8],
  ['LAKE O THE PINES', 32.76, -94.5, 70, 68.5e6, 15, 2.98e8],
  ['LAKE PALESTINE', 32.18, -95.47, 105, 103e6, 17, 5.04e8],
  ['LAKE RAY HUBBARD', 32.8, -96.5, 133, 92e6, 12, 5.58e8],
  ['LAKE RAY ROBERTS', 33.36, -97.01, 193, 119e6, 32, 9.86e8],
  ['LAKE TAWAKONI', 32.84, -95.92, 133, 149e6, 21, 1.1e9],
  ['LAKE TEXANA', 28.89, -96.55, 13, 39.4e6, 12, 1.99e8],
  ['LAKE TEXOMA', 33.82, -96.57, 188, 302e6, 30, 3.1e9],
  ['LAKE TRAVIS', 30.39, -97.91, 208, 75.4e6, 64, 1.35e9],
  ['LAKE WHITNEY', 31.87, -97.37, 162, 94e6, 34, 6.84e8],
  ['O H IVIE RESERVOIR', 31.49, -99.67, 473, 77.5e6, 36, 6.84e8],
  ['POSSUM KINGDOM LAKE', 32.87, -98.42, 305, 67.6e6, 44, 6.64e8],
  ['RICHLAND CHAMBERS RESERVOIR', 31.96, -96.13, 96, 167e6, 23, 1.4e9],
  ['SAM RAYBURN RESERVOIR', 31.06, -94.11, 50, 463e6, 30, 3.55e9],
  ['STILLHOUSE HOLLOW LAKE', 31.02, -97.53, 190, 26.2e6, 35, 2.77e8],
  ['TOLEDO BEND RESERVOIR', 31.17, -93.57, 52, 735e6, 34, 5.52e9],
];

/** The Texas reservoirs the Texas-like demo database models, sorted by name. */
export const texasReservoirs: readonly ReservoirSpec[] = rows.map(([name, lat, lon, elevM, fullAreaM2, maxDepthM, capacityM3]) => ({
  name,
  state: 'TX',
  lat,
  lon,
  elevM,
  fullAreaM2,
  maxDepthM,
  capacityM3,
}));
