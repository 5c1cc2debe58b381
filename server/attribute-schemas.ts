// The metadata attributes in /openapi.json: what each is and its unit (`x-unit`, and in the description), from the catalogue.
import { attributeInfo, reservoirAttributes, stationAttributes } from '../lib/catalogue.js';

const numeric = new Set(['LAT', 'LON', 'Shape_Area', 'ELEV_M', 'MAX_DEPTH_M', 'CAPACITY_M3']);

function schemaOf(attributes: readonly string[]): object {
  const properties = Object.fromEntries(
    attributes.map((name) => {
      const info = attributeInfo[name as keyof typeof attributeInfo] as { description: string; unit?: string };
      const unit = info.unit === undefined ? {} : { 'x-unit': info.unit };
      const description = info.unit === undefined ? info.description : `${info.description} (${info.unit})`;
      return [name, { type: numeric.has(name) ? 'number' : 'string', nullable: true, description, ...unit }];
    }),
  );
  return {
    type: 'object',
    description: 'One record of /metadata (and the attributes also_return adds); metadata keep these units whatever units says',
    properties,
  };
}

/** components.schemas entries: the reservoir and station metadata records. */
export function attributeSchemas(): Record<string, object> {
  return { ReservoirMetadata: schemaOf(reservoirAttributes), StationMetadata: schemaOf(stationAttributes) };
}
