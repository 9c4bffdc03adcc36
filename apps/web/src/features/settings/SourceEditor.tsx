import { useState } from 'react';
import { App, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { testHook } from '../../lists/FormModal';
import { useResetOnOpen } from '../../lists/useResetOnOpen';
import { useSettingNames } from './names';
import { PictureEditor } from './PictureEditor';

interface SourceEditorProps {
  row: settings.SettingRow | undefined;
  onClose(): void;
  onSaved(): void;
}

/** The editor of a source setting: Image settings and Display settings; Confirm saves and closes. */
export function SourceEditor({ row, onClose, onSaved }: SourceEditorProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const names = useSettingNames();
  const open = row !== undefined;
  const [draft, setDraft] = useState<device.SourceSettingJson>();
  const [saving, setSaving] = useState(false);
  useResetOnOpen(open, () =>
    setDraft(row ? device.sourceSettingJson.parse(JSON.parse(row.jsonData)) : undefined),
  );

  const save = async () => {
    if (!row || !draft) return;
    setSaving(true);
    try {
      const reply = await call(settings.updateSetting, { id: row.id, jsonData: JSON.stringify(draft) });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onClose();
      onSaved();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={
        row
          ? t('settingPage.sourceTitle', {
              system: names.system(row.platform),
              series: row.series,
              source: names.source(row.sourceType),
            })
          : ''
      }
      open={open}
      width={720}
      onOk={() => void save()}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={testHook('source-editor-ok')}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => <div data-testid="source-editor">{node}</div>}
    >
      {draft && <PictureEditor value={draft} onChange={(picture) => setDraft({ ...draft, ...picture })} />}
    </Modal>
  );
}
