import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import { alerts, messageCatalogs, type ViewName } from '@panelfleet/contract';
import en from '../locales/alerts.en-US.json';
import zh from '../locales/alerts.zh-CN.json';
import { CONTRACT_NS } from '../../../i18n';
import { detailText, subjectPath } from './alertColumns';

async function translator(language: 'en-US' | 'zh-CN') {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: {
      [language]: { translation: language === 'en-US' ? en : zh, [CONTRACT_NS]: messageCatalogs[language] },
    },
    interpolation: { escapeValue: false },
  });
  return i18n;
}

const alert = (detailKey: string, detailVars: alerts.Alert['detailVars']): alerts.Alert => ({
  id: 1,
  ruleId: 1,
  ruleName: 'Hot rooms',
  kind: 'threshold',
  severity: 'major',
  state: 'active',
  subject: { type: 'device', id: '5', name: 'Room 3', deviceKey: 'SN-3' },
  companyId: 2,
  companyName: 'Riverside School',
  detailKey,
  detailVars,
  raisedAt: 0,
  lastSeenAt: 0,
  acknowledgedAt: null,
  acknowledgedBy: null,
  note: null,
  clearedAt: null,
  clearedBy: null,
});

describe('what was seen', () => {
  it('renders every detail message of the contract catalogs with its values, the watched value in words', async () => {
    for (const language of ['en-US', 'zh-CN'] as const) {
      const i18n = await translator(language);
      const details = (messageCatalogs[language] as { alert: { detail: Record<string, string> } }).alert
        .detail;
      expect(Object.keys(details).length).toBeGreaterThan(0);
      for (const key of Object.keys(details)) {
        const vars = {
          minutes: 5,
          metric: 'cpuTemperature',
          value: 81,
          threshold: 80,
          count: 3,
          failed: 2,
          total: 9,
          percent: 22,
          days: 7,
        };
        const text = detailText(alert(`alert.detail.${key}`, vars), i18n.t, (k) => i18n.exists(k));
        expect(text, key).not.toMatch(/\{\{|alert\.detail|cpuTemperature/);
      }
    }
    const i18n = await translator('en-US');
    expect(
      detailText(
        alert('alert.detail.above', { metric: 'cpuTemperature', value: 81, threshold: 80 }),
        i18n.t,
        (k) => i18n.exists(k),
      ),
    ).toBe('CPU temperature (°C) is 81, above 80');
  });

  it('names the kind when the key is unknown to this console', async () => {
    const i18n = await translator('zh-CN');
    expect(detailText(alert('alert.detail.newer', {}), i18n.t, (k) => i18n.exists(k))).toBe('上报值超过阈值');
  });
});

describe('subject links', () => {
  const views = (...names: ViewName[]) => new Set<ViewName>(names);
  it('open the task list, programs, certificates or licences the user may open, and nothing else', () => {
    const task = (taskKind: alerts.AlertTaskKind) => ({
      type: 'task' as const,
      id: `${taskKind}:4`,
      name: 'T',
      taskKind,
    });
    expect(subjectPath(task('ota'), views('renew'))).toBe('/home/renew');
    expect(subjectPath(task('apk'), views('index2'))).toBeUndefined();
    expect(subjectPath(task('program'), views('Broadcast'))).toBe('/home/Broadcast?tab=program');
    expect(subjectPath({ type: 'certificate', id: '1', name: 'C' }, views('certificate'))).toBe(
      '/home/certificate',
    );
    expect(subjectPath({ type: 'licence', id: '1', name: 'L' }, views('saleMan'))).toBe('/home/saleMan');
    expect(subjectPath({ type: 'licence', id: '1', name: 'L' }, views())).toBeUndefined();
  });
});
