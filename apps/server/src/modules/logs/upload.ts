import type { device } from '@panelfleet/contract';

/**
 * Stores a log a panel uploaded over HTTP the way the gateway stores one received over MQTT
 * (once per id); false when the id was stored before. Handed in at wiring time (the gateway
 * owns device storage; this folder does not import it).
 */
export type AbnormalLogUpload = (deviceKey: string, log: device.AbnormalLog) => Promise<boolean>;
