export { startFleet, type Fleet, type FleetOptions } from './fleet.js';
export { SimulatedPanel } from './panel.js';
export { magicPacket, parseMagicPacket } from './wake-on-lan.js';
