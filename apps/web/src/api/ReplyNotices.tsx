import { useEffect, useSyncExternalStore } from 'react';
import { Modal, notification } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { failNotices, NOTICE_SECONDS } from './failNotices';
import { sessionExpiry } from './sessionExpiry';
import { SESSION_QUERY_KEY } from '../app/queryClient';
import { PATHS } from '../paths';

/** The api client's notices and the login-timeout modal (a chunk of its own: ReplyEffects loads it when needed). */
export default function ReplyNotices() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [notices, holder] = notification.useNotification();
  const waiting = useSyncExternalStore(failNotices.subscribe, failNotices.count);
  const expired = useSyncExternalStore(sessionExpiry.subscribe, sessionExpiry.isOpen);

  useEffect(() => {
    for (const message of failNotices.take())
      notices.error({ title: t('common.tips'), description: message, duration: NOTICE_SECONDS });
  }, [waiting, notices, t]);

  const relogin = () => {
    sessionExpiry.close();
    queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
    navigate(PATHS.login);
  };

  return (
    <>
      {holder}
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
    </>
  );
}
