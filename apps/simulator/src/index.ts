export { spreadPlace, startFleet, type Fleet, type FleetOptions } from './fleet.js';
export { SimulatedPanel, type PanelPlace } from './panel.js';
export { magicPacket, parseMagicPacket } from './wake-on-lan.js';
