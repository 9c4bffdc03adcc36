import { useState } from 'react';
import { Button, Card, Tabs, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LabelDevices } from '../labels/LabelDevices';
import { useLabelDevices } from '../labels/useLabelDevices';
import { DeliveryProgress } from '../notifications/DeliveryProgress';
import { SendNotificationModal } from '../notifications/SendNotificationModal';

interface SentBroadcast {
  commandIds: string[];
  title: string;
  labels: string;
}

/**
 * View `Broadcast` (spec 2 section 2, type 4): tick labels, see their devices, send a notification
 * to all of them (the send, audio-list and audio-preview dialogs of the device detail), then follow
 * every panel's delivery here. The program tab of the spec is not built yet (issue 15).
 */
export default function BroadcastView() {
  const { t } = useTranslation();
  const selection = useLabelDevices('broadcastDevices');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<SentBroadcast>();

  const broadcast = (
    <div data-testid="broadcast-page">
      <LabelDevices
        selection={selection}
        testIdPrefix="broadcast"
        actions={
          <Button
            type="primary"
            icon={<NotificationOutlined />}
            data-testid="broadcast-send"
            onClick={() => !selection.needLabels() && setSending(true)}
          >
            {t('broadcast.send')}
          </Button>
        }
      />
      {sent && (
        <Card
          size="small"
          style={{ marginTop: 16 }}
          data-testid="broadcast-report"
          title={t('broadcast.report', { title: sent.title })}
          extra={<Typography.Text type="secondary">{sent.labels}</Typography.Text>}
        >
          <DeliveryProgress key={sent.commandIds[0]} commandIds={sent.commandIds} listAll />
        </Card>
      )}
      <SendNotificationModal
        target={{ tagIds: selection.ticked }}
        open={sending}
        onClose={() => setSending(false)}
        onSent={({ commandIds, title }) => setSent({ commandIds, title, labels: selection.tickedNames() })}
      />
    </div>
  );

  return (
    <Card title={t('views.Broadcast')}>
      <Tabs items={[{ key: 'broadcast', label: t('broadcast.tab'), children: broadcast }]} />
    </Card>
  );
}
