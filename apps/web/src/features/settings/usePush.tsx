import { useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { settings, type device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { TerminalListModal } from '../devices/detail/TerminalListModal';
import { selectionParams } from '../labels/pickerRules';
import { useSettingNames } from './names';
import { PushResultModal } from './PushResultModal';

/**
 * The push of one saved setting: the terminal list (labels, select all, paged panels; panels of
 * another series shown with the reason and not selectable), then the per-panel results.
 */
export function usePush() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const names = useSettingNames();
  const [row, setRow] = useState<settings.SettingRow>();
  const [pushId, setPushId] = useState<number>();

  const send = async (selection: device.PanelSelection) => {
    if (!row) return false;
    try {
      const reply = await call(
        row.type === '0' ? settings.sendSetting : settings.sendSourceSetting,
        { id: row.id, ...selectionParams(selection) },
        { json: true },
      );
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      setPushId(reply.dataObject.pushId);
      return true;
    } catch (error) {
      alreadyReported(error);
      return false;
    }
  };

  const element = (
    <>
      <TerminalListModal
        open={row !== undefined}
        title={row ? t('settingPage.pushTitle', { what: names.describe(row) }) : ''}
        unavailable={(device) =>
          row && device.machineType !== row.series
            ? t('settingPage.otherSeries', { series: device.machineType || '—', wanted: row.series })
            : device.state !== 1
              ? t('lists.disabled')
              : undefined
        }
        onSend={send}
        onClose={() => setRow(undefined)}
      />
      <PushResultModal pushId={pushId} onClose={() => setPushId(undefined)} />
    </>
  );
  return { push: setRow, element };
}
