import { useState } from 'react';
import { Layout, Typography } from 'antd';
import { Navigate, Route, Routes, useMatch } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auth, menuFor, type Deployment, type ShellUser } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { FullPageSpin } from '../../app/FullPageSpin';
import { USER_TYPE_QUERY_KEY } from '../../app/queryClient';
import { useRuntimeConfig } from '../../app/RuntimeConfig';
import { PATHS } from '../../paths';
import { AppHeader } from './AppHeader';
import { Breadcrumbs } from './Breadcrumbs';
import { Logo } from './Logo';
import { SideMenu } from './SideMenu';
import { isViewName } from './views';
import { StartRedirect, ViewRoute } from './ViewRoute';

export const SIDER_WIDTH = 230;
export const SIDER_COLLAPSED_WIDTH = 64;

export default function HomeLayout() {
  const config = useRuntimeConfig();
  // Asked afresh each time the shell is entered: type and activation state can change between visits.
  const session = useQuery({
    queryKey: USER_TYPE_QUERY_KEY,
    queryFn: () => call(auth.userType, {}),
    staleTime: 0,
  });

  if (session.isError) {
    // Expiry and transport errors are already on their way elsewhere; a plain refusal goes back to sign-in.
    return session.error instanceof ApiError && session.error.kind === 'fail' ? (
      <Navigate to={PATHS.login} replace />
    ) : (
      <FullPageSpin />
    );
  }
  if (!session.data) return <FullPageSpin />;

  const user: ShellUser = { userType: session.data.userType, state: session.data.state };
  const deployment: Deployment = { special: config.roleFlag === 1 };
  return <Shell user={user} deployment={deployment} userName={session.data.userName} />;
}

function Shell({
  user,
  deployment,
  userName,
}: {
  user: ShellUser;
  deployment: Deployment;
  userName: string;
}) {
  const [collapsed, setCollapsed] = useState(false);
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  // The sider is narrow: our short name, or the special deployment's own title.
  const title = deployment.special && config.title ? config.title : t('app.name');
  const match = useMatch(`${PATHS.home}/:view`);
  const current = isViewName(match?.params.view) ? match.params.view : undefined;
  const entries = menuFor(user, deployment);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={SIDER_WIDTH}
        collapsedWidth={SIDER_COLLAPSED_WIDTH}
        collapsed={collapsed}
        trigger={null}
        collapsible
      >
        <div
          style={{
            height: 56,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 10,
            padding: '0 12px',
            overflow: 'hidden',
          }}
        >
          {!deployment.special && <Logo size={28} color="#fff" />}
          {!collapsed && (
            <Typography.Text strong ellipsis style={{ color: '#fff', fontSize: 16 }} title={title}>
              {title}
            </Typography.Text>
          )}
        </div>
        <SideMenu entries={entries} current={current} />
      </Layout.Sider>
      <Layout>
        <AppHeader collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} userName={userName} />
        <Layout.Content style={{ padding: 16 }}>
          <Breadcrumbs view={current} entries={entries} />
          <Routes>
            <Route index element={<StartRedirect user={user} deployment={deployment} />} />
            <Route path=":view" element={<ViewRoute user={user} deployment={deployment} />} />
            <Route path="*" element={<Navigate to={PATHS.errorPage} replace />} />
          </Routes>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
