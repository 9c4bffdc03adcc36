import { useState, type ReactNode } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { testHook } from '../../../lists/FormModal';

interface SendModalProps {
  title: string;
  open: boolean;
  onClose(): void;
  /**
   * Sends what the dialog holds: true closes it; false (refused by the server) or undefined
   * (refused by the dialog's own check, already shown) keeps it open.
   */
  send(): Promise<boolean> | undefined;
  /** `{testId}` on the dialog, `{testId}-ok` on its OK button (e2e hooks). */
  testId: string;
  okTestId?: string;
  okDisabled?: boolean;
  width?: number;
  /** A click on the mask would lose a long selection: such dialogs close only by their buttons. */
  keepOnMaskClick?: boolean;
  children: ReactNode;
}

/** A dialog of the detail modal that sends one command to a panel (or to chosen panels). */
export function SendModal({
  title,
  open,
  onClose,
  send,
  testId,
  okTestId,
  okDisabled,
  width,
  keepOnMaskClick,
  children,
}: SendModalProps) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const ok = async () => {
    const sent = send();
    if (!sent) return;
    setSending(true);
    try {
      if (await sent) onClose();
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      title={title}
      open={open}
      width={width}
      onOk={() => void ok()}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      okButtonProps={{ disabled: okDisabled, ...testHook(okTestId ?? `${testId}-ok`) }}
      {...(keepOnMaskClick ? { mask: { closable: false } } : {})}
      destroyOnHidden
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
    >
      {children}
    </Modal>
  );
}
