import { Empty, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { deviceDetail } from '@panelfleet/contract';
import { storageOf, toGb } from './format';

const ORANGE = '#fa8c16';

/** Tab 2: a ring of free memory, orange at 80% free or more, with free/total GB. */
export function StorageTab({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  const storage = storageOf(detail.ramTotal, detail.ramUsed);
  if (!storage) return <Empty description={t('deviceDetail.notReported')} />;
  return (
    <Space
      orientation="vertical"
      align="center"
      style={{ width: '100%', paddingTop: 24 }}
      data-testid="detail-storage"
    >
      <Progress
        type="circle"
        size={180}
        percent={storage.freePercent}
        strokeColor={storage.alarm ? ORANGE : undefined}
        format={(percent) => (
          <span data-alarm={storage.alarm ? 'orange' : 'normal'}>
            {percent}%
            <br />
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              {t('deviceDetail.freeMemory')}
            </Typography.Text>
          </span>
        )}
      />
      <Typography.Text data-testid="storage-gb">
        {t('deviceDetail.freeOfTotal', { free: toGb(storage.freeBytes), total: toGb(storage.totalBytes) })}
      </Typography.Text>
    </Space>
  );
}
