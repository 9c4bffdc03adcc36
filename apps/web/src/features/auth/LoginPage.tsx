import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Form, theme } from 'antd';
// Input's own modules: antd's `Input` export hangs TextArea, Search, OTP and Group on itself, so
// importing it brings them all into the sign-in page.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { md5 } from 'js-md5';
import { auth, CAPTCHA_LENGTH } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { useAppTitle, useRuntimeConfig } from '../../app/RuntimeConfig';
import { usePreferences } from '../../app/Preferences';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { schemaRule } from '../../forms/schemaRule';
import { useRevalidateOnLanguageChange } from '../../forms/useRevalidateOnLanguageChange';
import { CONTRACT_NS } from '../../i18n';
import { PATHS } from '../../paths';
import { LanguageSwitch } from '../shell/LanguageSwitch';
import { Logo } from '../shell/Logo';
import { CAPTCHA_REFRESH_MS, captchaUrl } from './captcha';
import { readRememberedName, rememberNameCookie } from './rememberedName';
import { storeProgramRole } from './programRole';
import { isLicenseRefusal } from '../serverLicense/licenseState';
import { withIdentityCatalogs } from '../identity/catalogs';

// The second step (a code, or the enrolment an organisation requires) loads only when asked for.
const SecondStep = lazy(withIdentityCatalogs(() => import('../identity/SecondStep')));

const SsoEntry = lazy(() => import('./SsoEntry'));

interface LoginValues {
  username: string;
  password: string;
  tryCode: string;
}

const fields = auth.login.params.shape;
const SERVER_LEVEL_WITH_REGISTER = 2;
const SERVER_LEVEL_WITHOUT_FORGOT = 3;

