// Real reservoir and station identities with approximate public facts, embedded from ../shared/reference/*.csv
// (see its README: approximate values for realistic demo data, not measurements).

/** A reservoir as the generator models it: location, full-pool elevation, area, maximum depth and capacity. */
export interface ReservoirSpec {
  name: string;
  state: string; // two-letter state of the dam
  lat: number; // decimal degrees, WGS84
  lon: number;
  elevM: number; // full-pool water surface, m above sea level
  fullAreaM2: number; // surface area at full pool
  maxDepthM: number; // approximate maximum depth at full pool
  capacityM3: number; // storage at full pool
}

/** A station as the generator models it; reservoir is null for off-lake weather stations. */
export interface StationSpec {
  name: string; // upper case, ends in _STATION
  type: 'buoy' | 'eddy-covariance' | 'raft' | 'shore-weather' | 'pan';
  status: 'active' | 'inactive';
  lat: number;
  lon: number;
  elevM: number;
  reservoir: string | null; // RES_NAME of the associated reservoir
}

const reservoirRows: [string, string, number, number, number, number, number, number][] = [
  ['ABIQUIU LAKE', 'NM', 36.24, -106.43, 1896, 21000000, 45, 220000000],
  ['AGATE RESERVOIR', 'OR', 42.41, -122.77, 460, 870000, 22, 5900000],
  ['ALCOVA RESERVOIR', 'WY', 42.55, -106.72, 1676, 10000000, 53, 227000000],
  ['AMERICAN FALLS RESERVOIR', 'ID', 42.78, -112.88, 1327, 227000000, 25, 2060000000],
  ['ANDERSON RANCH RESERVOIR', 'ID', 43.36, -115.45, 1279, 19200000, 100, 586000000],
  ['ANGOSTURA RESERVOIR', 'SD', 43.34, -103.44, 971, 18000000, 23, 170000000],
  ['ANITA RESERVOIR', 'MT', 45.89, -108.07, 915, 160000, 9, 490000],
  ['APACHE LAKE', 'AZ', 33.58, -111.26, 583, 10700000, 78, 302000000],
  ['ARROWROCK RESERVOIR', 'ID', 43.6, -115.92, 980, 12500000, 80, 336000000],
  ['BANKS LAKE', 'WA', 47.8, -119.2, 479, 110000000, 54, 1500000000],
  ['BARTLETT LAKE', 'AZ', 33.82, -111.63, 548, 11400000, 50, 220000000],
  ['BIGHORN LAKE', 'MT', 45.31, -107.96, 1109, 70000000, 120, 1600000000],
  ['BLUE MESA RESERVOIR', 'CO', 38.45, -107.34, 2292, 37200000, 104, 1160000000],
  ['BUFFALO BILL RESERVOIR', 'WY', 44.5, -109.18, 1644, 32000000, 70, 800000000],
  ['CANYON FERRY LAKE', 'MT', 46.65, -111.73, 1158, 142000000, 50, 2330000000],
  ['CANYON LAKE', 'AZ', 33.55, -111.44, 506, 3840000, 40, 71400000],
  ['CARTER LAKE', 'CO', 40.33, -105.21, 1755, 4610000, 55, 138000000],
  ['CASCADE RESERVOIR', 'ID', 44.53, -116.05, 1472, 110000000, 26, 850000000],
  ['CEDAR BLUFF RESERVOIR', 'KS', 38.79, -99.78, 653, 27800000, 20, 213000000],
  ['CRANE PRAIRIE RESERVOIR', 'OR', 43.79, -121.78, 1355, 20000000, 6, 68000000],
  ['DEER CREEK RESERVOIR', 'UT', 40.41, -111.53, 1651, 12000000, 40, 188000000],
  ['ELEPHANT BUTTE RESERVOIR', 'NM', 33.15, -107.19, 1343, 150000000, 60, 2500000000],
  ['FLAMING GORGE RESERVOIR', 'UT', 40.91, -109.42, 1841, 170000000, 133, 4670000000],
  ['FOLSOM LAKE', 'CA', 38.71, -121.16, 142, 46300000, 80, 1210000000],
  ['FONTENELLE RESERVOIR', 'WY', 42.03, -110.07, 1983, 32600000, 37, 426000000],
  ['FOSS RESERVOIR', 'OK', 35.57, -99.22, 504, 36000000, 27, 320000000],
  ['FRANKLIN D ROOSEVELT LAKE', 'WA', 47.96, -118.98, 393, 333000000, 115, 11800000000],
  ['HERON LAKE', 'NM', 36.67, -106.7, 2190, 24000000, 60, 500000000],
  ['HORSETOOTH RESERVOIR', 'CO', 40.55, -105.16, 1655, 7690000, 58, 193000000],
  ['HUNGRY HORSE RESERVOIR', 'MT', 48.34, -114.01, 1085, 96100000, 150, 4260000000],
  ['ISLAND PARK RESERVOIR', 'ID', 44.42, -111.39, 1921, 32000000, 20, 170000000],
  ['JORDANELLE RESERVOIR', 'UT', 40.6, -111.42, 1879, 12400000, 86, 395000000],
  ['LAKE ALICE', 'NE', 41.98899, -103.61366, 1275, 4557804, 7, 14000000],
  ['LAKE BERRYESSA', 'CA', 38.51, -122.1, 134, 83800000, 84, 1980000000],
  ['LAKE CACHUMA', 'CA', 34.59, -119.98, 230, 13000000, 50, 240000000],
  ['LAKE ESTES', 'CO', 40.3764, -105.4965, 2278, 964972, 14, 3780000],
  ['LAKE GRANBY', 'CO', 40.15, -105.86, 2524, 29400000, 67, 666000000],
  ['LAKE HAVASU', 'AZ', 34.3, -114.14, 137, 82600000, 27, 799000000],
  ['LAKE MEAD', 'NV', 36.02, -114.74, 375, 640000000, 162, 35000000000],
  ['LAKE MEREDITH', 'TX', 35.72, -101.55, 896, 66000000, 30, 990000000],
  ['LAKE MOHAVE', 'NV', 35.2, -114.57, 197, 115000000, 45, 2240000000],
  ['LAKE PLEASANT', 'AZ', 33.85, -112.27, 519, 40000000, 80, 1000000000],
  ['LAKE POWELL', 'AZ', 36.94, -111.48, 1128, 653000000, 175, 32300000000],
  ['MCPHEE RESERVOIR', 'CO', 37.58, -108.57, 2110, 18100000, 73, 470000000],
  ['MILLERTON LAKE', 'CA', 37, -119.71, 176, 19800000, 85, 642000000],
  ['MORROW POINT RESERVOIR', 'CO', 38.45, -107.54, 2182, 3310000, 120, 145000000],
  ['NAVAJO RESERVOIR', 'NM', 36.8, -107.61, 1855, 63200000, 100, 2110000000],
  ['NEW MELONES LAKE', 'CA', 37.95, -120.53, 332, 50600000, 150, 2960000000],
  ['OWYHEE RESERVOIR', 'OR', 43.64, -117.25, 814, 56000000, 100, 1500000000],
  ['PALISADES RESERVOIR', 'ID', 43.33, -111.21, 1713, 65200000, 70, 1730000000],
  ['PATHFINDER RESERVOIR', 'WY', 42.47, -106.85, 1783, 89000000, 55, 1300000000],
  ['PUEBLO RESERVOIR', 'CO', 38.27, -104.72, 1493, 22900000, 53, 432000000],
  ['RUEDI RESERVOIR', 'CO', 39.36, -106.82, 2367, 4030000, 60, 126000000],
  ['SAGUARO LAKE', 'AZ', 33.57, -111.54, 466, 5120000, 36, 86100000],
  ['SAN LUIS RESERVOIR', 'CA', 37.06, -121.07, 166, 51400000, 90, 2520000000],
  ['SCOFIELD RESERVOIR', 'UT', 39.79, -111.12, 2322, 11000000, 18, 91000000],
  ['SEMINOE RESERVOIR', 'WY', 42.16, -106.91, 1938, 82000000, 60, 1300000000],
  ['SHADOW MOUNTAIN RESERVOIR', 'CO', 40.21, -105.84, 2550, 5500000, 7, 23000000],
  ['SHASTA LAKE', 'CA', 40.72, -122.42, 325, 120000000, 158, 5610000000],
  ['STARVATION RESERVOIR', 'UT', 40.19, -110.45, 1741, 13000000, 45, 210000000],
  ['STRAWBERRY RESERVOIR', 'UT', 40.17, -111.12, 2317, 69000000, 60, 1400000000],
  ['SWANSON LAKE', 'NE', 40.17, -101.06, 839, 20000000, 18, 150000000],
  ['THEODORE ROOSEVELT LAKE', 'AZ', 33.67, -111.16, 656, 87000000, 80, 2000000000],
  ['TRINITY LAKE', 'CA', 40.8, -122.76, 722, 66900000, 130, 3020000000],
  ['TURQUOISE LAKE', 'CO', 39.26, -106.38, 3008, 7200000, 40, 160000000],
  ['WHISKEYTOWN LAKE', 'CA', 40.6, -122.54, 369, 13000000, 80, 297000000],
  ['WICKIUP RESERVOIR', 'OR', 43.68, -121.69, 1322, 45000000, 20, 250000000],
];

