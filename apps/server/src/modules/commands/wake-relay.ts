/** IPv4 dotted quad to an unsigned 32-bit number; undefined when it is not one. */
export function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value >>> 0;
}

export interface LanPlace {
  localIp: string;
  netmask: string;
}

/** The directed broadcast address of the panel's LAN (where a magic packet must go). */
export function broadcastAddress(place: LanPlace): string | undefined {
  const ip = ipv4ToNumber(place.localIp);
  const mask = ipv4ToNumber(place.netmask);
  if (ip === undefined || mask === undefined) return undefined;
  const b = (ip | ~mask) >>> 0;
  return [b >>> 24, (b >>> 16) & 255, (b >>> 8) & 255, b & 255].join('.');
}

/** True when both panels are on the target's subnet, so the relay's broadcast reaches it. */
export function sameLan(target: LanPlace, candidate: { localIp: string }): boolean {
  const t = ipv4ToNumber(target.localIp);
  const c = ipv4ToNumber(candidate.localIp);
  const mask = ipv4ToNumber(target.netmask);
  if (t === undefined || c === undefined || mask === undefined) return false;
  return (t & mask) >>> 0 === (c & mask) >>> 0;
}
