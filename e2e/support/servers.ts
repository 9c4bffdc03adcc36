import path from 'node:path';

/** The two deployments e2e drives: a normal one and a special-flag (OTA staff) one. */
export const servers = {
  normal: { port: 18181, dataDir: path.resolve(import.meta.dirname, '../.data/normal'), roleFlag: '0' },
  special: { port: 18182, dataDir: path.resolve(import.meta.dirname, '../.data/special'), roleFlag: '1' },
} as const;
export type ServerName = keyof typeof servers;
export const baseUrl = (name: ServerName) => `http://127.0.0.1:${servers[name].port}`;
