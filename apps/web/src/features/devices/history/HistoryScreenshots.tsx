import { Empty, Image, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { panelHistory } from '@panelfleet/contract';
import { imageUrl } from '../../screenshots/useScreenshot';

const THUMB_WIDTH = 160;

/** The screenshots taken of a panel in the range: thumbnail, time and who asked; a click opens it full size. */
export default function HistoryScreenshots({ shots }: { shots: panelHistory.PanelHistory['screenshots'] }) {
  const { t } = useTranslation();
  if (!shots.length)
    return <Empty data-testid="history-screenshots" description={t('panelHistory.noScreenshots')} />;
  return (
    <Image.PreviewGroup>
      <Space wrap align="start" data-testid="history-screenshots">
        {shots.map((shot) => (
          <div
            key={shot.screenshotId}
            data-testid="history-screenshot"
            data-screenshot-id={shot.screenshotId}
            style={{ width: THUMB_WIDTH }}
          >
            <Image
              src={imageUrl(shot, 'thumb')}
              preview={{ src: imageUrl(shot, 'full') }}
              width={THUMB_WIDTH}
              alt={t('panelHistory.openFull')}
              title={t('panelHistory.openFull')}
            />
            <Typography.Text style={{ display: 'block' }} data-testid="history-screenshot-time">
              {dayjs(shot.at).format('YYYY-MM-DD HH:mm:ss')}
            </Typography.Text>
            <Typography.Text type="secondary" data-testid="history-screenshot-by">
              {t('panelHistory.requestedBy', { user: shot.requestedBy ?? t('panelHistory.unknownUser') })}
            </Typography.Text>
          </div>
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}
