// The single source of truth for datasets, variables, units and query defaults.
// Reservoir units follow docs/appendix.md of the OperEvap documentation (samapriya/evap-docs);
// where it is silent (etr, eto, th, every station variable) the choice is documented in README.md.
import type { InvalidReason } from './errors.js';

/** Units a stored (metric) value can be expressed in; each has a factor (and offset) to its English counterpart. */
export const units = {
  mm: { metric: 'mm', english: 'in', factor: 1 / 25.4, offset: 0 }, // 25.4 mm = 1 in exactly
  degC: { metric: 'degC', english: 'degF', factor: 9 / 5, offset: 32 },
  kpa: { metric: 'kpa', english: 'kpa', factor: 1, offset: 0 }, // appendix: kPa in both systems
  pa: { metric: 'pa', english: 'pa', factor: 1, offset: 0 },
  wm2: { metric: 'wm2', english: 'wm2', factor: 1, offset: 0 },
  kgkg: { metric: 'kgkg', english: 'kgkg', factor: 1, offset: 0 },
  ms: { metric: 'm/s', english: 'mph', factor: 3600 / 1609.344, offset: 0 }, // international mile = 1609.344 m
  m: { metric: 'm', english: 'ft', factor: 1 / 0.3048, offset: 0 }, // international foot = 0.3048 m
  m2: { metric: 'm2', english: 'acre', factor: 1 / 4046.8564224, offset: 0 }, // 1 acre = 4046.8564224 m2
  m3: { metric: 'm3', english: 'acre-ft', factor: 1 / 1233.48183754752, offset: 0 }, // acre x foot
  m3s: { metric: 'm3/s', english: 'cfs', factor: 1 / 0.028316846592, offset: 0 }, // 1 ft3 = 0.028316846592 m3
  deg: { metric: 'deg', english: 'deg', factor: 1, offset: 0 },
  percent: { metric: 'percent', english: 'percent', factor: 1, offset: 0 },
  mgl: { metric: 'mg/l', english: 'mg/l', factor: 1, offset: 0 },
  uscm: { metric: 'us/cm', english: 'us/cm', factor: 1, offset: 0 },
  gm3: { metric: 'g/m3', english: 'g/m3', factor: 1, offset: 0 },
  ph: { metric: 'ph', english: 'ph', factor: 1, offset: 0 },
  none: { metric: 'unitless', english: 'unitless', factor: 1, offset: 0 },
  days: { metric: 'days', english: 'days', factor: 1, offset: 0 },
} as const satisfies Record<string, { metric: string; english: string; factor: number; offset: number }>;

export type UnitName = keyof typeof units;
export type UnitSystem = 'metric' | 'english';
export const unitSystems: readonly UnitSystem[] = ['metric', 'english'];

/** How a variable's daily values make a monthly or annual value: depths and volumes add up, directions take the circular mean. */
export type Aggregation = 'sum' | 'circular-mean' | 'mean';

interface VariableSpec {
  readonly description: string;
  readonly unit: UnitName;
  readonly aggregate?: Aggregation; // default 'mean'
}

