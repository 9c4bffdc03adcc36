import { useCallback } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';

/** A panel reports a change within a second or so: read the detail again soon after a command. */
const REREAD_AFTER_MS = 1200;

/**
 * Remote-control orders of spec 2 section 7 for one device, through sendCommandByDeviceId and
 * sendPowerUpByDeviceId; each confirmed with the server's message, then the detail is read again.
 */
export function useDeviceCommands(deviceId: number, reload: () => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();

  const afterSend = useCallback(
    (hhtMsg: string | undefined) => {
      void message.success(hhtMsg || t('common.done'), NOTICE_SECONDS);
      window.setTimeout(reload, REREAD_AFTER_MS);
    },
    [message, reload, t],
  );

  const send = useCallback(
    async (order: device.Order, value?: string | number | boolean) => {
      try {
        const reply = await call(device.sendCommandByDeviceId, {
          deviceId,
          order,
          ...(value === undefined ? {} : { value: String(value) }),
        });
        afterSend(reply.hhtMsg);
        return true;
      } catch (error) {
        alreadyReported(error);
        return false;
      }
    },
    [afterSend, deviceId],
  );

  const powerUp = useCallback(async () => {
    try {
      afterSend((await call(device.sendPowerUpByDeviceId, { deviceId })).hhtMsg);
    } catch (error) {
      alreadyReported(error);
    }
  }, [afterSend, deviceId]);

  /** Power off, restart, power on and the power key ask first; cancelling says so. */
  const confirmThen = useCallback(
    (content: string, action: () => Promise<unknown>) =>
      modal.confirm({
        title: t('common.tips'),
        content,
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        onOk: action,
        onCancel: () => void message.info(t('common.cancelled'), NOTICE_SECONDS),
      }),
    [message, modal, t],
  );

  return { send, powerUp, confirmThen };
}
