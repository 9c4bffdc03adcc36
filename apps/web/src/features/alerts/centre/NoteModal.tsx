import { useState } from 'react';
import { Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { alreadyReported } from '../../../api/client';
import { testHook } from '../../../lists/FormModal';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';

interface NoteModalProps {
  open: boolean;
  /** How many alerts the action changes. */
  count: number;
  title: string;
  onClose(): void;
  /** Sends the action; a fail reply (already shown) rejects and keeps the dialog open. */
  onSubmit(note: string): Promise<void>;
}

/** Acknowledge or clear the chosen alerts, with an optional note for the team. */
export function NoteModal({ open, count, title, onClose, onSubmit }: NoteModalProps) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  useResetOnOpen(open, () => setNote(''));
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy, ...testHook('alert-note-ok') }}
      onOk={async () => {
        setBusy(true);
        try {
          await onSubmit(note);
        } catch (error) {
          alreadyReported(error);
        } finally {
          setBusy(false);
        }
      }}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('alerts.chosen', { count })}</Typography.Paragraph>
      <Input.TextArea
        data-testid="alert-note"
        maxLength={500}
        showCount
        rows={3}
        placeholder={t('alerts.notePlaceholder')}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
    </Modal>
  );
}