/** The four reservoir datasets and the variables each holds, in the order the public service lists them. */
export const reservoirDatasets = {
  rtma: {
    description: 'Gridded weather (RTMA, hybrid RTMA-gridMET before 2016)',
    variables: {
      pr: { description: 'Precipitation', unit: 'mm', aggregate: 'sum' },
      tmmx_c: { description: 'Maximum air temperature', unit: 'degC' },
      tmmn_c: { description: 'Minimum air temperature', unit: 'degC' },
      vpd_kpa: { description: 'Vapor pressure deficit', unit: 'kpa' },
      vs2m: { description: 'Wind speed at 2 m', unit: 'ms' },
      srad: { description: 'Incoming shortwave solar radiation', unit: 'wm2' },
      etr: { description: 'Alfalfa reference evapotranspiration (ASCE, tall crop)', unit: 'mm', aggregate: 'sum' },
      eto: { description: 'Grass reference evapotranspiration (ASCE, short crop)', unit: 'mm', aggregate: 'sum' },
      th: { description: 'Wind direction, degrees clockwise from north', unit: 'deg', aggregate: 'circular-mean' },
      sph_kgkg: { description: 'Specific humidity', unit: 'kgkg' },
      pres_pa: { description: 'Air pressure', unit: 'pa' },
    },
  },
  res: {
    description: 'Reservoir physical state from an area-capacity curve',
    variables: {
      stage_m: { description: 'Water surface elevation', unit: 'm' },
      area_m2: { description: 'Surface area', unit: 'm2' },
      depth_m: { description: 'Average depth', unit: 'm' },
    },
  },
  lem: {
    description: 'Daily Lake Evaporation Model (DLEM): evaporation and heat storage',
    variables: {
      E_hs: { description: 'Evaporation with heat storage', unit: 'mm', aggregate: 'sum' },
      E_nhs: { description: 'Evaporation without heat storage', unit: 'mm', aggregate: 'sum' },
      Rn: { description: 'Net radiation', unit: 'wm2' },
      Tw: { description: 'Water temperature (mixed layer)', unit: 'degC' },
      Tw0: { description: 'Surface water temperature', unit: 'degC' },
      Fetch: { description: 'Fetch', unit: 'm' },
      Lerr: { description: 'LEM Model Error Flag', unit: 'none' }, // openwaterevap/evap-docs appendix: a flag, no unit
    },
  },
  'nete-volume-calcs': {
    description: 'Net evaporation (E_hs - pr) and evaporated volumes',
    variables: {
      NetE: { description: 'Net evaporation', unit: 'mm', aggregate: 'sum' },
      E_volume: { description: 'Evaporation volume', unit: 'm3', aggregate: 'sum' },
      NetE_volume: { description: 'Net evaporation volume', unit: 'm3', aggregate: 'sum' },
    },
  },
} as const satisfies Record<string, { description: string; variables: Record<string, VariableSpec> }>;

export type DatasetName = keyof typeof reservoirDatasets;
export type ReservoirVariable = {
  [D in DatasetName]: keyof (typeof reservoirDatasets)[D]['variables'];
}[DatasetName];

