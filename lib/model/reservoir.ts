// One reservoir's daily series: weather (rtma), state (res), evaporation (lem) and net evaporation (nete-volume-calcs).
import type { ReservoirVariable } from '../catalogue.js';
import { reservoirVariables } from '../catalogue.js';
import type { QFlag } from '../flags.js';
import { Curve, isStaticReservoir, Storage } from './area-capacity.js';
import { Lake } from './lake.js';
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
  simulate(startDay: number, endDay: number, observe?: (state: ReservoirState) => void): ReservoirDays; // inclusive epoch days (days since 1970-01-01 UTC)
}

/** The model's state at the end of one day of [startDay, endDay], shown to `observe` (a forecast starts from it). */
export interface ReservoirState {
  day: number; // epoch day
  weather: Weather; // the day's weather (fork it: the model goes on with this one)
  lake: Lake; // the lake's heat state (fork it too)
  area: number; // the published surface area, m2
  depth: number; // the lake's average depth, m
  fetch: number; // m
  storageDraws: boolean; // whether the storage model draws from the weather's generator each day (after the weather)
}

/**
 * Creates the model of one reservoir; its randomness depends only on (seed, name), and its state starts at `origin`
 * (default 1979-01-01; the generator starts it 90 days before its first date, so a recent span costs no 45-year spin-up).
 */
export function createReservoirModel(spec: ReservoirSpec, seed: number, origin = originDay): ReservoirModel {
  const curve = new Curve(spec);
  let weather: Weather;
  let storage: Storage;
  let lake: Lake;
  let calendar: Calendar;
  let nextDay: number;
  let flags: QFlagSeries;
  let published: { stage: number; area: number; depth: number } | undefined; // the storage values last published

  const reset = (from: number) => {
    const rng = new Random(seed, spec.name);
    weather = new Weather(spec.lat, spec.lon, spec.elevM, rng);
    storage = new Storage(spec, rng);
    lake = new Lake(15 - 0.0065 * spec.elevM);
    calendar = new Calendar(from);
    nextDay = from;
    flags = new QFlagSeries(seed, spec.name, isStaticReservoir(spec));
    published = undefined;
  };
  reset(origin);

  return {
    simulate(startDay: number, endDay: number, observe?: (state: ReservoirState) => void): ReservoirDays {
      if (!Number.isInteger(startDay) || !Number.isInteger(endDay) || endDay < startDay - 1) {
        throw new RangeError(`invalid day range: ${startDay}..${endDay}`);
      }
      if (startDay < nextDay) reset(Math.min(origin, startDay)); // going back: replay from the origin
      const days = endDay - startDay + 1;
      const values = {} as Record<ReservoirVariable, Float64Array>;
      for (const v of reservoirVariables) values[v.name] = new Float64Array(days);
      const qflags = new Array<QFlag>(days);
      const { pr, tmmx_c, tmmn_c, vpd_kpa, vs2m, srad, etr, eto, th, sph_kgkg, pres_pa } = values;
      const { stage_m, area_m2, depth_m, E_hs, E_nhs, Rn, Tw, Tw0, Fetch, Lerr, NetE, E_volume, NetE_volume } = values;
      for (; nextDay <= endDay; nextDay++, calendar.advance()) {
        weather.step(calendar.doy);
        storage.step(calendar.year, calendar.doy, calendar.yearLength);
        const f = storage.isStatic ? 1 : storage.fraction;
        const area = curve.area(f);
        const fetch = Math.sqrt(area);
        const depth = curve.depth(f);
        lake.step(weather, depth, fetch);
        const qflag = flags.next();
        // an M or R day publishes the previous day's storage values: the lake itself goes on changing
        const carried = (qflag === 'M' || qflag === 'R') && published;
        published = carried ? published! : { stage: round4(curve.stage(f)), area: round4(area), depth: round4(depth) };
        const i = nextDay - startDay;
        if (i < 0) continue;
        qflags[i] = qflag;
        const w = weather;
        pr[i] = round4(w.pr);
        tmmx_c[i] = round4(w.tmax);
        tmmn_c[i] = round4(w.tmin);
        vpd_kpa[i] = round4(w.vpd);
        vs2m[i] = round4(w.u2);
        srad[i] = round4((w.rs * 1e6) / 86400);
        etr[i] = round4(w.etr);
        eto[i] = round4(w.eto);
        th[i] = round4(w.th) % 360; // 359.99996 rounds to 360
        sph_kgkg[i] = round4(w.sph);
        pres_pa[i] = round4(w.pressure * 1000);
        stage_m[i] = published.stage;
        area_m2[i] = published.area;
        depth_m[i] = published.depth;
        const eHs = round4(lake.eHs);
        E_hs[i] = eHs;
        E_nhs[i] = round4(lake.eNhs);
        Rn[i] = round4(lake.rn);
        Tw[i] = round4(lake.tw);
        Tw0[i] = round4(lake.tw0);
        Fetch[i] = round4(Math.sqrt(published.area)); // of the published area, as the lake's own is not published on M and R days
        Lerr[i] = qflag === 'M' || qflag === 'R' ? 1 : 0; // the model ran on filled storage inputs that day
        // from the rounded values, so the published identities hold
        const netE = round4(eHs - pr[i]!);
        NetE[i] = netE;
        E_volume[i] = round4((eHs / 1000) * area_m2[i]!);
        NetE_volume[i] = round4((netE / 1000) * area_m2[i]!);
        observe?.({ day: nextDay, weather, lake, area: area_m2[i]!, depth, fetch, storageDraws: !storage.isStatic });
      }
      return { days, values, qflags };
    },
  };
}
