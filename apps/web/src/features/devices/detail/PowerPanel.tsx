import { useState } from 'react';
import { Button, Descriptions, Empty, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { EnergySavingModal } from './EnergySavingModal';
import { PowerTimeModal, type PowerTime } from './PowerTimeModal';
import type { PanelSettings } from './useDeviceDetail';

type PowerSetting = device.X9Settings['powerOnOffSetting'];

interface PowerPanelProps {
  settings: PanelSettings | undefined;
  online: boolean;
  push(change: Record<string, unknown>): Promise<boolean>;
}

/** Device power: auto power-on and power-off times with weekdays, and energy saving, as the panel reports them. */
export function PowerPanel({ settings, online, push }: PowerPanelProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'on' | 'off' | 'energy'>();
  const power = settings?.rows.find((r) => r.section === 'powerOnOffSetting')?.value as
    PowerSetting | undefined;
  if (!power) return <Empty description={t('deviceDetail.settingsNotReported')} />;

  const days = (week: string) => {
    const list = device.weekdaysOf(week);
    return list.length
      ? list.map((d) => <Tag key={d}>{t(`deviceDetail.weekday.${d}`)}</Tag>)
      : t('deviceDetail.noDays');
  };
  const schedule = (enabled: boolean, time: string, week: string, kind: 'on' | 'off') => (
    <Space orientation="vertical" size={2} data-testid={`power-${kind}-value`}>
      <span>{enabled ? `${t('deviceDetail.enabled')} · ${time}` : t('deviceDetail.disabledState')}</span>
      {enabled && <span>{days(week)}</span>}
    </Space>
  );
  const powerTime = (kind: 'on' | 'off'): PowerTime =>
    kind === 'on'
      ? { enabled: power.autoPowerOn, time: power.powerOnTime, week: power.powerOnWeek }
      : { enabled: power.autoPowerOff, time: power.powerOffTime, week: power.powerOffWeek };
  const sendTime = (kind: 'on' | 'off', value: PowerTime) =>
    push({
      powerOnOffSetting:
        kind === 'on'
          ? { autoPowerOn: value.enabled, powerOnTime: value.time, powerOnWeek: value.week }
          : { autoPowerOff: value.enabled, powerOffTime: value.time, powerOffWeek: value.week },
    });
  const edit = (kind: 'on' | 'off' | 'energy') => (
    <Button
      size="small"
      disabled={!online}
      onClick={() => setDialog(kind)}
      data-testid={`edit-power-${kind}`}
    >
      {t('lists.edit')}
    </Button>
  );

  return (
    <div data-testid="panel-power">
      <Descriptions column={1} size="small" bordered styles={{ label: { width: 120 } }}>
        <Descriptions.Item label={t('deviceDetail.autoPowerOn')}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
            {schedule(power.autoPowerOn, power.powerOnTime, power.powerOnWeek, 'on')}
            {edit('on')}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceDetail.autoPowerOff')}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
            {schedule(power.autoPowerOff, power.powerOffTime, power.powerOffWeek, 'off')}
            {edit('off')}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceDetail.energySaving')}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <span data-testid="energy-value">
              {power.energySaving === 'never'
                ? t('deviceDetail.never')
                : t('deviceDetail.minutes', { count: power.energySaving })}
            </span>
            {edit('energy')}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <PowerTimeModal
        kind="on"
        open={dialog === 'on'}
        value={powerTime('on')}
        onSend={(v) => sendTime('on', v)}
        onClose={() => setDialog(undefined)}
      />
      <PowerTimeModal
        kind="off"
        open={dialog === 'off'}
        value={powerTime('off')}
        onSend={(v) => sendTime('off', v)}
        onClose={() => setDialog(undefined)}
      />
      <EnergySavingModal
        open={dialog === 'energy'}
        value={power.energySaving}
        onSend={(energySaving) => push({ powerOnOffSetting: { energySaving } })}
        onClose={() => setDialog(undefined)}
      />
    </div>
  );
}
