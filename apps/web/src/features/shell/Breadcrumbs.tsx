import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { breadcrumbTrail } from './breadcrumbTrail';
import { homeView, PATHS } from '../../paths';

/** Home, the menu entry (or header page) the view belongs to, then the view when it is one of its tabs. */
export function Breadcrumbs({ view, entries }: { view: ViewName | undefined; entries: readonly ViewName[] }) {
  const { t } = useTranslation();
  const trail = breadcrumbTrail(view, entries);
  const items = [
    { title: <Link to={PATHS.home}>{t('shell.home')}</Link> },
    ...trail.map((level, i) => ({
      title:
        i < trail.length - 1 ? (
          <Link to={homeView(level)} data-crumb={level}>
            {t(`views.${level}`)}
          </Link>
        ) : (
          <span data-crumb={level}>{t(`views.${level}`)}</span>
        ),
    })),
  ];
  return <Breadcrumb data-testid="breadcrumbs" items={items} style={{ marginBottom: 16 }} />;
}
