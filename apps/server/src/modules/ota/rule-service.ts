import { oplog, timeZoneOffset, parseLocalDateTime, type otaRules } from '@panelfleet/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { OtaRuleRepository, RuleRecord } from './rule-repository.js';

type RuleFields = { name: string; remark: string; enableIp: 0 | 1; enableSn: 0 | 1; enableTimezone: 0 | 1 };
type Rule = z.infer<typeof otaRules.otaRule>;

/** Upgrade policies (spec 3 section 2.2): owned by the caller's organisation. */
export class OtaRuleService {
  constructor(private readonly deps: { rules: OtaRuleRepository; log: OperationLog; clock: Clock }) {}

  async list(caller: SessionUser, p: { start: number; size: number; name?: string }) {
    const { rows, total } = await this.deps.rules.page(
      caller.orgId,
      pageOffset(p.start, p.size),
      p.size,
      p.name,
    );
    const counts = await this.deps.rules.listCounts(rows.map((r) => r.id));
    const out: Rule[] = rows.map((r) => ({
      otaRuleId: r.id,
      name: r.name,
      remark: r.remark,
      creationDate: r.created_at,
      enableIp: r.enable_ip === 1 ? 1 : 0,
      enableTimezone: r.enable_timezone === 1 ? 1 : 0,
      enableSn: r.enable_sn === 1 ? 1 : 0,
      ipCount: counts.ips.get(r.id) ?? 0,
      timeZoneCount: counts.zones.get(r.id) ?? 0,
      snCount: counts.sns.get(r.id) ?? 0,
      fileCount: counts.files.get(r.id) ?? 0,
    }));
    return { rows: out, total };
  }

  async options(caller: SessionUser) {
    return (await this.deps.rules.options(caller.orgId)).map((r) => ({ otaRuleId: r.id, name: r.name }));
  }

  async add(caller: SessionUser, ip: string, f: RuleFields) {
    const now = this.deps.clock.now();
    const id = await this.deps.rules.insert({
      org_id: caller.orgId,
      name: f.name,
      remark: f.remark,
      enable_ip: f.enableIp,
      enable_sn: f.enableSn,
      enable_timezone: f.enableTimezone,
      created_at: now,
      updated_at: now,
    });
    if (id === undefined) throw new Refusal('otaRule.nameTaken', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'otaRule.add', { k: 'name', v: { name: f.name } });
    return id;
  }

  async update(caller: SessionUser, ip: string, id: number, f: RuleFields) {
    await this.find(caller, id);
    const ok = await this.deps.rules.update(caller.orgId, id, {
      name: f.name,
      remark: f.remark,
      enable_ip: f.enableIp,
      enable_sn: f.enableSn,
      enable_timezone: f.enableTimezone,
      updated_at: this.deps.clock.now(),
    });
    if (!ok) throw new Refusal('otaRule.nameTaken', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'otaRule.update', { k: 'name', v: { name: f.name } });
  }

  async delete(caller: SessionUser, ip: string, id: number) {
    const rule = await this.find(caller, id);
    const files = (await this.deps.rules.listCounts([id])).files.get(id) ?? 0;
    if (files) throw new Refusal('otaRule.inUse', 'conflict', { count: files });
    await this.deps.rules.delete(caller.orgId, id);
    await this.deps.log.recordBy(caller, ip, 'otaRule.delete', { k: 'name', v: { name: rule.name } });
  }

  async find(caller: SessionUser, id: number): Promise<RuleRecord> {
    const rule = await this.deps.rules.find(caller.orgId, id);
    if (!rule) throw new Refusal('otaRule.notFound', 'notFound');
    return rule;
  }

  // ---- time zones ----
  async zones(caller: SessionUser, p: { otaRuleId: number; start: number; size: number }) {
    await this.find(caller, p.otaRuleId);
    const { rows, total } = await this.deps.rules.zonePage(p.otaRuleId, pageOffset(p.start, p.size), p.size);
    return {
      rows: rows.map((z) => ({
        otaRuleListId: z.id,
        otaRuleId: z.rule_id,
        timeZone: z.time_zone,
        startTime: z.start_time,
        startAt: z.start_at,
        remark: z.remark,
      })),
      total,
    };
  }

  private zoneRow(ruleId: number, f: { timeZone: string; startTime: string; remark: string }) {
    const offset = timeZoneOffset(f.timeZone)!;
    const startAt = parseLocalDateTime(f.startTime, offset)!;
    const local = new Date(startAt + offset * 60_000).toISOString();
    return {
      rule_id: ruleId,
      time_zone: f.timeZone.trim(),
      utc_offset: offset,
      start_time: `${local.slice(0, 10)} ${local.slice(11, 19)}`,
      start_at: startAt,
      remark: f.remark,
    };
  }

  async addZone(
    caller: SessionUser,
    ip: string,
    f: { otaRuleId: number; timeZone: string; startTime: string; remark: string },
  ) {
    const rule = await this.find(caller, f.otaRuleId);
    const id = await this.deps.rules.insertZone(this.zoneRow(rule.id, f));
    if (id === undefined) throw new Refusal('otaRule.zoneTaken', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'otaRule.zone', {
      k: 'policyWindow',
      v: { policy: rule.name, zone: f.timeZone, start: f.startTime },
    });
    return id;
  }

