import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** Told to readers of the catalog, who see it without add, edit and delete. */
export function CatalogReadOnlyNotice() {
  const { t } = useTranslation();
  return (
    <Alert
      data-testid="catalog-read-only"
      type="info"
      showIcon
      title={t('catalog.readOnly')}
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
