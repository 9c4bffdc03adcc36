import { useState } from 'react';
import { Alert, InputNumber, Radio, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';
import { SendModal } from './SendModal';
import { CONTRACT_NS } from '../../../i18n';

type Choice = `${(typeof device.ENERGY_SAVING_PRESETS)[number]}` | 'never' | 'custom';

const choiceOf = (value: device.EnergySaving): Choice =>
  value === 'never'
    ? 'never'
    : (device.ENERGY_SAVING_PRESETS as readonly number[]).includes(value)
      ? (String(value) as Choice)
      : 'custom';

interface EnergySavingModalProps {
  open: boolean;
  value: device.EnergySaving;
  onSend(value: device.EnergySaving): Promise<boolean>;
  onClose(): void;
}

/** Energy saving: 30, 60, 90 minutes, never, or a custom whole number of minutes (at least 3). */
export function EnergySavingModal({ open, value, onSend, onClose }: EnergySavingModalProps) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<Choice>(choiceOf(value));
  const [custom, setCustom] = useState<string>(typeof value === 'number' ? String(value) : '');
  const [problem, setProblem] = useState<string>();
  useResetOnOpen(open, () => {
    setChoice(choiceOf(value));
    setCustom(typeof value === 'number' ? String(value) : '');
    setProblem(undefined);
  });

  const send = () => {
    const chosen: unknown =
      choice === 'never'
        ? 'never'
        : choice === 'custom'
          ? /^\d+$/.test(custom.trim())
            ? Number(custom.trim())
            : NaN
          : Number(choice);
    const parsed = device.energySaving.safeParse(chosen);
    if (!parsed.success) {
      // The modal stays open (spec 2 section 5).
      setProblem(t(parsed.error.issues[0]?.message ?? 'setting.threeMin', { ns: CONTRACT_NS }));
      return undefined;
    }
    return onSend(parsed.data);
  };

  return (
    <SendModal
      title={t('deviceDetail.energySaving')}
      open={open}
      onClose={onClose}
      send={send}
      testId="energy-modal"
      okTestId="energy-ok"
    >
      <Radio.Group
        value={choice}
        onChange={(e) => {
          setChoice(e.target.value as Choice);
          setProblem(undefined);
        }}
      >
        <Space orientation="vertical">
          {device.ENERGY_SAVING_PRESETS.map((minutes) => (
            <Radio key={minutes} value={String(minutes)}>
              {t('deviceDetail.minutes', { count: minutes })}
            </Radio>
          ))}
          <Radio value="never">{t('deviceDetail.never')}</Radio>
          <Radio value="custom">
            <Space>
              {t('deviceDetail.custom')}
              <InputNumber
                min={1}
                disabled={choice !== 'custom'}
                value={custom === '' ? null : Number(custom)}
                onChange={(v) => {
                  setCustom(v === null ? '' : String(v));
                  setProblem(undefined);
                }}
                data-testid="energy-custom"
              />
              {t('deviceDetail.minuteUnit')}
            </Space>
          </Radio>
        </Space>
      </Radio.Group>
      {problem && (
        <Alert type="error" showIcon title={problem} style={{ marginTop: 12 }} data-testid="energy-problem" />
      )}
    </SendModal>
  );
}