/** The 38 station variables, in the order the public service lists them. */
export const stationVariables = {
  ATemp: { description: 'Air temperature', unit: 'degC' },
  ATemp_Min: { description: 'Minimum air temperature', unit: 'degC' },
  ATemp_Max: { description: 'Maximum air temperature', unit: 'degC' },
  BP: { description: 'Barometric pressure', unit: 'kpa' },
  BR: { description: 'Bowen ratio', unit: 'none' },
  Ce: { description: 'Bulk transfer coefficient for vapour', unit: 'none' },
  DO: { description: 'Dissolved oxygen', unit: 'mgl' },
  DO_percent: { description: 'Dissolved oxygen saturation', unit: 'percent' },
  EnergyT: { description: 'Total available energy (Rn - heat storage change)', unit: 'wm2' },
  ETo: { description: 'Grass reference evapotranspiration', unit: 'mm', aggregate: 'sum' },
  ETr: { description: 'Alfalfa reference evapotranspiration', unit: 'mm', aggregate: 'sum' },
  evap_1: { description: 'Evaporation, method 1 (eddy covariance)', unit: 'mm', aggregate: 'sum' },
  evap_2: { description: 'Evaporation, method 2 (Bowen ratio energy balance)', unit: 'mm', aggregate: 'sum' },
  evap_3: { description: 'Evaporation, method 3 (bulk transfer)', unit: 'mm', aggregate: 'sum' },
  evap_4: { description: 'Evaporation, method 4 (Penman)', unit: 'mm', aggregate: 'sum' },
  evap_5: { description: 'Evaporation, method 5 (pan, with pan coefficient)', unit: 'mm', aggregate: 'sum' },
  HSEnergyFlux: { description: 'Sensible heat flux', unit: 'wm2' },
  IncomingSR: { description: 'Incoming shortwave radiation', unit: 'wm2' },
  inflow: { description: 'Reservoir inflow', unit: 'm3s' },
  SurfaceT: { description: 'Water surface temperature', unit: 'degC' },
  MO_StabilityL: { description: 'Monin-Obukhov stability length', unit: 'm' },
  NC_EnergyStored: { description: 'Net change in energy stored in the water column', unit: 'wm2' },
  NR: { description: 'Net radiation', unit: 'wm2' },
  NW_AdvectedE: { description: 'Net advected energy of water flows', unit: 'wm2' },
  outflow: { description: 'Reservoir outflow', unit: 'm3s' },
  PH: { description: 'Water pH', unit: 'ph' },
  RH: { description: 'Relative humidity', unit: 'percent' },
  SamplingD: { description: 'Sampling depth of water measurements', unit: 'm' },
  SkinTemp: { description: 'Water skin temperature (infrared)', unit: 'degC' },
  SpecConduct: { description: 'Specific conductance', unit: 'uscm' },
  SWin: { description: 'Incoming shortwave radiation at the sensor', unit: 'wm2' },
  VP: { description: 'Vapor pressure', unit: 'kpa' },
  VPD: { description: 'Vapor pressure deficit', unit: 'kpa' },
  WTemp: { description: 'Water temperature at sampling depth', unit: 'degC' },
  WVD: { description: 'Water vapour density', unit: 'gm3' },
  WD: { description: 'Wind direction, degrees clockwise from north', unit: 'deg', aggregate: 'circular-mean' },
  WS: { description: 'Wind speed', unit: 'ms' },
  PofDays: { description: 'Portion of the day with valid measurements', unit: 'percent' },
} as const satisfies Record<string, VariableSpec>;

export type StationVariable = keyof typeof stationVariables;

export const datasetNames = Object.keys(reservoirDatasets) as DatasetName[];
export const stationVariableNames = Object.keys(stationVariables) as StationVariable[];

/** Every reservoir variable with the dataset that holds it, in catalogue order. */
export const reservoirVariables: readonly { name: ReservoirVariable; dataset: DatasetName; spec: VariableSpec }[] = datasetNames.flatMap((dataset) =>
  Object.entries(reservoirDatasets[dataset].variables).map(([name, spec]) => ({
    name: name as ReservoirVariable,
    dataset,
    spec: spec as VariableSpec,
  })),
);

const reservoirVariableIndex = new Map(reservoirVariables.map((v) => [v.name as string, v]));

/** The catalogue entry of a reservoir variable, or undefined. */
export function findReservoirVariable(name: string) {
  return reservoirVariableIndex.get(name);
}

/** The catalogue entry of a station variable, or undefined. */
export function findStationVariable(name: string): VariableSpec | undefined {
  return Object.hasOwn(stationVariables, name) ? stationVariables[name as StationVariable] : undefined;
}

/** How a variable aggregates over a period (issue 14): the catalogue's field, else the arithmetic mean. */
export function aggregationOf(spec: VariableSpec): Aggregation {
  return spec.aggregate ?? 'mean';
}

/** The unit label shown on the wire for a variable's unit in a unit system, as in `NetE (mm)`. */
export function unitLabel(unit: UnitName, system: UnitSystem): string {
  return units[unit][system];
}

/** The wire key of a variable: `<variable> (<unit label>)`. */
export function variableKey(variable: string, unit: UnitName, system: UnitSystem): string {
  return `${variable} (${unitLabel(unit, system)})`;
}

