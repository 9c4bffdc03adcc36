import { compareVersions, ipMatches } from '@panelfleet/contract';
import { storedOta } from '../downloads/ota.js';
import { OTA_TTL_MS } from '../commands/service.js';
import type { Decision, RolloutKind } from '../rollouts/kind.js';
import type { TaskRecord } from '../rollouts/repository.js';
import type { Candidate } from '../rollouts/target-repository.js';
import type { OtaFileRepository } from './file-repository.js';
import type { OtaRuleRepository } from './rule-repository.js';

/** What an OTA task keeps about its file (the display snapshot and the dispatch choices). */
export interface OtaPayload {
  fileId: number;
  fileName: string;
  version: string;
  machineTypes: string[];
  allowDowngrade: boolean;
}

export const readPayload = (task: TaskRecord) => JSON.parse(task.payload) as OtaPayload;

/**
 * OTA firmware as a rollout kind: the command is `OTA` with the file's signed manifest; at
 * dispatch a panel is skipped when it already runs the version or would be downgraded (unless the
 * task allows it), and the file's policy applies: IP whitelist against the reported public
 * address, serial-number list, and time-zone windows (a panel waits until its zone's start).
 */
export class OtaRolloutKind implements RolloutKind {
  readonly kind = 'ota';
  readonly order = 'OTA' as const;
  readonly cancelOrder = 'OTA_CANCEL' as const;
  readonly ttlMs = OTA_TTL_MS;

  constructor(
    private readonly files: OtaFileRepository,
    private readonly rules: OtaRuleRepository,
    /** The reminder of a machine type and version reaching a company's panel, in its language (the tips module). */
    private readonly reminderFor: (
      companyOrgId: number,
      machineType: string,
      version: string,
      language: string,
    ) => Promise<string | undefined> = async () => undefined,
  ) {}

  /** Each panel's value carries the reminder for its machine type in its language, when one is configured. */
  async valuesFor(task: TaskRecord, chosen: Candidate[], value: unknown): Promise<Map<number, unknown>> {
    const version = readPayload(task).version;
    const traits = await this.files.panelTraitsForPanels(chosen.map((c) => c.deviceId));
    const reminders = new Map<string, string | undefined>();
    const out = new Map<number, unknown>();
    for (const c of chosen) {
      const trait = traits.get(c.deviceId);
      if (!trait?.machineType) continue;
      const key = `${trait.machineType}\u0000${trait.language}`;
      if (!reminders.has(key))
        reminders.set(key, await this.reminderFor(task.org_id, trait.machineType, version, trait.language));
      const reminder = reminders.get(key);
      if (reminder) out.set(c.deviceId, { ...(value as object), reminder });
    }
    return out;
  }

  async commandValue(task: TaskRecord) {
    const payload = readPayload(task);
    const file = await this.files.findForDispatch(payload.fileId);
    if (!file) throw new Error(`OTA file ${payload.fileId} of task ${task.id} is gone`);
    return storedOta(
      { path: file.stored_path, size: file.file_size, sha256: file.sha256 },
      file.ota_version,
      { manifest: file.manifest, signature: file.signature },
      payload.allowDowngrade,
    );
  }

  async admit(task: TaskRecord, candidates: Candidate[], now: number): Promise<Map<number, Decision>> {
    const payload = readPayload(task);
    const out = new Map<number, Decision>();
    const file = await this.files.findForDispatch(payload.fileId);
    const rule = file?.rule_id ? await this.rules.findForDispatch(file.rule_id) : undefined;
    const ips = rule?.enable_ip ? (await this.rules.ips(rule.id)).map((r) => r.ip) : [];
    const zones = rule?.enable_timezone ? await this.rules.zones(rule.id) : [];
    const listed = rule?.enable_sn
      ? await this.rules.listedSerials(
          rule.id,
          candidates.map((c) => c.deviceKey),
        )
      : new Set<string>();
    for (const c of candidates) {
      out.set(c.targetId, this.decide(payload, c, now, { rule, ips, zones, listed }));
    }
    return out;
  }

  private decide(
    payload: OtaPayload,
    c: Candidate,
    now: number,
    policy: {
      rule: { enable_ip: number; enable_sn: number; enable_timezone: number } | undefined;
      ips: string[];
      zones: Array<{ utc_offset: number; start_at: number }>;
      listed: Set<string>;
    },
  ): Decision {
    if (c.otaVersion) {
      const order = compareVersions(payload.version, c.otaVersion);
      if (order === 0) return { skip: 'upToDate' };
      if (order < 0 && !payload.allowDowngrade) return { skip: 'downgrade' };
    }
    const { rule } = policy;
    if (!rule) return { go: true };
    if (rule.enable_ip) {
      if (!c.publicIp) return { skip: 'noPublicIp' };
      if (!policy.ips.some((entry) => ipMatches(entry, c.publicIp))) return { skip: 'ipNotAllowed' };
    }
    if (rule.enable_sn && !policy.listed.has(c.deviceKey)) return { skip: 'serialNotListed' };
    if (rule.enable_timezone) {
      if (c.utcOffset === null) return { skip: 'timeZoneUnknown' };
      const zone = policy.zones.find((z) => z.utc_offset === c.utcOffset);
      if (!zone) return { skip: 'timeZoneNotListed' };
      if (zone.start_at > now) return { waitUntil: zone.start_at };
    }
    return { go: true };
  }
}
