import { lazy, Suspense, useState } from 'react';
import { Button, Card, Spin, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LabelDevices } from '../labels/LabelDevices';
import { useLabelDevices } from '../labels/useLabelDevices';
import { DeliveryProgress } from '../notifications/DeliveryProgress';
import { SendNotificationModal } from '../notifications/SendNotificationModal';
import { withProgramCatalogs } from '../programs/catalogs';

// The program tab and its strings load when it is first opened; the materials tab too.
const ProgramsTab = lazy(withProgramCatalogs(() => import('../programs/ProgramsTab')));
const MaterialsTab = lazy(() => import('../materials/MaterialsTab'));

const TABS = ['broadcast', 'program', 'materials'] as const;
type TabKey = (typeof TABS)[number];
const loading = <Spin style={{ display: 'block', margin: '48px auto' }} />;

interface SentBroadcast {
  commandIds: string[];
  title: string;
  labels: string;
}

/**
 * View `Broadcast` (spec 2 section 2, type 4): tick labels, see their devices, send a notification
 * to all of them (the send, audio-list and audio-preview dialogs of the device detail), then follow
 * every panel's delivery here. Tab program (?tab=program): programs with their two-level approval.
 * Tab materials (?tab=materials): the company's images, videos and audio.
 */
export default function BroadcastView() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as TabKey | null;
  const active: TabKey = asked && TABS.includes(asked) ? asked : 'broadcast';
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
      <Tabs
        activeKey={active}
        onChange={(key) => setParams(key === 'broadcast' ? {} : { tab: key })}
        destroyOnHidden
        items={[
          {
            key: 'broadcast',
            label: <span data-testid="tab-broadcast">{t('broadcast.tab')}</span>,
            children: broadcast,
          },
          {
            key: 'program',
            label: <span data-testid="tab-program">{t('broadcast.programTab')}</span>,
            children: (
              <Suspense fallback={loading}>
                <ProgramsTab />
              </Suspense>
            ),
          },
          {
            key: 'materials',
            label: <span data-testid="tab-materials">{t('broadcast.materialsTab')}</span>,
            children: (
              <Suspense fallback={loading}>
                <MaterialsTab />
              </Suspense>
            ),
          },
        ]}
      />
    </Card>
  );
}
