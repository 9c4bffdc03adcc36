import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';

export default function ViewPlaceholder({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  return (
    <Card title={t(`views.${view}`)}>
      <Typography.Text type="secondary">{t('shell.laterRelease')}</Typography.Text>
    </Card>
  );
}
