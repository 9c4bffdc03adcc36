import { Suspense, useEffect } from 'react';
import { App, Spin } from 'antd';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { allowedViews, mustActivate, startView, type Deployment, type ShellUser } from '@panelfleet/contract';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import { homeView } from '../../paths';
import { isViewName, viewComponent } from './views';

interface Access {
  user: ShellUser;
  deployment: Deployment;
}

/** Sends the user to their start view; an inactive customer is told to activate first. */
export function StartRedirect({ user, deployment }: Access) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const held = mustActivate(user);
  useEffect(() => {
    if (!held) return;
    // A fixed key keeps it to one notice however often the redirect renders.
    notification.warning({
      key: 'PleaseActive',
      title: t('common.tips'),
      description: t('PleaseActive', { ns: CONTRACT_NS }),
      duration: NOTICE_SECONDS,
    });
  }, [held, notification, t]);
  return <Navigate to={homeView(startView(user, deployment))} replace />;
}

/** One view of the shell, if this user may open it. */
export function ViewRoute({ user, deployment }: Access) {
  const { view } = useParams();
  const allowed = allowedViews(user, deployment);
  if (!isViewName(view) || !allowed.has(view)) {
    return <StartRedirect user={user} deployment={deployment} />;
  }
  const View = viewComponent(view);
  return (
    <div data-view={view}>
      <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
        <View view={view} />
      </Suspense>
    </div>
  );
}
