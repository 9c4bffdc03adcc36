import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { alreadyReported } from '../api/client';
import { NOTICE_SECONDS } from '../api/ReplyEffects';

/**
 * Deletes and password resets: ask first; cancelling shows a cancelled notice. The action's
 * success message (the server's hhtMsg) is shown, then `done` runs (usually a list reload).
 */
export function useConfirmAction() {
  const { modal, message } = App.useApp();
  const { t } = useTranslation();
  return (content: string, action: () => Promise<{ hhtMsg?: string }>, done: () => void) => {
    modal.confirm({
      title: t('common.tips'),
      content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const reply = await action();
          void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
          done();
        } catch (error) {
          alreadyReported(error);
        }
      },
      onCancel: () => void message.info(t('common.cancelled'), NOTICE_SECONDS),
    });
  };
}
