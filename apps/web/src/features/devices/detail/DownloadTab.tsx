import { Descriptions, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { deviceDetail } from '@panelfleet/contract';
import { downloadProgress, type DownloadKind } from './format';

function DownloadLine({
  kind,
  current,
  total,
}: {
  kind: DownloadKind;
  current: number | null;
  total: number | null;
}) {
  const { t } = useTranslation();
  const progress = downloadProgress(kind, current, total);
  if (!progress)
    return (
      <Typography.Text type="secondary" data-testid={`download-${kind}`}>
        {t('deviceDetail.noProgress')}
      </Typography.Text>
    );
  return (
    <div data-testid={`download-${kind}`}>
      <Progress percent={progress.percent} size="small" />
      <Typography.Text>
        {t('deviceDetail.kbOfTotal', { current: progress.currentKb, total: progress.totalKb })}
      </Typography.Text>
    </div>
  );
}

/** Tab 3: APK and OTA downloads in kb of total, or "no progress" (spec 2 section 2). */
export function DownloadTab({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  return (
    <Descriptions column={1} size="small" bordered styles={{ label: { width: 140 } }}>
      <Descriptions.Item label={t('deviceDetail.apkDownload')}>
        <DownloadLine kind="apk" current={detail.apkCurrent} total={detail.apkTotal} />
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.otaDownload')}>
        <DownloadLine kind="ota" current={detail.otaCurrent} total={detail.otaTotal} />
      </Descriptions.Item>
    </Descriptions>
  );
}
