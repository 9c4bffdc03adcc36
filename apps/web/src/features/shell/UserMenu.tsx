import { App, Avatar, Dropdown } from 'antd';
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auth } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { homeView, PATHS } from '../../paths';
import { usePersonalInfo } from '../personal/personalQuery';
import { headerAvatarUrl, initialOf } from './userAvatar';

export function UserMenu({ userName, color }: { userName: string; color: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const personal = usePersonalInfo();
  const avatar = headerAvatarUrl(personal.data?.avatar);

  const quit = () =>
    modal.confirm({
      title: t('shell.quitTitle'),
      content: t('shell.quitConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () =>
        call(auth.logout, {})
          .then(() => {
            queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
            navigate(PATHS.login);
          })
          // The client has already told the user why; the dialog just closes.
          .catch(() => undefined),
    });

  const items = [
    {
      key: 'personCenter',
      icon: <UserOutlined />,
      label: <span data-testid="menu-person-center">{t('shell.personCenter')}</span>,
    },
    { type: 'divider' as const },
    { key: 'quit', icon: <LogoutOutlined />, label: <span data-testid="menu-quit">{t('shell.quit')}</span> },
  ];

  return (
    <Dropdown
      menu={{ items, onClick: ({ key }) => (key === 'quit' ? quit() : navigate(homeView('personCenter'))) }}
      placement="bottomRight"
    >
      <span
        data-testid="user-menu"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 8, cursor: 'pointer', color }}
      >
        {/* Without an image, or when it cannot be loaded, antd shows the initial instead. */}
        <Avatar
          size="small"
          src={avatar}
          alt={userName}
          data-testid="header-avatar"
          data-avatar={avatar ? 'image' : 'initial'}
          style={{ background: 'rgba(255, 255, 255, 0.25)', color: '#fff', flex: 'none' }}
        >
          {initialOf(userName)}
        </Avatar>
        <span>{userName}</span>
      </span>
    </Dropdown>
  );
}
