import { useState } from 'react';
import { Alert, App, Modal, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import { useResetOnOpen } from '../../lists/useResetOnOpen';
import { testHook } from '../../lists/FormModal';
import { TemplateSection } from './TemplateSection';

interface TemplateEditorProps {
  row: settings.SettingRow | undefined;
  onClose(): void;
  onSaved(): void;
}

/**
 * The editor of one template: exactly the sections of its series (x9_vn seven, oem three, rs
 * four), each with its fields; Confirm saves the whole template and closes.
 */
export function TemplateEditor({ row, onClose, onSaved }: TemplateEditorProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const open = row !== undefined;
  const series = (row?.series ?? 'x9_vn') as device.Series;
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const [section, setSection] = useState<device.SettingSection>('language');
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  useResetOnOpen(open, () => {
    setDraft(row ? (JSON.parse(row.jsonData) as { platformMsg: Record<string, unknown> }).platformMsg : {});
    setSection('language');
    setProblem(undefined);
  });

  const save = async () => {
    if (!row) return;
    const json = { platform: series, platformMsg: draft };
    const checked = device.templateJson.safeParse(json);
    if (!checked.success) {
      // Which section and field, so the operator knows where to look.
      const [, sectionName, field] = checked.error.issues[0]?.path.map(String) ?? [];
      const where = [
        sectionName && t(`deviceDetail.section.${sectionName}`),
        field && t(`deviceDetail.field.${field}`),
      ].filter(Boolean);
      setProblem(
        `${t(device.settingIssueKey(checked.error), { ns: CONTRACT_NS })}${where.length ? ` (${where.join(' › ')})` : ''}`,
      );
      return;
    }
    setSaving(true);
    try {
      const reply = await call(settings.updateSetting, {
        id: row.id,
        jsonData: JSON.stringify(checked.data),
      });
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
      title={row ? t('settingPage.templateTitle', { series, id: row.id }) : ''}
      open={open}
      width={900}
      onOk={() => void save()}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={testHook('template-editor-ok')}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => (
        <div data-testid="template-editor" data-series={series}>
          {node}
        </div>
      )}
    >
      {open && Object.keys(draft).length > 0 && (
        <Tabs
          tabPlacement="start"
          activeKey={section}
          onChange={(key) => setSection(key as device.SettingSection)}
          style={{ minHeight: 380 }}
          items={device.sectionsOf(series).map((s) => ({
            key: s,
            label: <span data-testid={`template-tab-${s}`}>{t(`deviceDetail.section.${s}`)}</span>,
            children: (
              <TemplateSection
                series={series}
                section={s}
                values={draft}
                onChange={(next) => {
                  setDraft(next);
                  setProblem(undefined);
                }}
              />
            ),
          }))}
        />
      )}
      {problem && <Alert type="error" showIcon title={problem} data-testid="template-problem" />}
    </Modal>
  );
}
