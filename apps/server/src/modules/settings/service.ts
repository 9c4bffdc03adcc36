import { device, oplog, settings as calls } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { CommandRecord } from '../commands/repository.js';
import type { CommandService, Target } from '../commands/service.js';
import type { DeviceRecord, DeviceRepository } from '../devices/repository.js';
import { changesOf, entry, pushItemTerm, rowTerm, settingTerm } from './log-content.js';
import { checkSource, checkTemplate, parseJson } from './setting-json.js';
import type { NewPushTarget, SettingRecord, SettingsRepository } from './repository.js';

export interface SettingsDeps {
  repository: SettingsRepository;
  devices: DeviceRepository;
  commands: CommandService;
  clock: Clock;
}

export interface Caller {
  user: SessionUser;
  ip: string;
}

/** One setting to push: the SETTINGS value and what the result list calls it. */
export interface PushItem {
  settingId: number | null;
  what: string;
  series: device.Series;
  /** Source settings: panels that reported another system are refused. */
  system?: device.PanelSystem;
  value: device.SettingsChange;
}

type PushKind = 'template' | 'source' | 'selection' | 'picture';

const NAMES_SHOWN = 5;

/**
 * Saved settings (spec 2 "Setting page"): templates per series and source (picture) settings per
 * system, series and input; their rules (one schema per series, from the contract); and pushes,
 * which are SETTINGS commands with a life (modules/commands) recorded with the panels they went to.
 */
export class SettingsService {
  constructor(private readonly deps: SettingsDeps) {}

  async list(orgId: number, query: { start: number; size: number; type: '0' | '1'; series?: string }) {
    const { rows, total } = await this.deps.repository.page(
      orgId,
      query.type,
      query.series,
      (Math.max(1, query.start) - 1) * query.size,
      query.size,
    );
    return { rows: rows.map(toRow), total };
  }

  /** Adds a template or source setting with its default settings, saved at once (spec 2 section 4). */
  async add(
    caller: Caller,
    params: { type: '0' | '1'; series: string; platform?: string; sourceType?: string },
  ): Promise<calls.SettingRow> {
    const series = params.series as device.Series;
    const now = this.deps.clock.now();
    const isTemplate = params.type === calls.SETTING_TYPES.template;
    const system = isTemplate ? null : (params.platform as device.PanelSystem);
    const sourceType = isTemplate ? null : (params.sourceType as device.SourceType);
    const json: device.TemplateJson | device.SourceSettingJson = isTemplate
      ? ({ platform: series, platformMsg: device.defaultPlatformMsg(series) } as device.TemplateJson)
      : { platform: system!, sourceType: sourceType!, ...device.defaultPictureSetting() };
    const inserted = await this.deps.repository.insert(
      {
        org_id: caller.user.orgId,
        type: params.type,
        series,
        system,
        source_type: sourceType,
        json_data: JSON.stringify(json),
        created_by: caller.user.id,
        created_at: now,
        updated_at: now,
      },
      entry(caller, 'settingTemplate.add', {
        k: 'setting',
        v: { setting: settingTerm({ type: params.type, series, system, sourceType }) },
      }),
    );
    if (!inserted) throw new Refusal('settingTemplate.sourceExists', 'conflict');
    return toRow(inserted);
  }

  /**
   * Saves a setting's jsonData: checked against the schema of its series (templates) or the
   * picture schema (source settings); its series, system and input cannot change.
   */
  async update(caller: Caller, id: number, jsonData: string): Promise<calls.SettingRow> {
    const orgId = caller.user.orgId;
    const row = await this.own(orgId, id);
    const json = parseJson(jsonData);
    const checked =
      row.type === calls.SETTING_TYPES.template ? checkTemplate(row, json) : checkSource(row, json);
    const updated = await this.deps.repository.updateJson(
      orgId,
      id,
      JSON.stringify(checked),
      this.deps.clock.now(),
      entry(caller, 'settingTemplate.update', {
        k: 'settingChanged',
        v: { setting: rowTerm(row), fields: changesOf(row, checked) },
      }),
    );
    if (!updated) throw new Refusal('settingTemplate.notFound', 'notFound');
    return toRow(updated);
  }

  async remove(caller: Caller, id: number) {
    const row = await this.own(caller.user.orgId, id);
    const removed = await this.deps.repository.remove(
      caller.user.orgId,
      id,
      entry(caller, 'settingTemplate.delete', { k: 'setting', v: { setting: rowTerm(row) } }),
    );
    if (!removed) throw new Refusal('settingTemplate.notFound', 'notFound');
  }

  /** Pushes one saved setting (a template, or a source setting) to the chosen panels. */
  async pushSaved(caller: Caller, type: '0' | '1', id: number, deviceIds: number[]) {
    const orgId = caller.user.orgId;
    const row = await this.deps.repository.find(orgId, id);
    if (!row || row.type !== type) throw new Refusal('settingTemplate.notFound', 'notFound');
    const targets = await this.sendable(orgId, deviceIds);
    const item = itemOf(row);
    await this.refuseMismatches([item], targets);
    return this.push(caller, type === '0' ? 'template' : 'source', [item], targets);
  }

