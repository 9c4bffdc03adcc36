import { useEffect, useState } from 'react';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings, type deviceDetail } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { DeviceSourceModal } from './DeviceSourceModal';
import { PushResultModal } from './PushResultModal';
import { PushSelectionModal } from './PushSelectionModal';

/**
 * In the device detail's setting panel: push saved templates and source settings to this panel,
 * and the source setting dialog of one of its inputs; then the push's result.
 */
export function SavedSettingsActions({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'selection' | 'source'>();
  const [pushId, setPushId] = useState<number>();
  const [system, setSystem] = useState<device.PanelSystem | null>(null);

  useEffect(() => {
    if (dialog !== 'selection') return;
    const controller = new AbortController();
    // The system the panel reported decides which source settings fit it; a panel that reported none takes any.
    call(settings.listDeviceSourceSetting, { deviceId: detail.deviceId }, { signal: controller.signal }).then(
      (reply) => setSystem(reply.system),
      (error: unknown) => {
        setSystem(null);
        alreadyReported(error);
      },
    );
    return () => controller.abort();
  }, [dialog, detail.deviceId]);

  return (
    <>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => setDialog('selection')} data-testid="setting-push-saved">
          {t('savedSettings.pushSaved')}
        </Button>
        <Button size="small" onClick={() => setDialog('source')} data-testid="setting-source">
          {t('savedSettings.sourceSetting')}
        </Button>
      </Space>
      <PushSelectionModal
        open={dialog === 'selection'}
        deviceId={detail.deviceId}
        deviceName={detail.deviceName}
        series={detail.machineType}
        system={system}
        onClose={() => setDialog(undefined)}
        onPushed={setPushId}
      />
      <DeviceSourceModal
        open={dialog === 'source'}
        deviceId={detail.deviceId}
        deviceName={detail.deviceName}
        currentSource={detail.source}
        onClose={() => setDialog(undefined)}
        onPushed={setPushId}
      />
      <PushResultModal pushId={pushId} onClose={() => setPushId(undefined)} />
    </>
  );
}