const stationRows: [string, StationSpec['type'], StationSpec['status'], number, number, number, string][] = [
  ['ABERDEEN_STATION', 'shore-weather', 'active', 42.95, -112.83, 1341, 'AMERICAN FALLS RESERVOIR'],
  ['ABIQUIU DAM_STATION', 'pan', 'active', 36.24, -106.43, 1940, 'ABIQUIU LAKE'],
  ['AMERICAN FALLS_STATION', 'buoy', 'active', 42.82, -112.84, 1326, 'AMERICAN FALLS RESERVOIR'],
  ['BLUE MESA_STATION', 'shore-weather', 'active', 38.47, -107.17, 2295, 'BLUE MESA RESERVOIR'],
  ['BLW_STATION', 'buoy', 'active', 36.09, -114.79, 330, 'LAKE MEAD'],
  ['CANYON FERRY_STATION', 'shore-weather', 'active', 46.65, -111.72, 1160, 'CANYON FERRY LAKE'],
  ['CARTER LAKE_STATION', 'shore-weather', 'active', 40.33, -105.21, 1760, 'CARTER LAKE'],
  ['ELEPHANT BUTTE_STATION', 'raft', 'active', 33.17, -107.2, 1320, 'ELEPHANT BUTTE RESERVOIR'],
  ['FLAMING GORGE_STATION', 'eddy-covariance', 'active', 40.93, -109.44, 1840, 'FLAMING GORGE RESERVOIR'],
  ['FOLSOM DAM_STATION', 'pan', 'inactive', 38.7, -121.16, 107, 'FOLSOM LAKE'],
  ['HERMISTON_STATION', 'shore-weather', 'active', 45.82, -119.28, 180, ''],
  ['HERON LAKE_STATION', 'raft', 'active', 36.68, -106.69, 2185, 'HERON LAKE'],
  ['HUNGRY HORSE DAM_STATION', 'shore-weather', 'active', 48.34, -114.02, 1090, 'HUNGRY HORSE RESERVOIR'],
  ['KIMBERLY_STATION', 'shore-weather', 'active', 42.55, -114.35, 1195, ''],
  ['LAKE GRANBY_STATION', 'raft', 'inactive', 40.17, -105.87, 2524, 'LAKE GRANBY'],
  ['LAKE HAVASU_STATION', 'buoy', 'active', 34.45, -114.37, 137, 'LAKE HAVASU'],
  ['LAKE MEAD_STATION', 'eddy-covariance', 'active', 36.06, -114.76, 330, 'LAKE MEAD'],
  ['LAKE MOHAVE_STATION', 'buoy', 'inactive', 35.49, -114.67, 195, 'LAKE MOHAVE'],
  ['LAKE PLEASANT_STATION', 'buoy', 'active', 33.87, -112.27, 515, 'LAKE PLEASANT'],
  ['LAKE POWELL_STATION', 'eddy-covariance', 'active', 36.99, -111.49, 1090, 'LAKE POWELL'],
  ['NAVAJO DAM_STATION', 'pan', 'active', 36.81, -107.61, 1860, 'NAVAJO RESERVOIR'],
  ['OLYMPUS DAM_STATION', 'shore-weather', 'active', 40.38, -105.49, 2280, 'LAKE ESTES'],
  ['PALISADES_STATION', 'shore-weather', 'inactive', 43.34, -111.21, 1720, 'PALISADES RESERVOIR'],
  ['RUEDI DAM_STATION', 'shore-weather', 'active', 39.37, -106.82, 2370, 'RUEDI RESERVOIR'],
  ['SAGUARO LAKE_STATION', 'raft', 'inactive', 33.57, -111.52, 466, 'SAGUARO LAKE'],
  ['SCOTTSBLUFF_STATION', 'shore-weather', 'active', 41.89, -103.68, 1190, 'LAKE ALICE'],
  ['SHASTA DAM_STATION', 'pan', 'active', 40.72, -122.42, 328, 'SHASTA LAKE'],
];