  /** The device detail's push selection: chosen saved settings to one panel, templates first. */
  async pushToDevice(caller: Caller, deviceId: number, ids: number[]) {
    const orgId = caller.user.orgId;
    const [target] = await this.sendable(orgId, [deviceId]);
    const rows = await this.deps.repository.findMany(orgId, ids);
    if (rows.length !== ids.length) throw new Refusal('settingTemplate.notFound', 'notFound');
    const items = [...rows]
      .sort((a, b) => a.type.localeCompare(b.type) || a.id - b.id)
      .map((row) => itemOf(row));
    await this.refuseMismatches(items, [target!]);
    return this.push(caller, 'selection', items, [target!]);
  }

  /** The device detail's source setting dialog: one input's picture to this panel. */
  async pushPicture(caller: Caller, deviceId: number, sourceType: device.SourceType, jsonData: string) {
    const [target] = await this.sendable(caller.user.orgId, [deviceId]);
    const series = target!.machine_type;
    if (!device.isSeries(series)) throw new Refusal('settingTemplate.seriesUnknown', 'declined');
    if (!device.sourceTypesOf(series).includes(sourceType))
      throw new Refusal('settingTemplate.sourceInvalid', 'invalid');
    const parsed = device.pictureSetting.safeParse(parseJson(jsonData));
    if (!parsed.success) throw new Refusal(device.settingIssueKey(parsed.error), 'invalid');
    const value = {
      platform: series,
      pictureSettings: { [sourceType]: parsed.data },
    } as device.SettingsChange;
    return this.push(caller, 'picture', [{ settingId: null, what: sourceType, series, value }], [target!]);
  }

  /** One page of a push's per-panel results, with the count of each result. */
  async pushResults(orgId: number, pushId: number, start: number, size: number) {
    const push = await this.deps.repository.findPush(orgId, pushId);
    if (!push) throw new Refusal('settingTemplate.pushNotFound', 'notFound');
    const { rows, groups } = await this.deps.repository.pushTargets(
      orgId,
      pushId,
      (Math.max(1, start) - 1) * size,
      size,
    );
    const counts = Object.fromEntries(calls.PUSH_RESULTS.map((r) => [r, 0])) as Record<
      calls.PushResult,
      number
    >;
    for (const group of groups) counts[resultOf(group.status, group.offline, group.detail)] += group.n;
    return {
      expiresAt: push.expires_at,
      counts,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      rows: rows.map((r): calls.PushTarget => ({
        deviceId: r.device_id,
        deviceName: r.device_name,
        deviceKey: r.device_key,
        settingId: r.setting_id,
        what: r.what,
        status: r.status,
        result: resultOf(r.status, r.offline_at_push === 1, r.detail),
        detail: r.detail,
        updateTime: r.updated_at,
      })),
    };
  }

  /** Stops a push for the panels it has not reached (they were off since); answers how many. */
  async cancelPush(caller: Caller, pushId: number) {
    const orgId = caller.user.orgId;
    const push = await this.deps.repository.findPush(orgId, pushId);
    if (!push) throw new Refusal('settingTemplate.pushNotFound', 'notFound');
    return this.deps.repository.cancelPush(
      orgId,
      pushId,
      this.deps.clock.now(),
      entry(caller, 'settingTemplate.push.cancel', { k: 'settingPushCancel', v: { push: pushId } }),
    );
  }

  /** The pictures a panel reported, per input in the catalogue's order. */
  async devicePictures(orgId: number, deviceId: number) {
    const found = await this.deps.devices.findById(orgId, deviceId);
    if (!found) throw new Refusal('device.notFound', 'notFound');
    const row = await this.deps.repository.picturesOf(orgId, deviceId);
    const pictures = row ? (JSON.parse(row.pictures) as Record<string, device.PictureSetting>) : {};
    return {
      series: device.isSeries(found.machine_type) ? found.machine_type : null,
      system: row?.system && device.isPanelSystem(row.system) ? row.system : null,
      rows: device.SOURCE_TYPES.filter((s) => pictures[s]).map((sourceType) => ({
        sourceType,
        picture: pictures[sourceType]!,
        reportedAt: row!.reported_at,
      })),
    };
  }

  private async own(orgId: number, id: number): Promise<SettingRecord> {
    const row = await this.deps.repository.find(orgId, id);
    if (!row) throw new Refusal('settingTemplate.notFound', 'notFound');
    return row;
  }

  /** The caller's devices by id, each enabled: another tenant's id reads as unknown. */
  private async sendable(orgId: number, deviceIds: number[]): Promise<DeviceRecord[]> {
    const found = await this.deps.devices.findByIds(orgId, deviceIds);
    if (found.length !== new Set(deviceIds).size) throw new Refusal('device.notFound', 'notFound');
    if (found.some((d) => d.state !== 1)) throw new Refusal('device.disabled', 'conflict');
    return found.sort((a, b) => a.id - b.id);
  }

