import { useMemo, useState } from 'react';
import { Button, Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingControl } from './SettingField';
import {
  changeOf,
  fieldsOf,
  isExtensionFeature,
  switchFeature,
  takenSources,
  valueOf,
  withValue,
  type SectionValues,
  type SettingField,
} from './settingFields';
import type { PanelSettings } from './useDeviceDetail';

interface SettingPanelProps {
  settings: PanelSettings | undefined;
  online: boolean;
  push(change: SectionValues): Promise<boolean>;
}

/** The report with edits on top (sections merged field by field). */
function merged(reported: SectionValues, edits: SectionValues): SectionValues {
  return Object.fromEntries(
    Object.entries(reported).map(([section, value]) => {
      const edit = edits[section];
      if (edit === undefined) return [section, value];
      return [
        section,
        typeof value === 'object' && value !== null ? { ...value, ...(edit as object) } : edit,
      ];
    }),
  );
}

/** The panel's current settings as it reports them; changed values are pushed to it, nothing else. */
export function SettingPanel({ settings, online, push }: SettingPanelProps) {
  const { t } = useTranslation();
  const [edits, setEdits] = useState<SectionValues>({});
  const [sending, setSending] = useState(false);
  const reported = useMemo(
    () => Object.fromEntries((settings?.rows ?? []).map((r) => [r.section, r.value])),
    [settings],
  );
  // Each new report drops the edits it now shows (a pushed change stays visible until the panel reports it).
  const [seen, setSeen] = useState(settings);
  if (settings !== seen) {
    setSeen(settings);
    setEdits((current) => changeOf(reported, merged(reported, current)));
  }
  if (!settings?.platform) return <Empty description={t('deviceDetail.settingsNotReported')} />;

  // What the form shows: the report with this operator's edits on top.
  const shown = merged(reported, edits);
  const change = changeOf(reported, shown);
  const dirty = Object.keys(change).length > 0;

  const set = (field: SettingField, value: unknown) => {
    let next = withValue(shown, field, value);
    if (field.section === 'newlineExtension' && isExtensionFeature(field.name)) {
      next = {
        ...next,
        newlineExtension: switchFeature(
          shown.newlineExtension as Record<string, unknown>,
          field.name,
          value === true,
        ),
      };
    }
    setEdits(changeOf(reported, next));
  };
  const disabledOptions = (field: SettingField) => {
    if (field.section !== 'newlineExtension' || !field.name.endsWith('Source')) return undefined;
    const feature = field.name.slice(0, -'Source'.length);
    return isExtensionFeature(feature)
      ? takenSources(shown.newlineExtension as Record<string, unknown>, feature)
      : undefined;
  };
  const send = async () => {
    setSending(true);
    await push(change);
    setSending(false);
  };

  return (
    <div data-testid="panel-setting">
      <Typography.Text type="secondary">
        {t('deviceDetail.series', { series: settings.platform })}
      </Typography.Text>
      <div style={{ maxHeight: 340, overflowY: 'auto', margin: '8px 0', paddingRight: 4 }}>
        {fieldsOf(settings.platform).map(({ section, fields }) => (
          <div key={section} style={{ marginBottom: 10 }} data-section={section}>
            {!fields[0]?.whole && (
              <Typography.Text strong>{t(`deviceDetail.section.${section}`)}</Typography.Text>
            )}
            {fields.map((field) => (
              <div
                key={field.name}
                style={
                  field.kind.kind === 'week'
                    ? { padding: '3px 0' }
                    : {
                        display: 'flex',
                        justifyContent: 'space-between',
                        alignItems: 'center',
                        padding: '3px 0',
                      }
                }
              >
                <Typography.Text strong={field.whole === true} style={{ fontSize: 13, display: 'block' }}>
                  {t(`deviceDetail.field.${field.name}`)}
                </Typography.Text>
                <SettingControl
                  field={field}
                  value={valueOf(shown, field)}
                  disabledOptions={disabledOptions(field)}
                  onChange={(v) => set(field, v)}
                />
              </div>
            ))}
          </div>
        ))}
      </div>
      <Space>
        <Button
          type="primary"
          disabled={!dirty || !online}
          loading={sending}
          onClick={() => void send()}
          data-testid="setting-push"
        >
          {t('deviceDetail.pushChanges')}
        </Button>
        <Button disabled={!dirty} onClick={() => setEdits({})} data-testid="setting-reset">
          {t('deviceDetail.discardChanges')}
        </Button>
      </Space>
    </div>
  );
}
