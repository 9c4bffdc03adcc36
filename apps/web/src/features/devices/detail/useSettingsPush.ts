import { useCallback } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceDetail } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';

const REREAD_AFTER_MS = 1200;

/** Sends changed settings sections to the panel; true when the server took them (dialogs close then). */
export function useSettingsPush(deviceId: number, reload: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return useCallback(
    async (change: Record<string, unknown>) => {
      try {
        const reply = await call(deviceDetail.updateDeviceSetting, {
          deviceId,
          jsonData: JSON.stringify(change),
        });
        void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
        window.setTimeout(reload, REREAD_AFTER_MS);
        return true;
      } catch (error) {
        alreadyReported(error);
        return false;
      }
    },
    [deviceId, message, reload, t],
  );
}
