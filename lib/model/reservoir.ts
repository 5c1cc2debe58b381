// One reservoir's daily series: synthetic weather (rtma) and state (res), and the DLEM's evaporation (lem) and net
// evaporation (nete-volume-calcs) computed from them as published.
import type { ReservoirVariable } from '../catalogue.js';
import type { QFlag } from '../flags.js';
import { Curve, isStaticReservoir, Storage } from './area-capacity.js';
import { allocateWeather, publishEvaporation, publishWeather, runPublished } from './forcing.js';
import { QFlagSeries } from './qflag.js';
import { Random } from './random.js';
import type { ReservoirSpec } from './reference.js';
import { round4 } from './round.js';
import { Calendar, originDay } from './time.js';
import { Weather } from './weather.js';

/** One value per day for each reservoir variable; days is the number of days. */
export type ReservoirDays = { days: number; values: Record<ReservoirVariable, Float64Array>; qflags: QFlag[] };

/** A reservoir's simulation; consecutive calls continue its state, so long runs can go year by year. */
interface ReservoirModel {
  simulate(startDay: number, endDay: number): ReservoirDays; // inclusive epoch days (days since 1970-01-01 UTC)
  state(): ReservoirState; // at the end of the last day simulated
}

/** The model's state at the end of a day (a forecast starts from it). */
export interface ReservoirState {
  day: number; // epoch day
  weather: Weather; // the day's weather (fork it: the model goes on with this one)
  water: number; // the DLEM's water temperature at the day's end, degC
  area: number; // the published surface area, m2
  depth: number; // the published average depth, m
  storageDraws: boolean; // whether the storage model draws from the weather's generator each day (after the weather)
}

/**
 * Creates the model of one reservoir; its randomness depends only on (seed, name), and its state starts at `origin`
 * (default 1979-01-01; the generator starts it 90 days before its first date, so a recent span costs no 45-year
 * spin-up), the water at that day's air temperature.
 */
export function createReservoirModel(spec: ReservoirSpec, seed: number, origin = originDay): ReservoirModel {
  const curve = new Curve(spec);
  const lakes = { lat: Float64Array.of(spec.lat), elev: Float64Array.of(spec.elevM) };
  const water = new Float64Array(1);
  let weather: Weather;
  let storage: Storage;
  let calendar: Calendar;
  let nextDay: number;
  let flags: QFlagSeries;
  let published: { stage: number; area: number; depth: number } | undefined; // the storage values last published

  const reset = (from: number) => {
    const rng = new Random(seed, spec.name);
    weather = new Weather(spec.lat, spec.lon, spec.elevM, rng);
    storage = new Storage(spec, rng);
    calendar = new Calendar(from);
    nextDay = from;
    flags = new QFlagSeries(seed, spec.name, isStaticReservoir(spec));
    published = undefined;
    water[0] = Number.NaN; // set from the first day's weather
  };
  reset(origin);

  return {
    simulate(startDay: number, endDay: number): ReservoirDays {
      if (!Number.isInteger(startDay) || !Number.isInteger(endDay) || endDay < startDay - 1) {
        throw new RangeError(`invalid day range: ${startDay}..${endDay}`);
      }
      if (startDay < nextDay) reset(Math.min(origin, startDay)); // going back: replay from the origin
      // every day from nextDay is simulated (those before startDay to carry the state) and evaporated in one call
      const offset = startDay - nextDay;
      const span = endDay - nextDay + 1;
      const weatherColumns = allocateWeather(span);
      const res = { stage_m: new Float64Array(span), area_m2: new Float64Array(span), depth_m: new Float64Array(span) };
      const months = new Uint8Array(span);
      const qflags = new Array<QFlag>(span);
      for (let i = 0; nextDay <= endDay; nextDay++, i++, calendar.advance()) {
        weather.step(calendar.doy);
        storage.step(calendar.year, calendar.doy, calendar.yearLength);
        const f = storage.isStatic ? 1 : storage.fraction;
        const qflag = flags.next();
        // an M or R day publishes the previous day's storage values (the model is forced by what is published)
        const carried = (qflag === 'M' || qflag === 'R') && published;
        published = carried ? published! : { stage: round4(curve.stage(f)), area: round4(curve.area(f)), depth: round4(curve.depth(f)) };
        qflags[i] = qflag;
        months[i] = calendar.month;
        publishWeather(weather, weatherColumns, i);
        res.stage_m[i] = published.stage;
        res.area_m2[i] = published.area;
        res.depth_m[i] = published.depth;
      }
      const columns = { ...weatherColumns, ...res };
      if (Number.isNaN(water[0]!) && span > 0) water[0] = (columns.tmmx_c[0]! + columns.tmmn_c[0]!) / 2;
      const out = runPublished(lakes, columns, months, water, 1, span);
      const all: Record<string, Float64Array> = { ...columns, ...publishEvaporation(out, columns.pr, columns.area_m2) };
      const values = {} as Record<ReservoirVariable, Float64Array>;
      for (const [name, column] of Object.entries(all)) values[name as ReservoirVariable] = offset === 0 ? column : column.slice(offset);
      return { days: span - offset, values, qflags: qflags.slice(offset) };
    },
    state(): ReservoirState {
      return { day: nextDay - 1, weather, water: water[0]!, area: published!.area, depth: published!.depth, storageDraws: !storage.isStatic };
    },
  };
}
