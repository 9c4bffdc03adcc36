import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { device } from '@panelfleet/contract';

interface RemoteControllerModalProps {
  open: boolean;
  onKey(key: device.VirtualKey): void;
  onClose(): void;
}

const DIGITS: device.VirtualKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'];
const ARROWS: Array<[device.VirtualKey, string, number, number]> = [
  ['up', '▲', 1, 2],
  ['left', '◀', 2, 1],
  ['ok', 'OK', 2, 2],
  ['right', '▶', 2, 3],
  ['down', '▼', 3, 2],
];

/** The virtual remote: every key of order 08 (spec 2 section 7). */
export function RemoteControllerModal({ open, onKey, onClose }: RemoteControllerModalProps) {
  const { t } = useTranslation();
  const key = (k: device.VirtualKey, label: string, extra: object = {}) => (
    <Button key={k} data-key={k} onClick={() => onKey(k)} {...extra}>
      {label}
    </Button>
  );
  const grid = (columns: number) => ({
    display: 'grid',
    gridTemplateColumns: `repeat(${columns}, 1fr)`,
    gap: 8,
    marginBottom: 12,
  });
  return (
    <Modal
      title={t('deviceDetail.remoteController')}
      open={open}
      onCancel={onClose}
      footer={null}
      width={320}
      destroyOnHidden
      modalRender={(node) => <div data-testid="remote-controller">{node}</div>}
    >
      <div style={grid(3)}>
        {key('power', t('deviceDetail.key.power'), { danger: true })}
        <span />
        {key('mute', t('deviceDetail.key.mute'))}
      </div>
      <div style={grid(3)}>{DIGITS.map((d) => key(d, d, d === '0' ? { style: { gridColumn: 2 } } : {}))}</div>
      <div style={{ ...grid(3), gridTemplateRows: 'repeat(3, 36px)' }}>
        {ARROWS.map(([k, label, row, column]) =>
          key(k, label, {
            style: { gridRow: row, gridColumn: column },
            type: k === 'ok' ? 'primary' : 'default',
          }),
        )}
      </div>
      <div style={grid(2)}>
        {key('home', t('deviceDetail.key.home'))}
        {key('back', t('deviceDetail.key.back'))}
        {key('volumeDown', t('deviceDetail.key.volumeDown'))}
        {key('volumeUp', t('deviceDetail.key.volumeUp'))}
      </div>
    </Modal>
  );
}
