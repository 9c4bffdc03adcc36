import { useState, type ReactNode } from 'react';
import { Button, Descriptions, Slider, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { EnergySavingModal } from '../devices/detail/EnergySavingModal';
import { PowerTimeModal, type PowerTime } from '../devices/detail/PowerTimeModal';
import { SettingControl } from '../devices/detail/SettingField';
import {
  fieldsOf,
  isExtensionFeature,
  switchFeature,
  takenSources,
  valueOf,
  withValue,
  type SectionValues,
  type SettingField,
} from '../devices/detail/settingFields';

type Power = device.X9Settings['powerOnOffSetting'];

interface TemplateSectionProps {
  series: device.Series;
  section: device.SettingSection;
  /** The template's platformMsg. */
  values: SectionValues;
  onChange(values: SectionValues): void;
}

/** The fields the power pickers edit; the section's other fields (CEC on oem and rs) are plain controls. */
const PICKED = new Set([
  'autoPowerOn',
  'powerOnTime',
  'powerOnWeek',
  'autoPowerOff',
  'powerOffTime',
  'powerOffWeek',
  'energySaving',
]);

/**
 * One section of a template editor: the fields its series has, read from the contract's schema
 * of that series (so the editor offers exactly what a panel accepts), with the spec's pickers
 * for power times and energy saving, a percent slider for the blue light filter and the
 * newline-extension source rules.
 */
export function TemplateSection({ series, section, values, onChange }: TemplateSectionProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'on' | 'off' | 'energy'>();
  const fields = fieldsOf(series).find((s) => s.section === section)?.fields ?? [];

  const set = (field: SettingField, value: unknown) => {
    let next = withValue(values, field, value);
    if (field.section === 'newlineExtension' && isExtensionFeature(field.name))
      next = {
        ...next,
        newlineExtension: switchFeature(
          values.newlineExtension as Record<string, unknown>,
          field.name,
          value === true,
        ),
      };
    onChange(next);
  };
  const disabledOptions = (field: SettingField) => {
    if (field.section !== 'newlineExtension' || !field.name.endsWith('Source')) return undefined;
    const feature = field.name.slice(0, -'Source'.length);
    return isExtensionFeature(feature)
      ? takenSources(values.newlineExtension as Record<string, unknown>, feature)
      : undefined;
  };
  const row = (field: SettingField, control: ReactNode) => (
    <div
      key={field.name}
      data-field={field.name}
      style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '8px 0' }}
    >
      <Typography.Text>{t(`deviceDetail.field.${field.name}`)}</Typography.Text>
      {control}
    </div>
  );
  const plain = (field: SettingField) =>
    row(
      field,
      <SettingControl
        field={field}
        value={valueOf(values, field)}
        disabledOptions={disabledOptions(field)}
        onChange={(v) => set(field, v)}
      />,
    );

  if (section === 'powerOnOffSetting') {
    const power = values.powerOnOffSetting as Power;
    const setPower = (change: Partial<Power>) =>
      onChange({ ...values, powerOnOffSetting: { ...power, ...change } });
    const days = (week: string) => {
      const list = device.weekdaysOf(week);
      return list.length
        ? list.map((d) => <Tag key={d}>{t(`deviceDetail.weekday.${d}`)}</Tag>)
        : t('deviceDetail.noDays');
    };
    const schedule = (kind: 'on' | 'off', p: PowerTime) => (
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
        <Space orientation="vertical" size={2} data-testid={`template-power-${kind}-value`}>
          <span>
            {p.enabled ? `${t('deviceDetail.enabled')} · ${p.time}` : t('deviceDetail.disabledState')}
          </span>
          <span>{days(p.week)}</span>
        </Space>
        <Button size="small" onClick={() => setDialog(kind)} data-testid={`template-power-${kind}`}>
          {t('settingPage.edit')}
        </Button>
      </Space>
    );
    const on: PowerTime = { enabled: power.autoPowerOn, time: power.powerOnTime, week: power.powerOnWeek };
    const off: PowerTime = {
      enabled: power.autoPowerOff,
      time: power.powerOffTime,
      week: power.powerOffWeek,
    };
    return (
      <div data-testid="template-section-powerOnOffSetting">
        <Descriptions column={1} size="small" bordered styles={{ label: { width: 170 } }}>
          <Descriptions.Item label={t('deviceDetail.autoPowerOn')}>{schedule('on', on)}</Descriptions.Item>
          <Descriptions.Item label={t('deviceDetail.autoPowerOff')}>{schedule('off', off)}</Descriptions.Item>
          <Descriptions.Item label={t('deviceDetail.energySaving')}>
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              <span data-testid="template-energy-value">
                {power.energySaving === 'never'
                  ? t('deviceDetail.never')
                  : t('deviceDetail.minutes', { count: power.energySaving })}
              </span>
              <Button size="small" onClick={() => setDialog('energy')} data-testid="template-energy">
                {t('settingPage.edit')}
              </Button>
            </Space>
          </Descriptions.Item>
        </Descriptions>
        {fields.filter((f) => !PICKED.has(f.name)).map(plain)}
        <PowerTimeModal
          kind="on"
          open={dialog === 'on'}
          value={on}
          onSend={(v) => {
            setPower({ autoPowerOn: v.enabled, powerOnTime: v.time, powerOnWeek: v.week });
            return Promise.resolve(true);
          }}
          onClose={() => setDialog(undefined)}
        />
        <PowerTimeModal
          kind="off"
          open={dialog === 'off'}
          value={off}
          onSend={(v) => {
            setPower({ autoPowerOff: v.enabled, powerOffTime: v.time, powerOffWeek: v.week });
            return Promise.resolve(true);
          }}
          onClose={() => setDialog(undefined)}
        />
        <EnergySavingModal
          open={dialog === 'energy'}
          value={power.energySaving}
          onSend={(energySaving) => {
            setPower({ energySaving });
            return Promise.resolve(true);
          }}
          onClose={() => setDialog(undefined)}
        />
      </div>
    );
  }

  return (
    <div data-testid={`template-section-${section}`}>
      {fields.map((field) =>
        field.name === 'filterLevel'
          ? row(
              field,
              <Space>
                <Slider
                  style={{ width: 220 }}
                  min={0}
                  max={100}
                  value={valueOf(values, field) as number}
                  onChange={(v) => set(field, v)}
                  data-testid="setting-bluelightFilter-filterLevel"
                />
                <Typography.Text data-testid="template-filter-level">
                  {t('settingPage.percent', { value: valueOf(values, field) as number })}
                </Typography.Text>
              </Space>,
            )
          : plain(field),
      )}
      {section === 'inputOutputSetting' && series === 'oem' && (
        <Typography.Text type="secondary">{t('settingPage.sourceHidden')}</Typography.Text>
      )}
    </div>
  );
}