  async updateZone(
    caller: SessionUser,
    ip: string,
    f: { otaRuleId: number; otaRuleListId: number; timeZone: string; startTime: string; remark: string },
  ) {
    const zone = await this.deps.rules.findZone(caller.orgId, f.otaRuleListId);
    if (!zone || zone.rule_id !== f.otaRuleId) throw new Refusal('otaRule.zoneNotFound', 'notFound');
    if (!(await this.deps.rules.updateZone(zone.id, this.zoneRow(zone.rule_id, f))))
      throw new Refusal('otaRule.zoneTaken', 'conflict');
    const rule = await this.find(caller, zone.rule_id);
    await this.deps.log.recordBy(caller, ip, 'otaRule.zone', {
      k: 'policyWindow',
      v: { policy: rule.name, zone: f.timeZone, start: f.startTime },
    });
  }

  async deleteZone(caller: SessionUser, ip: string, id: number) {
    const zone = await this.deps.rules.findZone(caller.orgId, id);
    if (!zone) throw new Refusal('otaRule.zoneNotFound', 'notFound');
    const rule = await this.find(caller, zone.rule_id);
    await this.deps.rules.deleteZone(zone.id);
    await this.deps.log.recordBy(caller, ip, 'otaRule.zone', {
      k: 'policyWindowDeleted',
      v: { policy: rule.name, zone: zone.time_zone },
    });
  }

  // ---- ips ----
  async ips(caller: SessionUser, p: { otaRuleId: number; start: number; size: number }) {
    await this.find(caller, p.otaRuleId);
    const { rows, total } = await this.deps.rules.ipPage(p.otaRuleId, pageOffset(p.start, p.size), p.size);
    return { rows: rows.map((r) => ({ otaRuleWhiteId: r.id, otaRuleId: r.rule_id, ip: r.ip })), total };
  }

  async addIp(caller: SessionUser, ipOfCaller: string, ruleId: number, ip: string) {
    const rule = await this.find(caller, ruleId);
    const id = await this.deps.rules.insertIp(rule.id, ip.trim());
    if (id === undefined) throw new Refusal('otaRule.ipTaken', 'conflict');
    await this.deps.log.recordBy(caller, ipOfCaller, 'otaRule.ip', {
      k: 'policyIp',
      v: { policy: rule.name, ip: ip.trim() },
    });
    return id;
  }

  async deleteIp(caller: SessionUser, ipOfCaller: string, id: number) {
    const row = await this.deps.rules.findIp(caller.orgId, id);
    if (!row) throw new Refusal('otaRule.ipNotFound', 'notFound');
    const rule = await this.find(caller, row.rule_id);
    await this.deps.rules.deleteIp(row.id);
    await this.deps.log.recordBy(caller, ipOfCaller, 'otaRule.ip', {
      k: 'policyIpDeleted',
      v: { policy: rule.name, ip: row.ip },
    });
  }

  // ---- serial numbers ----
  async serials(
    caller: SessionUser,
    p: { otaRuleId: number; start: number; size: number; deviceKey?: string },
  ) {
    await this.find(caller, p.otaRuleId);
    const { rows, total } = await this.deps.rules.snPage(
      p.otaRuleId,
      pageOffset(p.start, p.size),
      p.size,
      p.deviceKey,
    );
    return {
      rows: rows.map((r) => ({ otaRuleSnId: r.id, otaRuleId: r.rule_id, deviceKey: r.device_key })),
      total,
    };
  }

  async addSerials(caller: SessionUser, ip: string, ruleId: number, keys: string[]) {
    const rule = await this.find(caller, ruleId);
    const result = await this.deps.rules.insertSerials(rule.id, keys);
    await this.deps.log.recordBy(caller, ip, 'otaRule.sn', {
      k: 'policySerialsAdded',
      v: { policy: rule.name, count: oplog.counted('serialNumber', result.added) },
    });
    return result;
  }

  async deleteSerial(caller: SessionUser, ip: string, id: number) {
    const row = await this.deps.rules.findSerial(caller.orgId, id);
    if (!row) throw new Refusal('otaRule.snNotFound', 'notFound');
    const rule = await this.find(caller, row.rule_id);
    await this.deps.rules.deleteSerial(row.id);
    await this.deps.log.recordBy(caller, ip, 'otaRule.sn', {
      k: 'policySerialRemoved',
      v: { policy: rule.name, serial: row.device_key },
    });
  }

  async clearSerials(caller: SessionUser, ip: string, ruleId: number) {
    const rule = await this.find(caller, ruleId);
    const removed = await this.deps.rules.clearSerials(rule.id);
    await this.deps.log.recordBy(caller, ip, 'otaRule.sn', {
      k: 'policySerialsRemoved',
      v: { policy: rule.name, count: oplog.counted('serialNumber', removed) },
    });
    return removed;
  }
}
