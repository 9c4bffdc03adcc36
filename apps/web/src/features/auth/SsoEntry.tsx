import { useState } from 'react';
import { Alert, Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { sso } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { CONTRACT_NS } from '../../i18n';

/** Why the last single sign-on was refused: the server sends the browser back with `?sso=<key>`. */
function refusalKey(): string | undefined {
  const key = new URLSearchParams(window.location.search).get('sso');
  return key && /^(sso|login)\.[A-Za-z]+$/.test(key) ? key : undefined;
}

/**
 * "Sign in with your organisation": the user names the organisation or types an e-mail of an SSO
 * domain, and the button of its provider sends the browser there (loaded only when opened).
 */
export default function SsoEntry() {
  const { t } = useTranslation();
  const [provider, setProvider] = useState<{ providerId: number; displayName: string }>();
  const [refusal, setRefusal] = useState<string | undefined>(refusalKey);
  const [looking, setLooking] = useState(false);

  const find = async ({ name }: { name: string }) => {
    setLooking(true);
    setRefusal(undefined);
    try {
      const found = await call(sso.find, { name }, { quietFail: true });
      setProvider({ providerId: found.providerId, displayName: found.displayName });
    } catch (error) {
      setProvider(undefined);
      if (error instanceof ApiError) setRefusal(error.catalogMessage?.key ?? 'sso.notFound');
      else throw error;
    } finally {
      setLooking(false);
    }
  };

  return (
    <div data-testid="sso-entry" style={{ marginTop: 12 }}>
      {refusal && (
        <Alert
          type="error"
          showIcon
          data-testid="sso-refusal"
          style={{ marginBottom: 12 }}
          title={t(refusal, { ns: CONTRACT_NS })}
        />
      )}
      <Form layout="vertical" onFinish={find}>
        <Form.Item
          name="name"
          label={t('login.ssoName')}
          rules={[{ required: true, message: t('login.ssoNameNull') }]}
        >
          <Input data-testid="sso-name" placeholder={t('login.ssoNameHint')} />
        </Form.Item>
        <Button htmlType="submit" block loading={looking} data-testid="sso-find">
          {t('login.ssoFind')}
        </Button>
      </Form>
      {provider && (
        <Button
          type="primary"
          block
          style={{ marginTop: 12 }}
          data-testid="sso-go"
          href={`/platform/sso/start?provider=${provider.providerId}&returnTo=${encodeURIComponent('/home')}`}
        >
          {t('login.ssoWith', { name: provider.displayName })}
        </Button>
      )}
    </div>
  );
}
