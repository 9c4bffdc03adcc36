import { useState } from 'react';
import { Button, Modal, Progress, Space, Spin, Statistic, Tabs, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { screenTime } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { AppTimeList } from './AppTimeList';
import { formatDuration } from './duration';
import { SlotChart } from './SlotChart';
import { rangeOf, slotLabel, type Sign } from './timeRange';

export interface ScreenTimeModalProps {
  deviceKey: string;
  deviceName: string;
  open: boolean;
  onClose(): void;
}

/** One tab: the range is fixed when the tab is shown or refreshed, so a reload asks for "now" again. */
function ScreenTimePanel({ deviceKey, sign }: { deviceKey: string; sign: Sign }) {
  const { t } = useTranslation();
  const [askedAt, setAskedAt] = useState(() => Date.now());
  const format = (ms: number) => formatDuration(ms, (key, vars) => t(key, vars));
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'screenTime', deviceKey, sign, askedAt],
    queryFn: () => call(screenTime.selectRptTime, { ...rangeOf(sign, askedAt), sign, deviceKey }),
    // A refresh asks for a new range: the figures shown stay, under the spinner, until it answers.
    placeholderData: keepPreviousData,
  });
  const scale = screenTime.SCREEN_TIME_SCALE[sign];
  const data = query.data;
  return (
    <Spin spinning={query.isFetching}>
      <div data-testid={`screen-time-${sign}`} style={{ minHeight: 360 }}>
        <Space align="start" style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
          <Space size={40}>
            <Statistic
              title={t('screenTime.screenOn')}
              value={data ? format(data.RtpDeviceTime.totalTime) : '-'}
              data-testid="screen-time-total"
            />
            <Statistic
              title={t('screenTime.appsTotal')}
              value={data ? format(data.RtpAppTotalTime) : '-'}
              data-testid="screen-time-apps-total"
            />
          </Space>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => setAskedAt(Date.now())}
            data-testid="screen-time-refresh"
          >
            {t('lists.refresh')}
          </Button>
        </Space>
        <Typography.Text type="secondary">
          {t(sign === 'day' ? 'screenTime.scaleDay' : 'screenTime.scaleRecent', {
            share: data ? Math.round((data.RtpDeviceTime.totalTime / scale) * 100) : 0,
          })}
        </Typography.Text>
        <Progress
          percent={data ? (data.RtpDeviceTime.totalTime / scale) * 100 : 0}
          showInfo={false}
          size="small"
          style={{ marginBottom: 12 }}
        />
        {data && (
          <SlotChart
            sign={sign}
            slots={data.RtpDeviceTime.slots}
            describe={(slot) => `${slotLabel(sign, slot.startTime)} · ${format(slot.totalTime)}`}
          />
        )}
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('screenTime.byApp')}
        </Typography.Title>
        {data && <AppTimeList apps={data.RtpAppTime} format={format} emptyText={t('screenTime.noUsage')} />}
      </div>
    </Spin>
  );
}

/** The runtime (screen-time) dialog of one panel: Today and Recent tabs built from its app-usage reports. */
export function ScreenTimeModal({ deviceKey, deviceName, open, onClose }: ScreenTimeModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('screenTime.title', { name: deviceName })}
      open={open}
      width={760}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      modalRender={(node) => <div data-testid="screen-time-modal">{node}</div>}
    >
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'day',
            label: <span data-testid="screen-time-tab-day">{t('screenTime.today')}</span>,
            children: <ScreenTimePanel key={deviceKey} deviceKey={deviceKey} sign="day" />,
          },
          {
            key: 'recent',
            label: <span data-testid="screen-time-tab-recent">{t('screenTime.recent')}</span>,
            children: <ScreenTimePanel key={deviceKey} deviceKey={deviceKey} sign="recent" />,
          },
        ]}
      />
    </Modal>
  );
}
