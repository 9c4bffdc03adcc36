import type { device } from '@panelfleet/contract';

export type PanelPlace = { latitude: number; longitude: number } | { publicIp: string };

/** What a panel reports; a panel without a position module has no latitude and longitude. */
export type PanelFields = Omit<device.DeviceStateFields, 'latitude' | 'longitude'> &
  Partial<Pick<device.DeviceStateFields, 'latitude' | 'longitude'>>;

/** The MAC of panel `index`, unique in a fleet. */
export function macOf(index: number): string {
  const byte = (shift: number) => ((index >> shift) & 255).toString(16).padStart(2, '0');
  return `02:50:46:${byte(16)}:${byte(8)}:${byte(0)}`;
}

/** The state panel `index` starts with: a few models, networks and places, so a fleet is varied. */
export function initialState(index: number, utcOffset = 480, place?: PanelPlace): PanelFields {
  const i = index;
  const state: PanelFields = {
    // Sites behind different routers (documentation addresses, which no IP database places).
    publicIp: `203.0.113.${10 + (i % 5)}`,
    localIp: `10.20.${(i >> 8) & 255}.${i & 255 || 1}`,
    netmask: '255.255.0.0',
    mac: macOf(i),
    model: i % 3 === 0 ? 'PF-75' : 'PF-86',
    machineType: ['x9_vn', 'oem', 'rs'][i % 3]!,
    otaVersion: '1.4.2',
    latitude: 31.2 + (i % 50) / 100,
    longitude: 121.4 + (i % 70) / 100,
    ramTotal: 4_294_967_296,
    ramUsed: 1_500_000_000 + (i % 10) * 50_000_000,
    apkCurrent: 0,
    apkTotal: 0,
    otaCurrent: 0,
    otaTotal: 0,
    // Mostly wired, some on Wi-Fi and a few on a cellular router, with the signal each has.
    netWorkIntensity: [100, 72, 100, 58, 100, 86, 41][i % 7]!,
    netWorkState: (['ethernet', 'wifi', 'ethernet', 'cellular', 'ethernet', 'wifi', 'cellular'] as const)[
      i % 7
    ]!,
    cpuTemperature: 45,
    brightness: 80,
    volume: 60,
    mute: false,
    source: 'home',
    power: 'on',
    utcOffset,
  };
  if (place && 'publicIp' in place) {
    // A panel without a position module: the server can only place it by its address.
    delete state.latitude;
    delete state.longitude;
    state.publicIp = place.publicIp;
  } else if (place) {
    state.latitude = place.latitude;
    state.longitude = place.longitude;
  }
  return state;
}

/** What a command may have changed, carried by its acknowledgement. */
export function changedState(state: PanelFields): NonNullable<device.CommandAck['state']> {
  return {
    brightness: state.brightness,
    volume: state.volume,
    mute: state.mute,
    source: state.source,
    power: state.power,
  };
}
