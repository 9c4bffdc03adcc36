import type { device } from '@panelfleet/contract';
import type { PanelOptions } from './options.js';
import type { Outbox } from './outbox.js';
import type { PanelFields } from './panel-state.js';

/**
 * What a panel's command, OTA, APK, program and report handlers use of it (panel.ts implements
 * it), so that they do not import the panel that imports them.
 */
export interface PanelHost {
  readonly serial: string;
  readonly options: PanelOptions;
  state: PanelFields;
  apps: device.InstalledApp[];
  settings: device.SettingsReport;
  certificate: device.CertificateValue | undefined;
  lastNotification: unknown;
  readonly downloads: Map<string, AbortController>;
  corruptNextOta: boolean;
  failNextApk: string | undefined;
  readonly apkFailures: Array<{ id: string; detail: string }>;
  readonly otaFailures: Array<{ id: string; detail: string }>;
  otaInstalls: number;
  readonly shownReminders: Array<{ version: string; reminder: string }>;
  playing:
    | {
        commandId: string;
        programId: number;
        revision: number;
        name: string;
        items: number;
        /** What each item shows: the material's name (or its type), a web item's address. */
        materials: string[];
        since: number;
      }
    | undefined;
  playTimer: NodeJS.Timeout | undefined;
  readonly programFailures: Array<{ id: string; detail: string }>;
  readonly finishedPrograms: string[];
  readonly stoppedPrograms: string[];
  /** Proof of play: every play report the panel made (protocol 5.11), in order. */
  readonly plays: device.PlayReport[];
  readonly outbox: Outbox;
  now(): number;
  credentials(): device.EnrollmentReply;
  powerOn(): Promise<void>;
  powerOff(next?: 'off' | 'rebooting'): Promise<void>;
  publish(kind: device.DevicePublishKind, payload: object): Promise<void>;
  reportState(fields: Partial<device.DeviceStateFields>): Promise<void>;
  publishApps(): Promise<void>;
  ack(ack: device.CommandAck): Promise<void>;
  checkOta(ota: device.OtaValue): string | undefined;
  reportUsage(): { report: device.AppUsageReport; sent: Promise<void> };
}
