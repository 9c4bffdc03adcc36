import { useMemo, useState } from 'react';
import { App, Button, Form, Input, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { accounts, isValidEmail } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { useRevalidateOnLanguageChange } from '../../forms/useRevalidateOnLanguageChange';
import { CONTRACT_NS } from '../../i18n';
import { SignInLink, StandaloneFrame } from './StandaloneFrame';

interface FindValues {
  email: string;
}

/** Asks for a reset link; the reply is the same whether or not the address is known. */
export default function FindPasswordPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<FindValues>();
  useRevalidateOnLanguageChange(form);
  const [sending, setSending] = useState(false);

  const emailRule = useMemo(
    () => ({
      async validator(_rule: unknown, value: unknown) {
        const text = typeof value === 'string' ? value.trim() : '';
        if (!text) throw new Error(t('findPassword.contentNull', { ns: CONTRACT_NS }));
        if (!isValidEmail(text)) throw new Error(t('findPassword.errorEmail', { ns: CONTRACT_NS }));
      },
    }),
    [t],
  );

  const send = async ({ email }: FindValues) => {
    setSending(true);
    try {
      const reply = await call(accounts.forgetPassword, { email: email.trim() });
      modal.success({
        title: t('common.tips'),
        content: reply.hhtMsg,
        okText: t('common.ok'),
        onOk: () => form.resetFields(),
      });
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <StandaloneFrame page="findPassword" title={t('pages.findPassword')}>
      <Typography.Paragraph type="secondary">{t('registration.findPasswordHint')}</Typography.Paragraph>
      <Form<FindValues> form={form} size="large" onFinish={send}>
        <Form.Item name="email" rules={[emailRule]}>
          <Input prefix={<MailOutlined />} placeholder={t('registration.email')} autoComplete="email" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={sending} data-testid="find-password-submit">
            {t('registration.sendResetLink')}
          </Button>
        </Form.Item>
      </Form>
      <div style={{ textAlign: 'center' }}>
        <SignInLink />
      </div>
    </StandaloneFrame>
  );
}
