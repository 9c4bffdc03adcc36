import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Button, Card, Empty, Progress, Space, Spin, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { screenshots } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { DeviceDetailModal } from '../devices/detail/DeviceDetailModal';
import { imageUrl, takeAndFollow } from './useScreenshot';
import { ageOf } from './age';

/** Panels asked at the same time while the whole wall refreshes. */
const PARALLEL = 10;

/** One panel of the wall: its newest picture (or none), name, online state and the picture's age. */
function Tile({ tile, now, onOpen }: { tile: screenshots.WallTile; now: number; onOpen(): void }) {
  const { t, i18n } = useTranslation();
  const shot = tile.screenshot;
  return (
    <Card
      hoverable
      size="small"
      onClick={onOpen}
      data-testid="wall-tile"
      data-device-key={tile.deviceKey}
      data-screenshot-id={shot?.screenshotId ?? ''}
      cover={
        shot ? (
          <img
            src={imageUrl(shot, 'thumb')}
            alt={tile.deviceName}
            style={{ aspectRatio: '16 / 9', objectFit: 'cover' }}
          />
        ) : (
          <div
            style={{ aspectRatio: '16 / 9', display: 'grid', placeItems: 'center', background: '#f5f5f5' }}
          >
            <Typography.Text type="secondary">{t('screenshots.wall.none')}</Typography.Text>
          </div>
        )
      }
    >
      <Typography.Text strong ellipsis style={{ display: 'block' }}>
        {tile.deviceName}
      </Typography.Text>
      <Space size="small">
        <Badge
          status={tile.online ? 'success' : 'default'}
          text={t(tile.online ? 'screenshots.wall.online' : 'screenshots.wall.offline')}
        />
        {shot?.takenAt && (
          <Typography.Text type="secondary" data-testid="wall-age">
            {ageOf(shot.takenAt, now, i18n.language)}
          </Typography.Text>
        )}
      </Space>
    </Card>
  );
}

/**
 * The wall view of a label (issue 27 item 3): up to 100 of its panels with their newest
 * screenshots; "refresh all" asks every online panel for a new one, ten at a time, with progress.
 */
export default function WallView({ labelId }: { labelId: number }) {
  const { t } = useTranslation();
  const [wall, setWall] = useState<{ labelName: string; tiles: screenshots.WallTile[] }>();
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [opened, setOpened] = useState<number>();
  const [now, setNow] = useState(() => Date.now());
  const running = useRef<AbortController>(undefined);

  const load = useCallback(async () => {
    try {
      const reply = await call(screenshots.wallOfLabel, { labelId });
      setWall({ labelName: reply.labelName, tiles: reply.listObject });
      setNow(Date.now());
    } catch (error) {
      alreadyReported(error);
    }
  }, [labelId]);

  useEffect(() => {
    void load();
    return () => running.current?.abort();
  }, [load]);

  const refreshAll = async () => {
    if (!wall) return;
    const abort = new AbortController();
    running.current = abort;
    const queue = wall.tiles.filter((tile) => tile.online);
    let done = 0;
    setProgress({ done, total: queue.length });
    const worker = async () => {
      for (let tile = queue.shift(); tile; tile = queue.shift()) {
        const record = await takeAndFollow(tile.deviceId, abort.signal).catch((error: unknown) => {
          alreadyReported(error);
          return undefined;
        });
        done += 1;
        setProgress({ done, total: done + queue.length });
        if (record?.status === 'stored') {
          const id = tile.deviceId;
          setWall(
            (w) =>
              w && {
                ...w,
                tiles: w.tiles.map((x) => (x.deviceId === id ? { ...x, screenshot: record } : x)),
              },
          );
          setNow(Date.now());
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  };

  if (!wall) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  const refreshing = progress !== undefined && progress.done < progress.total;
  return (
    <div data-testid="wall-view">
      <Space style={{ marginBottom: 16 }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }} data-testid="wall-title">
          {t('screenshots.wall.title', { label: wall.labelName })}
        </Typography.Title>
        <Button
          icon={<ReloadOutlined />}
          loading={refreshing}
          onClick={() => void refreshAll()}
          data-testid="wall-refresh"
        >
          {t('screenshots.wall.refresh')}
        </Button>
        {progress && (
          <Space data-testid="wall-progress">
            <Progress
              type="circle"
              size={28}
              percent={Math.round((progress.done * 100) / Math.max(progress.total, 1))}
            />
            <span>{t('screenshots.wall.progress', progress)}</span>
          </Space>
        )}
      </Space>
      {wall.tiles.length === 0 ? (
        <Empty description={t('screenshots.wall.empty')} />
      ) : (
        <div
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 12 }}
        >
          {wall.tiles.map((tile) => (
            <Tile key={tile.deviceId} tile={tile} now={now} onOpen={() => setOpened(tile.deviceId)} />
          ))}
        </div>
      )}
      <DeviceDetailModal deviceId={opened} open={opened !== undefined} onClose={() => setOpened(undefined)} />
    </div>
  );
}
