import { device } from '@panelfleet/contract';
import type { Updateable } from 'kysely';
import type { DevicesTable } from '../../db/schema.js';

type DeviceUpdate = Updateable<DevicesTable>;

/** Maps a (partial) state report to device columns; absent fields leave the column alone. */
export function stateToColumns(report: Partial<device.DeviceStateFields>): DeviceUpdate {
  const row: DeviceUpdate = {};
  if (report.publicIp !== undefined) row.public_ip = report.publicIp;
  if (report.localIp !== undefined) row.local_ip = report.localIp;
  if (report.netmask !== undefined) row.netmask = report.netmask;
  if (report.mac !== undefined) row.mac = report.mac;
  if (report.model !== undefined) row.model = report.model;
  if (report.machineType !== undefined) row.machine_type = report.machineType;
  if (report.otaVersion !== undefined) row.ota_version = report.otaVersion;
  if (report.latitude !== undefined) row.latitude = report.latitude;
  if (report.longitude !== undefined) row.longitude = report.longitude;
  if (report.ramTotal !== undefined) row.ram_total = report.ramTotal;
  if (report.ramUsed !== undefined) row.ram_used = report.ramUsed;
  if (report.apkCurrent !== undefined) row.apk_current = report.apkCurrent;
  if (report.apkTotal !== undefined) row.apk_total = report.apkTotal;
  if (report.otaCurrent !== undefined) row.ota_current = report.otaCurrent;
  if (report.otaTotal !== undefined) row.ota_total = report.otaTotal;
  if (report.netWorkIntensity !== undefined) row.network_intensity = report.netWorkIntensity;
  if (report.netWorkState !== undefined) row.network_state = report.netWorkState;
  if (report.cpuTemperature !== undefined) row.cpu_temperature = report.cpuTemperature;
  if (report.brightness !== undefined) row.brightness = report.brightness;
  if (report.volume !== undefined) row.volume = report.volume;
  if (report.mute !== undefined) row.mute = report.mute ? 1 : 0;
  if (report.source !== undefined) row.source = report.source;
  if (report.power !== undefined) row.power = report.power;
  if (report.utcOffset !== undefined) row.utc_offset = report.utcOffset;
  return row;
}
