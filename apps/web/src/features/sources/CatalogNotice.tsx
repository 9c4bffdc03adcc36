import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** Told to readers of a catalog (machine types, OTA versions), who see it without add, edit and delete. */
export function CatalogReadOnlyNotice({ catalog }: { catalog: 'machineTypes' | 'otaVersions' }) {
  const { t } = useTranslation();
  return (
    <Alert
      data-testid="catalog-read-only"
      data-catalog={catalog}
      type="info"
      showIcon
      title={t(`catalog.readOnly.${catalog}`)}
      style={{ marginBottom: 16 }}
    />
  );
}

/** What the signal-source list holds for this user: the catalog it keeps, or the catalog beside its own. */
export function SourcesNotice({ keepsCatalog }: { keepsCatalog: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert
      data-testid="sources-notice"
      type="info"
      showIcon
      title={t(keepsCatalog ? 'catalog.catalogSources' : 'catalog.ownSources')}
      style={{ marginBottom: 16 }}
    />
  );
}
