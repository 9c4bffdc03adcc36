import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
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
  const [submitting, setSubmitting] = useState(false);
  const [captchaStamp, setCaptchaStamp] = useState(() => Date.now());
  const [rememberedName] = useState(() => readRememberedName(document.cookie));
  // Why the last attempt was refused, kept as the message's key so it follows a language switch.
  const [refusal, setRefusal] = useState<ApiError>();
  useRevalidateOnLanguageChange(form);

  const refreshCaptcha = useCallback(() => setCaptchaStamp(Date.now()), []);
  useEffect(() => {
    const timer = window.setInterval(refreshCaptcha, CAPTCHA_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [refreshCaptcha]);

  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      username: [schemaRule(fields.username, translate)],
      // Checked as it will be sent: the MD5 of what was typed, or nothing.
      password: [
        schemaRule(fields.password, translate, (v) => (typeof v === 'string' && v !== '' ? md5(v) : '')),
      ],
      tryCode: [schemaRule(fields.tryCode, translate)],
    };
  }, [t]);

  const signIn = async ({ username, password, tryCode }: LoginValues) => {
    setSubmitting(true);
    setRefusal(undefined);
    try {
      const reply = await call(
        auth.login,
        { username: username.trim(), password: md5(password), tryCode: tryCode.trim() },
        { quietFail: true },
      );
      document.cookie = rememberNameCookie(username.trim());
      storeProgramRole(localStorage, reply.program_role);
      queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
      navigate(PATHS.home);
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
        <Card style={{ width: 420 }} styles={{ body: { padding: '32px 32px 16px' } }}>
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
            <Typography.Title level={4} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
          </div>
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 24 }}>
            {t('login.title')}
          </Typography.Paragraph>
          <Form<LoginValues>
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
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('login.password')}
                autoComplete="current-password"
                autoFocus={!!rememberedName}
              />
            </Form.Item>
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
              <Link to="/findPassword" data-testid="forgot-link">
                {t('login.forgot')}
              </Link>
            ) : (
              <span />
            )}
            {config.serverLevel === SERVER_LEVEL_WITH_REGISTER && (
              <Link to="/register" data-testid="register-link">
                {t('login.register')}
              </Link>
            )}
          </div>
        </Card>
      </div>
    </div>
  );
}
