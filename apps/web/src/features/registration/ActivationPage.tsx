import { Result, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { SignInLink, StandaloneFrame } from './StandaloneFrame';

/** The activation link's target: activates once and shows the server's message either way. */
export default function ActivationPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const link = {
    userName: search.get('userName') ?? '',
    time: search.get('time') ?? '',
    token: search.get('token') ?? '',
  };
  const activation = useQuery({
    queryKey: ['activation', link.userName, link.time, link.token],
    queryFn: () => call(accounts.userActivation, link, { quietFail: true }),
    staleTime: Infinity,
  });

  let body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  if (activation.data) {
    body = (
      <Result
        status="success"
        title={activation.data.hhtMsg || t('registration.activated')}
        extra={<SignInLink />}
      />
    );
  } else if (activation.isError) {
    const message =
      activation.error instanceof ApiError && activation.error.hhtMsg
        ? activation.error.hhtMsg
        : t('registration.activationFailed');
    body = <Result status="error" title={message} extra={<SignInLink />} />;
  }
  return (
    <StandaloneFrame page="activePage" title={t('pages.activePage')}>
      <div data-testid="activation-result">{body}</div>
    </StandaloneFrame>
  );
}
