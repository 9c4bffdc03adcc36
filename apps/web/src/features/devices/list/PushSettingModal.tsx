import { useEffect, useState } from 'react';
import { App, Form, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { testHook } from '../../../lists/FormModal';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';
import { useSettingNames } from '../../settings/names';
import { selectionParams } from '../../labels/pickerRules';

/** The dialog lists this many saved settings of each kind (the list call's largest page). */
const LISTED = 100;

/** The device list's selection: the ticked panels, or every panel matching its filter. */
export type ListSelection = { deviceIds: number[] } | { matching: device.PanelMatching };

/**
 * The device list's "Push setting": one saved template or source setting to the selected panels,
 * or to every panel matching the list's filter (the server resolves the filter when it pushes).
 * The push's per-panel results follow (onPushed).
 */
export function PushSettingModal({
  open,
  selection,
  count,
  onClose,
  onPushed,
}: {
  open: boolean;
  selection: ListSelection;
  count: number;
  onClose(): void;
  onPushed(pushId: number): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const names = useSettingNames();
  const [rows, setRows] = useState<settings.SettingRow[]>([]);
  const [chosen, setChosen] = useState<number>();
  const [sending, setSending] = useState(false);
  useResetOnOpen(open, () => setChosen(undefined));

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const list = (type: '0' | '1') =>
      call(settings.listSetting, { type, start: 1, size: LISTED }, { signal: controller.signal }).then(
        (reply) => reply.listObject,
      );
    Promise.all([list('0'), list('1')]).then(
      ([templates, sources]) => setRows([...templates, ...sources]),
      alreadyReported,
    );
    return () => controller.abort();
  }, [open]);

  const send = async () => {
    const row = rows.find((r) => r.id === chosen);
    if (!row) return;
    setSending(true);
    try {
      const reply = await call(
        row.type === '0' ? settings.sendSetting : settings.sendSourceSetting,
        { id: row.id, ...selectionParams(selection) },
        { json: true },
      );
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onClose();
      onPushed(reply.dataObject.pushId);
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSending(false);
    }
  };

  const option = (r: settings.SettingRow) => ({ value: r.id, label: names.describe(r) });
  return (
    <Modal
      open={open}
      title={t('allMatching.pushTitle', { count })}
      okText={t('allMatching.push')}
      okButtonProps={{ disabled: chosen === undefined, loading: sending, ...testHook('push-setting-ok') }}
      onOk={() => void send()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('allMatching.setting')}>
          <Select<number>
            data-testid="push-setting-choice"
            placeholder={t('allMatching.chooseSetting')}
            value={chosen}
            onChange={setChosen}
            options={[
              { label: t('allMatching.templates'), options: rows.filter((r) => r.type === '0').map(option) },
              { label: t('allMatching.sources'), options: rows.filter((r) => r.type === '1').map(option) },
            ]}
          />
        </Form.Item>
      </Form>
      {'matching' in selection && (
        <Typography.Text type="secondary">{t('allMatching.atAction')}</Typography.Text>
      )}
    </Modal>
  );
}
