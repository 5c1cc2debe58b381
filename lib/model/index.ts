export { isStaticReservoir } from './area-capacity.js';
export { catalogueReservoirs, catalogueStations } from './places.js';
export type { ReservoirSpec, StationSpec } from './reference.js';
export { referenceReservoirs, referenceStations } from './reference.js';
export type { ReservoirDays } from './reservoir.js';
export { createReservoirModel } from './reservoir.js';
export { simulateStation } from './station.js';
