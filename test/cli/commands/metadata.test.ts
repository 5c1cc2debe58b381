// evap metadata answers as /metadata/reservoirs and /metadata/stations do, from a store and from a server.
import { describe, expect, it } from 'vitest';
import { serveSmallStore } from '../../helpers.js';
import { evap } from '../harness.js';

const {
  dir,
  names,
  stations,
  api,
  server: { url, key },
} = await serveSmallStore({ copy: true });

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
describe('evap metadata', () => {
  it('answers as the /metadata paths do, reservoirs by default', async () => {
    const [metadata, stationMetadata, json] = await Promise.all([
      evap(['metadata', '--names', names.join(','), '--store', dir]),
      evap(['metadata', 'stations', '--names', stations.join(','), '--from', url, '--api-key', key]),
      evap(['metadata', 'reservoirs', '--names', names[1]!, '--store', dir, '--format', 'json']),
    ]);
    expect(metadata.stdout).toBe(await api(`/metadata/reservoirs?${q({ RES_NAMES: names.join(','), output_format: 'csv' })}`));
    expect(stationMetadata.stdout).toBe(await api(`/metadata/stations?${q({ STA_NAMES: stations.join(','), output_format: 'csv' })}`));
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(await api(`/metadata/reservoirs?${q({ RES_NAMES: names[1]! })}`)));
  });

  it('refuses a kind other than reservoirs or stations, and names an unknown station with the nearest', async () => {
    const [lakes, unknown] = await Promise.all([
      evap(['metadata', 'lakes', '--store', dir]),
      evap(['metadata', 'stations', '--names', stations[0]!.toLowerCase(), '--store', dir]),
    ]);
    expect(lakes.code).toBe(2);
    expect(lakes.stderr).toContain('evap metadata: metadata of reservoirs or stations, not "lakes"');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `evap metadata: station not found: ${JSON.stringify(stations[0]!.toLowerCase())} (did you mean ${JSON.stringify(stations[0])}?)\n`,
    );
  });
});
