import { Alert, Button, Image, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { screenshots } from '@panelfleet/contract';
import { formatDateTime } from '../../format/dateTime';
import { imageUrl, useScreenshot } from './useScreenshot';

/** When a picture was taken, in local time and the console's one date format (not the browser's). */
export const takenWhen = (record: screenshots.ScreenshotRecord) =>
  formatDateTime(record.takenAt ?? record.requestedAt);

/** What the screen shows: the newest screenshot with its time, a button for a new one and the live view. */
export default function ScreenshotTab({ deviceId, online }: { deviceId: number; online: boolean }) {
  const { t } = useTranslation();
  const { latest, attempt, busy, live, setLive, liveEnded, take } = useScreenshot(deviceId);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="screenshot-tab">
      <Space wrap>
        <Button
          type="primary"
          loading={busy && !live}
          onClick={() => void take()}
          data-testid="screenshot-take"
        >
          {t('screenshots.take')}
        </Button>
        <Space>
          <Switch checked={live} onChange={setLive} disabled={!online} data-testid="screenshot-live" />
          <span>{t('screenshots.live', { seconds: 5 })}</span>
        </Space>
      </Space>
      {!online && <Typography.Text type="secondary">{t('screenshots.offlineHint')}</Typography.Text>}
      {liveEnded && (
        <Alert
          type="info"
          showIcon
          message={t('screenshots.liveEnded')}
          data-testid="screenshot-live-ended"
        />
      )}
      {attempt?.status === 'failed' && (
        <Alert
          type="warning"
          showIcon
          data-testid="screenshot-failure"
          data-failure={attempt.failure ?? ''}
          message={t(`screenshots.failure.${attempt.failure ?? 'timeout'}`)}
        />
      )}
      {busy && <Typography.Text type="secondary">{t('screenshots.waiting')}</Typography.Text>}
      {latest ? (
        <div data-testid="screenshot-latest" data-screenshot-id={latest.screenshotId}>
          <Image
            src={imageUrl(latest, 'full')}
            alt={t('screenshots.alt')}
            style={{ width: '100%', maxWidth: 480, border: '1px solid #f0f0f0' }}
            data-testid="screenshot-image"
          />
          <Typography.Text type="secondary" data-testid="screenshot-time">
            {t('screenshots.takenAt', { time: takenWhen(latest) })} · {latest.width} × {latest.height}
          </Typography.Text>
        </div>
      ) : (
        latest === null && <Typography.Text type="secondary">{t('screenshots.none')}</Typography.Text>
      )}
    </Space>
  );
}
