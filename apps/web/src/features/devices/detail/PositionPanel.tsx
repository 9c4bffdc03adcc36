import { lazy, Suspense } from 'react';
import { Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { deviceDetail } from '@panelfleet/contract';

// The map and its country outlines are a separate chunk: the console's first load stays small.
const WorldMap = lazy(() => import('./WorldMap'));

/** Device position: the panel's reported coordinates on an offline map. */
export function PositionPanel({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  if (detail.latitude === null || detail.longitude === null)
    return <Empty description={t('deviceDetail.noPosition')} />;
  return (
    <div data-testid="panel-position">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('deviceDetail.latLng', { lat: detail.latitude.toFixed(4), lon: detail.longitude.toFixed(4) })}
      </Typography.Paragraph>
      <Suspense fallback={<Spin />}>
        <WorldMap
          latitude={detail.latitude}
          longitude={detail.longitude}
          width={330}
          height={240}
          label={t('deviceDetail.mapLabel', { name: detail.deviceName })}
        />
      </Suspense>
    </div>
  );
}
