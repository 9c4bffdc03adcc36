import { Menu } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../paths';
import { VIEW_ICONS } from './viewIcons';

export function SideMenu({ entries, current }: { entries: ViewName[]; current: ViewName | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const items = entries.map((view) => ({
    key: view,
    icon: VIEW_ICONS[view],
    label: <span data-menu={view}>{t(`views.${view}`)}</span>,
  }));
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={current ? [current] : []}
      onClick={({ key }) => navigate(homeView(key))}
    />
  );
}