export default function LoginPage() {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const title = useAppTitle();
  const { skin } = usePreferences();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<LoginValues>();
  const { token } = theme.useToken();
  const [submitting, setSubmitting] = useState(false);
  const [captchaStamp, setCaptchaStamp] = useState(() => Date.now());
  const [rememberedName] = useState(() => readRememberedName(document.cookie));
  // Why the last attempt was refused, kept as the message's key so it follows a language switch.
  const [refusal, setRefusal] = useState<ApiError>();
  const [secondStep, setSecondStep] = useState<'secondFactor' | 'enrol'>();
  // Single sign-on: opened by its link, or at once when the provider sent the browser back refused.
  const [ssoOpen, setSsoOpen] = useState(() => new URLSearchParams(window.location.search).has('sso'));
  useRevalidateOnLanguageChange(form);

  // CAPTCHA=off on the server: no captcha to show, answer or refresh.
  const withCaptcha = config.captcha;
  const refreshCaptcha = useCallback(() => setCaptchaStamp(Date.now()), []);
  useEffect(() => {
    if (!withCaptcha) return;
    const timer = window.setInterval(refreshCaptcha, CAPTCHA_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [refreshCaptcha, withCaptcha]);

  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      username: [schemaRule(fields.username, translate)],
      // Checked as it will be sent: the MD5 of what was typed, or nothing.
      password: [
        schemaRule(fields.password, translate, (v) => (typeof v === 'string' && v !== '' ? md5(v) : '')),
      ],
      tryCode: [schemaRule(auth.captchaAnswer, translate)],
    };
  }, [t]);

  const signedIn = (programRole: string) => {
    storeProgramRole(localStorage, programRole);
    queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
    navigate(PATHS.home);
  };

  const signIn = async ({ username, password, tryCode }: LoginValues) => {
    setSubmitting(true);
    setRefusal(undefined);
    try {
      const reply = await call(
        auth.login,
        {
          username: username.trim(),
          password: md5(password),
          ...(withCaptcha ? { tryCode: tryCode.trim() } : {}),
        },
        { quietFail: true },
      );
      document.cookie = rememberNameCookie(username.trim());
      if (reply.nextStep !== 'done') {
        setSecondStep(reply.nextStep);
        return;
      }
      signedIn(reply.program_role);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A private deployment that is not (or no longer) activated: the license page comes first.
      if (isLicenseRefusal(error)) {
        navigate(PATHS.active);
        return;
      }
      if (error.kind === 'fail') setRefusal(error);
      // The server consumed the captcha; the user needs a new one.
      form.setFieldValue('tryCode', '');
      refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  const special = config.roleFlag === 1;
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: `linear-gradient(135deg, ${skin.color} 0%, #0b1a33 100%)`,
      }}
    >
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: '12px 24px' }}>
        <LanguageSwitch color="#fff" />
      </div>
      <div
        style={{
          flex: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          paddingBottom: 80,
        }}
      >
        {/* A plain panel in antd's card look: antd's Card would bring its tabs and skeleton (and
            Typography its editing and copying) into the first download. */}
        <div
          style={{
            width: 420,
            boxSizing: 'border-box',
            padding: '32px 32px 16px',
            background: token.colorBgContainer,
            border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
            color: token.colorText,
            fontFamily: token.fontFamily,
            fontSize: token.fontSize,
            lineHeight: token.lineHeight,
          }}
        >
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 12,
              marginBottom: 8,
            }}
          >
            {!special && <Logo size={40} color={skin.color} />}
            <h4
              style={{
                margin: 0,
                color: token.colorTextHeading,
                fontSize: token.fontSizeHeading4,
                lineHeight: token.lineHeightHeading4,
                fontWeight: token.fontWeightStrong,
              }}
            >
              {title}
            </h4>
          </div>
          <p style={{ textAlign: 'center', margin: '0 0 24px', color: token.colorTextDescription }}>
            {t('login.title')}
          </p>
          {secondStep && (
            <Suspense fallback={null}>
              <SecondStep
                step={secondStep}
                onSignedIn={signedIn}
                onBack={() => {
                  setSecondStep(undefined);
                  form.setFieldValue('tryCode', '');
                  refreshCaptcha();
                }}
              />
            </Suspense>
          )}
          <Form<LoginValues>
            hidden={!!secondStep}
            form={form}
            size="large"
            initialValues={{ username: rememberedName, password: '', tryCode: '' }}
            onFinish={signIn}
          >
            <Form.Item name="username" rules={rules.username}>
              <Input
                prefix={<UserOutlined />}
                placeholder={t('login.userName')}
                autoComplete="username"
                autoFocus={!rememberedName}
              />
            </Form.Item>
            <Form.Item name="password" rules={rules.password}>
              <Password
                prefix={<LockOutlined />}
                placeholder={t('login.password')}
                autoComplete="current-password"
                autoFocus={!!rememberedName}
              />
            </Form.Item>
            {withCaptcha && (
              <Form.Item required={false}>
                <div style={{ display: 'flex', gap: 8 }}>
                  <Form.Item name="tryCode" rules={rules.tryCode} noStyle>
                    <Input
                      prefix={<SafetyOutlined />}
                      placeholder={t('login.captcha')}
                      maxLength={CAPTCHA_LENGTH}
                      autoComplete="off"
                      style={{ flex: 1 }}
                    />
                  </Form.Item>
                  <img
                    data-testid="captcha"
                    src={captchaUrl(captchaStamp)}
                    alt={t('login.captchaAlt')}
                    title={t('login.captchaAlt')}
                    onClick={refreshCaptcha}
                    style={{
                      width: 120,
                      height: 40,
                      cursor: 'pointer',
                      border: '1px solid #d9d9d9',
                      borderRadius: 6,
                    }}
                  />
                </div>
              </Form.Item>
            )}
            {refusal && (
              <Alert
                type="error"
                showIcon
                data-testid="login-refusal"
                style={{ marginBottom: 16 }}
                title={
                  refusal.catalogMessage
                    ? t(refusal.catalogMessage.key, { ns: CONTRACT_NS, ...refusal.catalogMessage.vars })
                    : refusal.hhtMsg
                }
              />
            )}
            <Form.Item>
              <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
                {t('login.submit')}
              </Button>
            </Form.Item>
          </Form>
          <div style={{ display: 'flex', justifyContent: 'space-between', minHeight: 22 }}>
            {config.serverLevel !== SERVER_LEVEL_WITHOUT_FORGOT ? (
              <TokenLink to="/findPassword" testId="forgot-link">
                {t('login.forgot')}
              </TokenLink>
            ) : (
              <span />
            )}
            {config.serverLevel === SERVER_LEVEL_WITH_REGISTER && (
              <TokenLink to="/register" testId="register-link">
                {t('login.register')}
              </TokenLink>
            )}
          </div>
          {ssoOpen ? (
            <Suspense fallback={null}>
              <SsoEntry />
            </Suspense>
          ) : (
            <Button type="link" block onClick={() => setSsoOpen(true)} data-testid="sso-open">
              {t('login.ssoOpen')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

/** A router link in antd's link colours (antd sets them only where a component that resets links renders). */
function TokenLink({ to, testId, children }: { to: string; testId: string; children: ReactNode }) {
  const { token } = theme.useToken();
  const [hover, setHover] = useState(false);
  return (
    <Link
      to={to}
      data-testid={testId}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      style={{
        color: hover ? token.colorLinkHover : token.colorLink,
        textDecoration: 'none',
        transition: `color ${token.motionDurationSlow}`,
      }}
    >
      {children}
    </Link>
  );
}
