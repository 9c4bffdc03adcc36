import { useState } from 'react';
import { App, Button, Checkbox, Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceDetail, type device } from '@panelfleet/contract';
import { selectionParams } from '../../labels/pickerRules';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { CONTRACT_NS } from '../../../i18n';
import { TerminalListModal } from './TerminalListModal';
import type { PanelSettings } from './useDeviceDetail';

interface ClonePanelProps {
  detail: deviceDetail.DeviceDetail;
  settings: PanelSettings | undefined;
}

/** Clone: copy chosen sections of this panel's reported settings to chosen panels of its series. */
export function ClonePanel({ detail, settings }: ClonePanelProps) {
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const [sections, setSections] = useState<number[]>([]);
  const [choosing, setChoosing] = useState(false);
  if (!settings?.platform) return <Empty description={t('deviceDetail.settingsNotReported')} />;
  const series = settings.platform;
  const rows = settings.rows;
  const ids = sections.filter((id) => rows.some((r) => r.deviceSettingId === id));

  const chooseDevices = () => {
    if (!ids.length) {
      notification.error({
        title: t('common.tips'),
        description: t('deviceManage.selectSettingToPush', { ns: CONTRACT_NS }),
        duration: NOTICE_SECONDS,
      });
      return;
    }
    setChoosing(true);
  };
  const send = async (selection: device.PanelSelection) => {
    try {
      const reply = await call(
        deviceDetail.sendDeviceSettings,
        { deviceSettingIds: ids.join(','), ...selectionParams(selection) },
        { json: true },
      );
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      return true;
    } catch (error) {
      alreadyReported(error);
      return false;
    }
  };

  return (
    <div data-testid="panel-clone">
      <Typography.Paragraph type="secondary">{t('deviceDetail.cloneHint', { series })}</Typography.Paragraph>
      <Checkbox
        checked={ids.length === rows.length}
        indeterminate={ids.length > 0 && ids.length < rows.length}
        onChange={(e) => setSections(e.target.checked ? rows.map((r) => r.deviceSettingId) : [])}
        data-testid="clone-all-sections"
      >
        {t('deviceDetail.allSettings')}
      </Checkbox>
      <Checkbox.Group
        value={ids}
        onChange={(values) => setSections(values as number[])}
        style={{ display: 'flex', flexDirection: 'column', margin: '6px 0 12px 16px' }}
      >
        {rows.map((r) => (
          <Checkbox key={r.deviceSettingId} value={r.deviceSettingId} data-clone-section={r.section}>
            {t(`deviceDetail.section.${r.section}`)}
          </Checkbox>
        ))}
      </Checkbox.Group>
      <Space>
        <Button type="primary" onClick={chooseDevices} data-testid="clone-choose-devices">
          {t('deviceDetail.chooseDevices')}
        </Button>
      </Space>
      <TerminalListModal
        open={choosing}
        title={t('deviceDetail.cloneTitle', { name: detail.deviceName })}
        unavailable={(row) =>
          row.deviceId === detail.deviceId
            ? t('deviceDetail.thisDevice')
            : row.machineType !== series
              ? t('deviceDetail.otherSeries', { series: row.machineType || '—' })
              : row.state !== 1
                ? t('lists.disabled')
                : undefined
        }
        onSend={send}
        onClose={() => setChoosing(false)}
      />
    </div>
  );
}
