import { App } from 'antd';
import type { device } from '@panelfleet/contract';
import { useTranslation } from 'react-i18next';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { CONTRACT_NS } from '../../../i18n';
import { SendModal } from './SendModal';
import { PanelPicker } from '../../labels/PanelPicker';
import { usePanelPicker, type PickerPanel } from '../../labels/usePanelPicker';

interface TerminalListModalProps {
  open: boolean;
  title: string;
  /** Devices that cannot take what is pushed (and why), shown but not selectable. */
  unavailable(row: PickerPanel): string | undefined;
  /** The chosen panels, or (once "all N matching" is chosen) the ticked labels as a filter the server resolves. */
  onSend(selection: device.PanelSelection): Promise<boolean>;
  onClose(): void;
  /** The contract message shown when no device is chosen (default setting.chooseDevice). */
  noDeviceKey?: string;
}

/** Terminal list: tick labels (coloured chips, select all); their panels are chosen, each can be unticked. */
export function TerminalListModal({
  open,
  title,
  unavailable,
  onSend,
  onClose,
  noDeviceKey = 'setting.chooseDevice',
}: TerminalListModalProps) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const picker = usePanelPicker({ open, unavailable, offerAll: true });

  const send = () => {
    const selection = picker.selection();
    if ('deviceIds' in selection && !selection.deviceIds.length) {
      notification.error({
        title: t('common.tips'),
        description: t(noDeviceKey, { ns: CONTRACT_NS }),
        duration: NOTICE_SECONDS,
      });
      return undefined;
    }
    return onSend(selection);
  };

  return (
    <SendModal
      title={title}
      open={open}
      onClose={onClose}
      send={send}
      testId="terminal-list"
      width={860}
      keepOnMaskClick
    >
      <PanelPicker picker={picker} choose testIdPrefix="terminal" />
    </SendModal>
  );
}
