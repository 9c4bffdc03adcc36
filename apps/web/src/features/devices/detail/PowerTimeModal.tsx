import { useState } from 'react';
import { Form, Modal, Switch, Tag, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { testHook } from '../../../lists/FormModal';

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
  // Start from the reported values each time the dialog opens (set while rendering, before any input).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setDraft(value);
  }
  const [sending, setSending] = useState(false);
  const days = device.weekdaysOf(draft.week);
  const toggle = (day: device.Weekday, on: boolean) => setDraft({ ...draft, week: device.weekOf(on ? [...days, day] : days.filter((d) => d !== day)) });
  const ok = async () => {
    setSending(true);
    const sent = await onSend(draft);
    setSending(false);
    if (sent) onClose();
  };
  return (
    <Modal
      title={t(kind === 'on' ? 'deviceDetail.autoPowerOn' : 'deviceDetail.autoPowerOff')}
      open={open}
      onOk={() => void ok()}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      okButtonProps={testHook(`power-${kind}-ok`)}
      destroyOnHidden
      modalRender={(node) => <div data-testid={`power-${kind}-modal`}>{node}</div>}
    >
      <Form layout="horizontal" labelCol={{ span: 6 }}>
        <Form.Item label={t('deviceDetail.enabled')}>
          <Switch checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} data-testid={`power-${kind}-switch`} />
        </Form.Item>
        <Form.Item label={t('deviceDetail.weekdays')}>
          {device.WEEKDAYS.map((day) => (
            <Tag.CheckableTag key={day} checked={days.includes(day)} onChange={(on) => toggle(day, on)} data-day={day}>
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
    </Modal>
  );
}
