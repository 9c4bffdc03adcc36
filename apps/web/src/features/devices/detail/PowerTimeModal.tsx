import { useState } from 'react';
import { Form, Switch, Tag, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';
import { SendModal } from './SendModal';

export interface PowerTime {
  enabled: boolean;
  time: string;
  week: string;
}

interface PowerTimeModalProps {
  kind: 'on' | 'off';
  open: boolean;
  value: PowerTime;
  onSend(value: PowerTime): Promise<boolean>;
  onClose(): void;
}

/** Auto power-on or power-off: weekday tags and an HH:mm time that cannot be cleared. */
export function PowerTimeModal({ kind, open, value, onSend, onClose }: PowerTimeModalProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  useResetOnOpen(open, () => setDraft(value));
  const days = device.weekdaysOf(draft.week);
  const toggle = (day: device.Weekday, on: boolean) =>
    setDraft({ ...draft, week: device.weekOf(on ? [...days, day] : days.filter((d) => d !== day)) });
  return (
    <SendModal
      title={t(kind === 'on' ? 'deviceDetail.autoPowerOn' : 'deviceDetail.autoPowerOff')}
      open={open}
      onClose={onClose}
      send={() => onSend(draft)}
      testId={`power-${kind}-modal`}
      okTestId={`power-${kind}-ok`}
    >
      <Form layout="horizontal" labelCol={{ span: 6 }}>
        <Form.Item label={t('deviceDetail.enabled')}>
          <Switch
            checked={draft.enabled}
            onChange={(enabled) => setDraft({ ...draft, enabled })}
            data-testid={`power-${kind}-switch`}
          />
        </Form.Item>
        <Form.Item label={t('deviceDetail.weekdays')}>
          {device.WEEKDAYS.map((day) => (
            <Tag.CheckableTag
              key={day}
              checked={days.includes(day)}
              onChange={(on) => toggle(day, on)}
              data-day={day}
            >
              {t(`deviceDetail.weekday.${day}`)}
            </Tag.CheckableTag>
          ))}
        </Form.Item>
        <Form.Item label={t('deviceDetail.time')}>
          <TimePicker
            format="HH:mm"
            allowClear={false}
            value={dayjs(`2000-01-01T${draft.time}`)}
            onChange={(time) => time && setDraft({ ...draft, time: time.format('HH:mm') })}
            data-testid={`power-${kind}-time`}
          />
        </Form.Item>
      </Form>
    </SendModal>
  );
}
