import { useState } from 'react';
import { Button, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { device, deviceDetail } from '@panelfleet/contract';
import { DEFAULT_BRIGHTNESS, DEFAULT_VOLUME } from '../../labels/LabelsPanel';
import { LevelModal } from '../../labels/LevelModal';
import { RemoteControllerModal } from './RemoteControllerModal';
import { SourceModal } from './SourceModal';
import { useDeviceCommands } from './useDeviceCommands';

type Dialog = 'brightness' | 'volume' | 'source' | 'remote';

/**
 * Remote control (spec 2 section 7): brightness 00, volume 01, power off 02, restart 03, source
 * 04, mute 07, keys 08, power on. Online-only controls are disabled offline; power on only then.
 */
export function RemoteControlPanel({
  detail,
  reload,
}: {
  detail: deviceDetail.DeviceDetail;
  reload: () => void;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>();
  const { send, powerUp, confirmThen } = useDeviceCommands(detail.deviceId, reload);
  const online = detail.isOnline === '1';
  const close = () => setDialog(undefined);

  const onKey = (key: device.VirtualKey) => {
    if (key === 'power') confirmThen(t('deviceDetail.confirmPowerKey'), () => send('08', key));
    else void send('08', key);
  };

  const button = (
    label: string,
    testId: string,
    onClick: () => void,
    options: { enabled?: boolean; danger?: boolean } = {},
  ) => (
    <Button
      block
      disabled={!(options.enabled ?? online)}
      danger={options.danger}
      onClick={onClick}
      data-testid={testId}
    >
      {label}
    </Button>
  );

  return (
    <div data-testid="panel-remote">
      <Descriptions column={2} size="small" style={{ marginBottom: 8 }}>
        <Descriptions.Item label={t('deviceDetail.brightness')}>
          <span data-testid="current-brightness">{detail.brightness ?? '—'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceDetail.volume')}>
          <span data-testid="current-volume">{detail.volume ?? '—'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceDetail.source')}>
          <span data-testid="current-source">{detail.source ?? '—'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceDetail.mute')}>
          <span data-testid="current-mute">
            {detail.mute === null ? '—' : t(detail.mute ? 'deviceDetail.muteOn' : 'deviceDetail.muteOff')}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceDetail.power')} span={2}>
          <span data-testid="current-power">
            {online ? t(`deviceDetail.powerState.${detail.power ?? 'on'}`) : t('deviceDetail.powerState.off')}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
        {button(t('deviceDetail.brightness'), 'rc-brightness', () => setDialog('brightness'))}
        {button(t('deviceDetail.volume'), 'rc-volume', () => setDialog('volume'))}
        {button(t('deviceDetail.sourceSwitch'), 'rc-source', () => setDialog('source'))}
        {button(t('deviceDetail.remoteController'), 'rc-remote', () => setDialog('remote'))}
        {button(
          t(detail.mute ? 'deviceDetail.unmute' : 'deviceDetail.muteAction'),
          'rc-mute',
          () => void send('07', !detail.mute),
        )}
        {button(t('deviceDetail.restart'), 'rc-restart', () =>
          confirmThen(t('deviceDetail.confirmRestart'), () => send('03')),
        )}
        {button(
          t('deviceDetail.powerOff'),
          'rc-power-off',
          () => confirmThen(t('deviceDetail.confirmPowerOff'), () => send('02')),
          { danger: true },
        )}
        {button(
          t('deviceDetail.powerOn'),
          'rc-power-on',
          () => confirmThen(t('deviceDetail.confirmPowerOn'), powerUp),
          { enabled: !online },
        )}
      </div>
      <LevelModal
        title={t('deviceDetail.brightness')}
        open={dialog === 'brightness'}
        initial={detail.brightness ?? DEFAULT_BRIGHTNESS}
        testId="brightness-modal"
        onSend={async (value) => void ((await send('00', value)) && close())}
        onClose={close}
      />
      <LevelModal
        title={t('deviceDetail.volume')}
        open={dialog === 'volume'}
        initial={detail.volume ?? DEFAULT_VOLUME}
        testId="volume-modal"
        onSend={async (value) => void ((await send('01', value)) && close())}
        onClose={close}
      />
      <SourceModal
        open={dialog === 'source'}
        machineTypeId={detail.machineTypeId}
        current={detail.source}
        onSend={(key) => send('04', key)}
        onClose={close}
      />
      <RemoteControllerModal open={dialog === 'remote'} onKey={onKey} onClose={close} />
    </div>
  );
}
