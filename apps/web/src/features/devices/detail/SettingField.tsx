import { InputNumber, Select, Switch, Tag, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import type { SettingField } from './settingFields';

const LANGUAGE_NAMES = new Map<string, string>(device.TERMINAL_LANGUAGES);

interface SettingControlProps {
  field: SettingField;
  value: unknown;
  disabledOptions?: Set<string>;
  onChange(value: unknown): void;
}

/** One setting's control, chosen by the kind of value the panel's schema holds. */
export function SettingControl({ field, value, disabledOptions, onChange }: SettingControlProps) {
  const { t } = useTranslation();
  const testId = `setting-${field.section}-${field.name}`;
  const optionLabel = (option: string) =>
    field.name === 'language'
      ? (LANGUAGE_NAMES.get(option) ?? option)
      : t(`deviceDetail.option.${option}`, { defaultValue: option });
  switch (field.kind.kind) {
    case 'bool':
      return <Switch size="small" checked={value === true} onChange={onChange} data-testid={testId} />;
    case 'choice':
      return (
        <Select
          size="small"
          style={{ width: 150 }}
          value={value as string}
          onChange={onChange}
          showSearch={field.name === 'language'}
          optionFilterProp="label"
          options={field.kind.options.map((o) => ({
            value: o,
            label: optionLabel(o),
            disabled: disabledOptions?.has(o),
          }))}
          data-testid={testId}
        />
      );
    case 'time':
      return (
        <TimePicker
          size="small"
          format="HH:mm"
          allowClear={false}
          value={dayjs(`2000-01-01T${String(value)}`)}
          onChange={(time) => time && onChange(time.format('HH:mm'))}
          data-testid={testId}
        />
      );
    case 'week': {
      const days = device.weekdaysOf(String(value ?? ''));
      return (
        <div data-testid={testId}>
          {device.WEEKDAYS.map((day) => (
            <Tag.CheckableTag
              key={day}
              checked={days.includes(day)}
              data-day={day}
              onChange={(on) => onChange(device.weekOf(on ? [...days, day] : days.filter((d) => d !== day)))}
            >
              {t(`deviceDetail.weekday.${day}`)}
            </Tag.CheckableTag>
          ))}
        </div>
      );
    }
    case 'energy': {
      const presets: Array<number | 'never'> = [...device.ENERGY_SAVING_PRESETS, 'never'];
      if (typeof value === 'number' && !presets.includes(value)) presets.unshift(value);
      return (
        <Select
          size="small"
          style={{ width: 150 }}
          value={value as number | 'never'}
          onChange={onChange}
          options={presets.map((p) => ({
            value: p,
            label: p === 'never' ? t('deviceDetail.never') : t('deviceDetail.minutes', { count: p }),
          }))}
          data-testid={testId}
        />
      );
    }
    case 'level':
      return (
        <InputNumber
          size="small"
          min={0}
          max={100}
          precision={0}
          value={value as number}
          onChange={(v) => v !== null && onChange(v)}
          data-testid={testId}
        />
      );
  }
}