  /**
   * Nothing is sent to a panel of another series than a setting's, nor a source setting to a
   * panel that reported another system: the whole push is refused, naming those panels.
   */
  private async refuseMismatches(items: PushItem[], targets: DeviceRecord[]) {
    for (const item of items) {
      const others = targets.filter((t) => t.machine_type !== item.series);
      if (others.length)
        throw new Refusal('settingTemplate.seriesMismatch', 'declined', {
          series: item.series,
          names: names(others),
        });
    }
    const sourceItems = items.filter((i) => i.system);
    if (!sourceItems.length) return;
    const systems = await this.deps.repository.systemsOf(
      targets[0]!.org_id,
      targets.map((t) => t.id),
    );
    for (const item of sourceItems) {
      // In enrollment order, whatever order the targets were read in (the message must not vary).
      const others = targets
        .filter((t) => systems.has(t.id) && systems.get(t.id) !== item.system)
        .sort((a, b) => a.id - b.id);
      if (others.length)
        throw new Refusal('settingTemplate.systemMismatch', 'declined', {
          system: item.system!,
          names: names(others),
        });
    }
  }

  /**
   * One SETTINGS command per panel and item, recorded with the push in one transaction and then
   * published to the panels that listen; the others get theirs when they come back, until it expires.
   */
  private async push(caller: Caller, kind: PushKind, items: PushItem[], targets: DeviceRecord[]) {
    const { user } = caller;
    const now = this.deps.clock.now();
    const commandTargets: Target[] = targets.map((t) => ({ id: t.id, deviceKey: t.device_key }));
    const commands: CommandRecord[] = [];
    const pushTargets: NewPushTarget[] = [];
    for (const item of items) {
      const rows = this.deps.commands.prepare(
        user.orgId,
        user.id,
        commandTargets,
        'SETTINGS',
        item.value,
        calls.SETTING_PUSH_TTL_MS,
      );
      commands.push(...rows);
      for (const row of rows)
        pushTargets.push({
          command_id: row.id,
          org_id: user.orgId,
          device_id: row.device_id,
          setting_id: item.settingId,
          what: item.what,
          offline_at_push: row.status === 'queued' ? 1 : 0,
        });
    }
    const pushId = await this.deps.repository.recordPush(
      {
        org_id: user.orgId,
        kind,
        created_by: user.id,
        created_at: now,
        expires_at: now + calls.SETTING_PUSH_TTL_MS,
      },
      commands,
      pushTargets,
      entry(caller, `settingTemplate.push.${kind}`, {
        k: 'settingPush',
        v: {
          settings: items.map(pushItemTerm),
          count: oplog.counted('panel', targets.length),
          devices: oplog.someOf(targets.map((t) => t.name)),
        },
      }),
    );
    this.deps.commands.release(commands, commandTargets);
    return { pushId, count: commands.length };
  }
}

/** The panels named in a message, by name (a query's row order is no order on PostgreSQL). */
const names = (devices: DeviceRecord[], shown = NAMES_SHOWN) =>
  [...devices]
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id)
    .slice(0, shown)
    .map((d) => (d.machine_type ? `${d.name} (${d.machine_type})` : d.name))
    .join(', ') + (devices.length > shown ? ` … +${devices.length - shown}` : '');

/** What pushing a saved setting sends: a template's complete settings, or one input's picture. */
export function itemOf(row: SettingRecord): PushItem {
  const series = row.series as device.Series;
  const json = JSON.parse(row.json_data) as unknown;
  if (row.type === calls.SETTING_TYPES.template) {
    const template = device.templateJson.parse(json);
    return {
      settingId: row.id,
      what: series,
      series,
      value: { platform: series, platformMsg: template.platformMsg } as device.SettingsChange,
    };
  }
  const { platform: system, sourceType, ...picture } = device.sourceSettingJson.parse(json);
  return {
    settingId: row.id,
    what: sourceType,
    series,
    system,
    value: { platform: series, system, pictureSettings: { [sourceType]: picture } } as device.SettingsChange,
  };
}

function resultOf(status: string, offlineAtPush: boolean, detail: string): calls.PushResult {
  switch (status) {
    case 'queued':
      return offlineAtPush ? 'offline' : 'sending';
    case 'sent':
    case 'delivered':
      return 'sending';
    case 'succeeded':
      return offlineAtPush ? 'offlineApplied' : 'applied';
    case 'failed':
      return detail === calls.PUSH_CANCELLED_DETAIL ? 'cancelled' : 'refused';
    default:
      return 'expired';
  }
}

export function toRow(row: SettingRecord): calls.SettingRow {
  return {
    id: row.id,
    type: row.type,
    series: row.series as device.Series,
    platform: row.system as device.PanelSystem | null,
    sourceType: row.source_type as device.SourceType | null,
    jsonData: row.json_data,
    createTime: row.created_at,
    updateTime: row.updated_at,
  };
}