/** Defaults of the public service's query parameters (docs/endpoints/*.md of samapriya/evap-docs). */
export const defaults = {
  RES_NAMES: ['LAKE ALICE', 'LAKE ESTES'],
  STA_NAMES: ['LAKE MEAD_STATION', 'BLW_STATION'],
  STA_NAMES_METADATA: ['ABERDEEN_STATION', 'ABIQUIU DAM_STATION'],
  datasets: datasetNames,
  variables: reservoirVariables.map((v) => v.name),
  units: 'metric' as UnitSystem,
  start_date: '2020-01-01',
  end_date: '2020-01-31',
  date: '2020-01-01',
  dataset: 'nete-volume-calcs' as DatasetName,
  variable: 'NetE',
  output_format: 'json',
  ALL_STATIONS: 'ALL_STATIONS',
} as const;

/** The one name that asks a timeseries for every reservoir (or station; stations also take ALL_STATIONS) over a range. */
export const ALL_NAMES = 'ALL';

/** The answer formats (output_format) of each kind of path: listings, places (metadata and name listings), series. */
export const outputFormats = {
  list: ['json', 'csv'],
  places: ['json', 'csv', 'geojson'],
  series: ['json', 'csv', 'parquet', 'arrow'],
} as const;

/** Metadata attributes of reservoirs and stations (stored in metadata.parquet, returned as they are). */
export const reservoirAttributes = ['RES_NAME', 'STATE', 'LAT', 'LON', 'Shape_Area', 'ELEV_M', 'MAX_DEPTH_M', 'CAPACITY_M3', 'qflag'] as const;
export const stationAttributes = ['STA_NAME', 'STATION_TYPE', 'STATUS', 'LAT', 'LON', 'ELEV_M', 'RES_NAME', 'qflag'] as const;

/**
 * What each metadata attribute is, and the unit of the numeric ones. Metadata are returned as stored, in these units
 * whatever `units` says (a conversion applies to the variables only).
 */
export const attributeInfo = {
  RES_NAME: { description: 'Reservoir name' },
  STA_NAME: { description: 'Station name' },
  STATE: { description: 'US state (two-letter code)' },
  STATION_TYPE: { description: 'Kind of station' },
  STATUS: { description: 'Whether the station still reports' },
  LAT: { description: 'Latitude, WGS 84', unit: 'degrees_north' },
  LON: { description: 'Longitude, WGS 84', unit: 'degrees_east' },
  Shape_Area: { description: 'Surface area of the reservoir polygon', unit: 'm2' },
  ELEV_M: { description: 'Elevation above sea level (of the full pool for a reservoir)', unit: 'm' },
  MAX_DEPTH_M: { description: 'Maximum depth', unit: 'm' },
  CAPACITY_M3: { description: 'Storage capacity at full pool', unit: 'm3' },
  qflag: { description: 'Data quality flag: O observed, M missing and filled, S static, R outlier removed' },
} as const satisfies Record<(typeof reservoirAttributes)[number] | (typeof stationAttributes)[number], { description: string; unit?: string }>;

/** The unit of a metadata attribute, or undefined for a text attribute. */
export function attributeUnit(name: string): string | undefined {
  const info = (attributeInfo as Record<string, { unit?: string }>)[name];
  return info?.unit;
}

// What the server writes and the client reads beside the records: its response headers and the names of the reasons a
// value is refused, here so that neither side imports the other.

/** The header in which a server names the parameters it ignored (this project's server; FastAPI ignores them silently). */
export const IGNORED_HEADER = 'x-evap-ignored-parameters';

/** The header every answer of a server over a synthetic store carries (`synthetic`), errors included. */
export const DATA_HEADER = 'x-evap-data';

/** The wire's name of each reason a value is refused: the "type" of a FastAPI validation error, as the server writes it and the client reads it. */
export const validationTypes: Record<InvalidReason, string> = {
  'not-allowed': 'enum',
  empty: 'missing',
  'not-a-date': 'date_from_datetime_parsing',
  'too-many': 'too_long',
  malformed: 'value_error',
};