/** The 67 reservoirs of reservoirs.csv, sorted by name. */
export const referenceReservoirs: readonly ReservoirSpec[] = reservoirRows.map(([name, state, lat, lon, elevM, fullAreaM2, maxDepthM, capacityM3]) => ({
  name,
  state,
  lat,
  lon,
  elevM,
  fullAreaM2,
  maxDepthM,
  capacityM3,
}));

/** The 27 stations of stations.csv, sorted by name. */
export const referenceStations: readonly StationSpec[] = stationRows.map(([name, type, status, lat, lon, elevM, reservoir]) => ({
  name,
  type,
  status,
  lat,
  lon,
  elevM,
  reservoir: reservoir === '' ? null : reservoir,
}));

/** Fraction of full-pool storage at mid-year for reservoirs with a known history (Reclamation end-of-month
 * elevations, read roughly): LAKE MEAD and LAKE POWELL were far below full pool in 2019-2021 (reference README). */
export const storageHistories: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  'LAKE MEAD': [
    [1979, 0.85],
    [1983, 0.98],
    [1987, 0.97],
    [1990, 0.86],
    [1993, 0.85],
    [1997, 0.96],
    [1999, 0.96],
    [2001, 0.84],
    [2003, 0.64],
    [2005, 0.55],
    [2008, 0.48],
    [2010, 0.42],
    [2011, 0.46],
    [2012, 0.5],
    [2014, 0.42],
    [2016, 0.37],
    [2018, 0.39],
    [2019, 0.42],
    [2020, 0.4],
    [2021, 0.33],
    [2022, 0.27],
    [2023, 0.31],
    [2024, 0.34],
    [2025, 0.31],
  ],
  'LAKE POWELL': [
    [1979, 0.82],
    [1981, 0.88],
    [1983, 0.98],
    [1986, 0.98],
    [1990, 0.78],
    [1993, 0.7],
    [1995, 0.76],
    [1997, 0.95],
    [1999, 0.95],
    [2001, 0.8],
    [2003, 0.5],
    [2005, 0.35],
    [2006, 0.5],
    [2008, 0.57],
    [2010, 0.6],
    [2011, 0.7],
    [2013, 0.5],
    [2014, 0.45],
    [2016, 0.52],
    [2018, 0.45],
    [2019, 0.47],
    [2020, 0.44],
    [2021, 0.3],
    [2022, 0.24],
    [2023, 0.34],
    [2024, 0.38],
    [2025, 0.3],
  ],
};
