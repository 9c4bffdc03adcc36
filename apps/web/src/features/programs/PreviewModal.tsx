import { useEffect, useState } from 'react';
import { Button, Empty, Modal, Progress, Space, Typography } from 'antd';
import {
  PauseOutlined,
  CaretRightOutlined,
  StepBackwardOutlined,
  StepForwardOutlined,
  SoundOutlined,
  GlobalOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type * as programs from '@panelfleet/contract/programs';
import { materialFileUrl } from '../notifications/useAudioMaterials';

interface PreviewModalProps {
  program: programs.Program | undefined;
  onClose(): void;
}

const TICK_MS = 250;
const STAGE_HEIGHT = 360;

/**
 * Plays a program as a panel would: the items in order, each for its duration, round and round
 * until the program's play time is over.
 */
export function PreviewModal({ program, onClose }: PreviewModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={program !== undefined}
      title={program ? t('programs.preview.title', { name: program.name }) : ''}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
    >
      {program && <Player program={program} />}
    </Modal>
  );
}

function Player({ program }: { program: programs.Program }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [inItem, setInItem] = useState(0);
  const [total, setTotal] = useState(0);
  const [playing, setPlaying] = useState(true);
  // Counts item changes, so that the same item again (a one-item loop) starts over.
  const [turn, setTurn] = useState(0);
  const items = program.items;
  const item = items[index]!;
  const finished = total >= program.playTime * 1000;

  useEffect(() => {
    if (!playing || finished) return;
    const timer = setInterval(() => {
      setInItem((ms) => ms + TICK_MS);
      setTotal((ms) => ms + TICK_MS);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [playing, finished]);

  useEffect(() => {
    if (inItem < item.duration * 1000) return;
    setInItem(0);
    setTurn((n) => n + 1);
    setIndex((i) => (i + 1) % items.length);
  }, [inItem, item.duration, items.length]);

  const go = (step: number) => {
    setInItem(0);
    setTurn((n) => n + 1);
    setIndex((i) => (i + step + items.length) % items.length);
  };
  const restart = () => {
    setIndex(0);
    setInItem(0);
    setTotal(0);
    setTurn((n) => n + 1);
    setPlaying(true);
  };
  const remaining = Math.max(0, Math.ceil(item.duration - inItem / 1000));

  return (
    <div data-testid="program-preview" data-index={index} data-type={item.type}>
      <div
        style={{
          height: STAGE_HEIGHT,
          background: '#000',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
        }}
      >
        {finished ? (
          <Typography.Text style={{ color: '#fff' }}>{t('programs.preview.finished')}</Typography.Text>
        ) : (
          <Stage key={turn} item={item} program={program} />
        )}
      </div>
      <Progress
        percent={Math.min(100, (inItem / (item.duration * 1000)) * 100)}
        showInfo={false}
        size="small"
      />
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text data-testid="program-preview-position">
          {t('programs.preview.position', { index: index + 1, count: items.length })} ·{' '}
          {t(`programs.types.${item.type}`)} · {t('programs.preview.remaining', { seconds: remaining })}
        </Typography.Text>
        <Space>
          <Button icon={<StepBackwardOutlined />} onClick={() => go(-1)}>
            {t('programs.preview.previous')}
          </Button>
          {finished ? (
            <Button type="primary" onClick={restart}>
              {t('programs.preview.restart')}
            </Button>
          ) : (
            <Button
              icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
              onClick={() => setPlaying((p) => !p)}
            >
              {playing ? t('programs.preview.pause') : t('programs.preview.play')}
            </Button>
          )}
          <Button icon={<StepForwardOutlined />} onClick={() => go(1)} data-testid="program-preview-next">
            {t('programs.preview.next')}
          </Button>
        </Space>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('programs.preview.elapsed', { elapsed: Math.floor(total / 1000), playTime: program.playTime })}
        {item.type === 'web' && <> · {t('programs.preview.webNote')}</>}
      </Typography.Paragraph>
    </div>
  );
}

function Stage({ item, program }: { item: programs.ProgramItem; program: programs.Program }) {
  const { t } = useTranslation();
  // The console's Content-Security-Policy frames no other site, so the page is named, not shown.
  if (item.type === 'web')
    return (
      <Space direction="vertical" align="center" style={{ padding: 24 }}>
        <GlobalOutlined style={{ fontSize: 64, color: '#fff' }} />
        <Typography.Text style={{ color: '#fff' }} data-testid="program-preview-url">
          {item.url}
        </Typography.Text>
        <Typography.Link href={item.url} target="_blank" rel="noopener noreferrer">
          {t('programs.preview.openPage')}
        </Typography.Link>
      </Space>
    );
  const media = program.media.find((m) => m.materialId === item.materialId);
  if (!media)
    return <Empty description={<span style={{ color: '#fff' }}>{t('programs.preview.missing')}</span>} />;
  const src = materialFileUrl(media.materialId);
  if (item.type === 'image')
    return (
      <img
        src={src}
        alt={media.fileName}
        style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
      />
    );
  if (item.type === 'video')
    return <video src={src} autoPlay muted playsInline style={{ maxWidth: '100%', maxHeight: '100%' }} />;
  return (
    <Space direction="vertical" align="center">
      <SoundOutlined style={{ fontSize: 64, color: '#fff' }} />
      <Typography.Text style={{ color: '#fff' }}>{media.fileName}</Typography.Text>
      <audio src={src} autoPlay controls />
    </Space>
  );
}
