import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Result, Spin } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { servers } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { PATHS } from '../../paths';
import { SignInLink, StandaloneFrame } from '../registration/StandaloneFrame';
import { licenseStateOf, type LicenseState } from './licenseState';
import { useCountdown } from './useCountdown';

const ACTIVATION_COUNTDOWN_SECONDS = 3;
const CHECK_QUERY_KEY = ['serverLicense', 'check'];

/**
 * /active: a private deployment's server-license activation. The license check decides the form:
 * 3004 first activation (registerLicense), 3005 re-activation after expiry (activationServer).
 */
export default function ActiveServerPage() {
  const { t } = useTranslation();
  const check = useQuery({
    queryKey: CHECK_QUERY_KEY,
    queryFn: async (): Promise<LicenseState> => {
      try {
        await call(servers.checkLicense, {}, { quietFail: true });
        return 'active';
      } catch (error) {
        const state = licenseStateOf(error);
        if (state) return state;
        throw error;
      }
    },
    staleTime: 0,
    retry: false,
  });

  let body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  if (check.data === 'active') {
    body = <Result status="success" title={t('serverLicense.alreadyActive')} extra={<SignInLink />} />;
  } else if (check.data) {
    body = <LicenseForm mode={check.data} />;
  } else if (check.isError) {
    const message =
      check.error instanceof ApiError && check.error.hhtMsg
        ? check.error.hhtMsg
        : t('serverLicense.checkFailed');
    body = <Result status="error" title={message} extra={<SignInLink />} />;
  }
  return (
    <StandaloneFrame page="active" title={t('pages.active')}>
      <div data-testid="server-license">{body}</div>
    </StandaloneFrame>
  );
}

function LicenseForm({ mode }: { mode: Exclude<LicenseState, 'active'> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const [activated, setActivated] = useState(false);
  const rules = useMemo(
    () => [schemaRule(servers.registerLicense.params.shape.license, (key) => t(key, { ns: CONTRACT_NS }))],
    [t],
  );
  const backToSignIn = useCallback(() => navigate(PATHS.login), [navigate]);
  const secondsLeft = useCountdown(ACTIVATION_COUNTDOWN_SECONDS, activated, backToSignIn);

  const activate = async ({ license }: { license: string }) => {
    setSubmitting(true);
    try {
      await call(mode === 'firstActivation' ? servers.registerLicense : servers.activationServer, {
        license: license.trim(),
      });
      setActivated(true);
    } catch (error) {
      // The fail notice has been shown; the form stays for another try.
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setSubmitting(false);
    }
  };

  const first = mode === 'firstActivation';
  return (
    <>
      <Alert
        type={first ? 'info' : 'warning'}
        showIcon
        data-testid={`license-mode-${mode}`}
        message={t(first ? 'serverLicense.firstTitle' : 'serverLicense.renewTitle')}
        description={t(first ? 'serverLicense.firstHint' : 'serverLicense.renewHint')}
        style={{ marginBottom: 24 }}
      />
      <Form<{ license: string }> size="large" initialValues={{ license: '' }} onFinish={activate}>
        <Form.Item name="license" rules={rules}>
          <Input
            prefix={<KeyOutlined />}
            placeholder={t('serverLicense.license')}
            autoComplete="off"
            autoFocus
            data-testid="license-input"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting} data-testid="license-submit">
            {t(first ? 'serverLicense.activate' : 'serverLicense.reactivate')}
          </Button>
        </Form.Item>
      </Form>
      <SignInLink />
      <Modal
        open={activated}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={null}
        centered
        width={400}
      >
        <Result
          status="success"
          title={t('serverLicense.activatedTitle')}
          subTitle={
            <span data-testid="activation-countdown">
              {t('serverLicense.countdown', { seconds: secondsLeft })}
            </span>
          }
          extra={
            <Button type="primary" onClick={backToSignIn}>
              {t('serverLicense.signInNow')}
            </Button>
          }
        />
      </Modal>
    </>
  );
}
