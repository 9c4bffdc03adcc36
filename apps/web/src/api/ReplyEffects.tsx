import { useLayoutEffect, useSyncExternalStore } from 'react';
import { App, Modal } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { configureClient } from './client';
import { sessionExpiry } from './sessionExpiry';
import { SESSION_QUERY_KEY } from '../app/queryClient';
import { PATHS } from '../paths';

export const NOTICE_SECONDS = 3;

/** Connects the api client to the router, antd notices and the login-timeout modal. */
export function ReplyEffects() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { notification } = App.useApp();
  const { t } = useTranslation();
  const expired = useSyncExternalStore(sessionExpiry.subscribe, sessionExpiry.isOpen);

  // A layout effect, so the effects are in place before any query starts fetching.
  useLayoutEffect(() => {
    configureClient({
      effects: {
        sessionExpired: sessionExpiry.open,
        fail: (message) =>
          notification.error({ title: t('common.tips'), description: message, duration: NOTICE_SECONDS }),
        navigate: (path) => navigate(path),
      },
    });
  }, [navigate, notification, t]);

  const relogin = () => {
    sessionExpiry.close();
    queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
    navigate(PATHS.login);
  };

  return (
    <Modal
      open={expired}
      title={t('session.timeoutTitle')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      okText={t('session.relogin')}
      footer={(_, { OkBtn }) => <OkBtn />}
      onOk={relogin}
      modalRender={(node) => <div data-testid="login-timeout">{node}</div>}
    >
      {t('session.timeoutContent')}
    </Modal>
  );
}
