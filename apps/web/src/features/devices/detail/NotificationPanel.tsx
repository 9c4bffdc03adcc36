import { useState } from 'react';
import { Button, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { deviceDetail } from '@panelfleet/contract';
import { SendNotificationModal } from '../../notifications/SendNotificationModal';

/** Send notification: the notification dialog aimed at this device (online only). */
export function NotificationPanel({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const online = detail.isOnline === '1';
  return (
    <div data-testid="panel-notification">
      <Typography.Paragraph type="secondary">
        {t(online ? 'deviceDetail.notificationHint' : 'deviceDetail.offlineHint')}
      </Typography.Paragraph>
      <Button
        type="primary"
        icon={<NotificationOutlined />}
        disabled={!online}
        onClick={() => setOpen(true)}
        data-testid="open-notification"
      >
        {t('deviceDetail.sendNotification')}
      </Button>
      <SendNotificationModal
        target={{ deviceId: detail.deviceId }}
        open={open}
        onClose={() => setOpen(false)}
      />
    </div>
  );
}
