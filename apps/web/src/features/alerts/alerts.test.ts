import { describe, expect, it } from 'vitest';
import { alerts, webhooks } from '@panelfleet/contract';
import en from './locales/alerts.en-US.json';
import zh from './locales/alerts.zh-CN.json';
import { filterParams, OPEN_ALERTS } from './centreFilter';
import { formToInput, KIND_FIELDS, NEW_RULE, ruleToForm } from './ruleForm';
import { bellColor } from './bellColor';
import { conditionText } from './words';

function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}
const lookup = (catalog: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown> | undefined)?.[k], catalog);

/** A translate that fails on a missing key and fills {{values}} like i18next. */
const translate =
  (catalog: unknown) =>
  (key: string, vars: Record<string, string | number> = {}): string => {
    const text = lookup(catalog, key);
    if (typeof text !== 'string') throw new Error(`missing ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
  };

describe('alert console catalogs', () => {
  it('zh-CN and en-US have identical key sets and no empty message', () => {
    expect(leafKeys(zh).sort()).toEqual(leafKeys(en).sort());
    for (const catalog of [zh, en])
      for (const key of leafKeys(catalog)) {
        const value = lookup(catalog, key);
        expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
      }
  });

  it('names every severity, state, kind, metric, task kind, event and delivery state of the contract', () => {
    const keys = new Set(leafKeys(en));
    const expected = [
      ...alerts.ALERT_SEVERITIES.map((s) => `alerts.severity.${s}`),
      ...alerts.ALERT_STATES.map((s) => `alerts.state.${s}`),
      ...alerts.ALERT_RULE_KINDS.map((k) => `alerts.kind.${k}`),
      ...alerts.ALERT_METRICS.map((m) => `alerts.metric.${m}`),
      ...alerts.TASK_KINDS.map((k) => `alerts.taskKind.${k}`),
      ...webhooks.WEBHOOK_EVENTS.map((e) => `alerts.event.${e}`),
      ...webhooks.DELIVERY_STATES.map((s) => `alerts.deliveryState.${s}`),
    ];
    for (const key of expected) expect(keys.has(key), key).toBe(true);
  });
});

describe('the rule dialog', () => {
  it('has a form for every condition kind of the contract, each accepted by the save call', () => {
    expect(Object.keys(KIND_FIELDS).sort()).toEqual([...alerts.ALERT_RULE_KINDS].sort());
    for (const kind of alerts.ALERT_RULE_KINDS) {
      const input = formToInput({ ...NEW_RULE, name: `rule ${kind}`, kind }, undefined);
      const parsed = alerts.alertRuleInput.safeParse(input);
      expect(parsed.success, `${kind}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(Object.keys(input.condition).sort()).toEqual(['kind', ...KIND_FIELDS[kind]].sort());
    }
  });

  it('sends only the chosen kind parameters and the rule id when editing', () => {
    const input = formToInput(
      { ...NEW_RULE, name: 'Hot', kind: 'threshold', value: 70, direction: 'below' },
      7,
    );
    expect(input).toMatchObject({
      id: 7,
      condition: { kind: 'threshold', metric: 'cpuTemperature', direction: 'below', value: 70 },
    });
    expect(input.condition).not.toHaveProperty('minutes');
  });

  it('shows a saved rule as it was saved', () => {
    const rule: alerts.AlertRule = {
      id: 3,
      name: 'Dark rooms',
      enabled: false,
      severity: 'critical',
      condition: { kind: 'abnormalLogs', count: 5, minutes: 15, apps: ['player'] },
      durationSeconds: 120,
      labelIds: [4],
      labelNames: ['Floor 2'],
      channels: { emailUserIds: [9], emailAddresses: ['a@b.cn'], emailMode: 'digest', webhookIds: [2] },
      createdBy: 'ops',
      createdAt: 1,
      updatedAt: 2,
      openAlerts: 0,
    };
    const input = formToInput(ruleToForm(rule), rule.id);
    expect(alerts.alertRuleInput.parse(input)).toEqual({
      id: 3,
      name: rule.name,
      enabled: false,
      severity: 'critical',
      condition: rule.condition,
      durationSeconds: 120,
      labelIds: [4],
      channels: rule.channels,
    });
  });

  it('says what every kind watches in both languages', () => {
    for (const catalog of [en, zh])
      for (const kind of alerts.ALERT_RULE_KINDS) {
        const condition = alerts.alertCondition.parse(
          formToInput({ ...NEW_RULE, kind }, undefined).condition,
        );
        const text = conditionText(condition, translate(catalog));
        expect(text, kind).not.toMatch(/\{\{|undefined/);
      }
    expect(conditionText({ kind: 'offline', minutes: 10 }, translate(en))).toBe(
      'Panel offline longer than 10 min',
    );
    expect(
      conditionText({ kind: 'taskFailures', taskKinds: ['ota', 'apk'], percent: 30 }, translate(zh)),
    ).toBe('OTA、APK任务：失败设备超过 30 %');
  });
});

describe('the centre and the bell', () => {
  it('asks for open alerts by default and leaves empty filters out', () => {
    expect(filterParams(OPEN_ALERTS)).toEqual({ states: 'active,acknowledged' });
    const params = filterParams({
      states: [],
      severities: ['critical', 'minor'],
      ruleIds: [1, 2],
      q: '  room 3 ',
      from: 10,
      to: 20,
    });
    expect(params).toEqual({ severities: 'critical,minor', ruleIds: '1,2', q: 'room 3', from: 10, to: 20 });
    expect(alerts.alertFilter.parse(params)).toMatchObject({
      severities: ['critical', 'minor'],
      ruleIds: [1, 2],
    });
  });

  it('takes the colour of the most urgent active severity', () => {
    expect(bellColor({ critical: 0, major: 0, minor: 2, info: 5 })).toBe(bellColor({ minor: 1 }));
    expect(bellColor({ critical: 1, info: 5 })).not.toBe(bellColor({ info: 5 }));
    expect(bellColor({ critical: 0, major: 0, minor: 0, info: 0 })).toBeUndefined();
  });
});
