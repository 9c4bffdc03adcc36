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
