import { Menu } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { menuEntryOf } from './breadcrumbTrail';
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
  // A tab view (the task list of OTA management, say) lights up the menu entry that hosts it.
  const selected = current && menuEntryOf(current, entries);
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected] : []}
      onClick={({ key }) => navigate(homeView(key))}
    />
  );
}
