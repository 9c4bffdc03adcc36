import { useTranslation } from 'react-i18next';
import type { device, settings } from '@panelfleet/contract';

/** Display names of systems and inputs (the protocol keeps its own codes). */
export function useSettingNames() {
  const { t } = useTranslation();
  return {
    system: (system: device.PanelSystem | null | undefined) => (system ? t(`systems.${system}`) : '—'),
    source: (source: device.SourceType | null | undefined) => (source ? t(`sourceNames.${source}`) : '—'),
    /** What a saved setting is, in one line: a template's series, or a source setting's system, series and input. */
    describe: (row: settings.SettingRow) =>
      row.type === '0'
        ? `${row.series} (${t('settingPage.number')} ${row.id})`
        : `${t(`systems.${row.platform ?? 'android'}`)} · ${row.series} · ${t(`sourceNames.${row.sourceType ?? 'front'}`)}`,
  };
}
