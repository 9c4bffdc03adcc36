import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { PATHS } from '../../paths';

export function Breadcrumbs({ view }: { view: ViewName | undefined }) {
  const { t } = useTranslation();
  const items = [
    { title: <Link to={PATHS.home}>{t('shell.home')}</Link> },
    ...(view ? [{ title: t(`views.${view}`) }] : []),
  ];
  return <Breadcrumb data-testid="breadcrumbs" items={items} style={{ marginBottom: 16 }} />;
}
