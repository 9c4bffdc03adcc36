import { useState } from 'react';
import { InputNumber, Modal, Slider, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { testHook } from '../../lists/FormModal';
import { useResetOnOpen } from '../../lists/useResetOnOpen';

interface LevelModalProps {
  title: string;
  open: boolean;
  /** Spec 2 section 9: brightness 80, volume 60. */
  initial: number;
  testId: string;
  /** Sends the level; a rejection (fail reply) keeps the dialog open. */
  onSend(level: number): Promise<void>;
  onClose(): void;
}

/** A 0-100 slider in a dialog (brightness or volume of the ticked labels). */
export function LevelModal({ title, open, initial, testId, onSend, onClose }: LevelModalProps) {
  const { t } = useTranslation();
  const [level, setLevel] = useState(initial);
  const [sending, setSending] = useState(false);
  // Each opening starts from the default (adjusted while rendering, before anything can be typed).
  useResetOnOpen(open, () => setLevel(initial));
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: sending, ...testHook(`${testId}-ok`) }}
      onOk={async () => {
        setSending(true);
        try {
          await onSend(level);
        } finally {
          setSending(false);
        }
      }}
      destroyOnHidden
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
    >
      <Space style={{ width: '100%' }} align="center">
        <Slider
          min={0}
          max={100}
          value={level}
          onChange={setLevel}
          style={{ width: 320 }}
          data-testid={`${testId}-slider`}
        />
        <span data-testid={`${testId}-input`}>
          <InputNumber min={0} max={100} precision={0} value={level} onChange={(v) => setLevel(v ?? 0)} />
        </span>
      </Space>
    </Modal>
  );
}
