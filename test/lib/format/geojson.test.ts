// Metadata as GeoJSON: longitude first (RFC 7946 section 3.1.1), a null geometry where no location is held.
import { describe, expect, it } from 'vitest';
import { recordsToGeoJson } from '../../../lib/format/geojson.js';

describe('recordsToGeoJson', () => {
  it('makes a Point at [LON, LAT] named by the name key, every attribute a property', () => {
    const record = { RES_NAME: 'ALPHA LAKE', STATE: 'CO', LAT: 40, LON: -105 };
    expect(recordsToGeoJson([record], 'RES_NAME')).toEqual({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', id: 'ALPHA LAKE', geometry: { type: 'Point', coordinates: [-105, 40] }, properties: record }],
    });
  });

  it('gives a null geometry for a missing, non-numeric or non-finite location', () => {
    const records = [
      { STA_NAME: 'A', LAT: null, LON: -105 },
      { STA_NAME: 'B', LAT: '40', LON: -105 },
      { STA_NAME: 'C', LAT: NaN, LON: 1 },
    ];
    expect(recordsToGeoJson(records, 'STA_NAME').features.map((f) => [f.id, f.geometry])).toEqual([
      ['A', null],
      ['B', null],
      ['C', null],
    ]);
  });

  it('copies the properties, so the feature does not share the record', () => {
    const record = { RES_NAME: 'X', LAT: 1, LON: 2 };
    const [feature] = recordsToGeoJson([record], 'RES_NAME').features;
    expect(feature!.properties).not.toBe(record);
  });
});
