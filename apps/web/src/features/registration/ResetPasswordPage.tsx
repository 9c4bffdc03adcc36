import { useMemo, useState } from 'react';
import { App, Button, Form, Input, Modal, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { md5 } from 'js-md5';
import { accounts } from '@panelfleet/contract';
import { alreadyReported, ApiError, call } from '../../api/client';
import { confirmationRule, passwordRule } from '../../forms/passwordRules';
import { useRevalidateOnLanguageChange } from '../../forms/useRevalidateOnLanguageChange';
import { CONTRACT_NS } from '../../i18n';
import { PATHS } from '../../paths';
import { SignInLink, StandaloneFrame } from './StandaloneFrame';

interface ResetValues {
  password: string;
  secondPassword: string;
}

/** The reset link's target: checks the link, then takes the new password twice. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [form] = Form.useForm<ResetValues>();
  useRevalidateOnLanguageChange(form);
  const [saving, setSaving] = useState(false);
  const link = {
    email: search.get('email') ?? '',
    uuid: search.get('uuid') ?? '',
    token: search.get('token') ?? '',
  };
  const check = useQuery({
    queryKey: ['resetLink', link.email, link.uuid, link.token],
    queryFn: () => call(accounts.verificationEmail, link, { quietFail: true }),
    staleTime: Infinity,
  });

  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      password: [passwordRule(translate, 'forgetPsw.emptyPsw')],
      secondPassword: [
        confirmationRule(
          translate,
          () => form.getFieldValue('password'),
          'forgetPsw.emptyPsw',
          'forgetPsw.difference',
        ),
      ],
    };
  }, [t, form]);

  const reset = async (values: ResetValues) => {
    setSaving(true);
    try {
      const reply = await call(accounts.resetPassword, {
        ...link,
        password: md5(values.password),
        secondPassword: md5(values.secondPassword),
      });
      modal.success({
        title: t('common.tips'),
        content: reply.hhtMsg,
        okText: t('registration.toSignIn'),
        onOk: () => navigate(PATHS.login),
      });
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  const failure = check.isError
    ? (check.error instanceof ApiError && check.error.hhtMsg) || t('registration.invalidLink')
    : undefined;
  return (
    <StandaloneFrame page="forgetpassword" title={t('pages.forgetpassword')}>
      {check.isLoading && <Spin style={{ display: 'block', margin: '24px auto' }} />}
      {check.data && (
        <Form<ResetValues> form={form} size="large" onFinish={reset}>
          <Form.Item name="password" rules={rules.password}>
            <Input.Password placeholder={t('registration.newPassword')} autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="secondPassword" rules={rules.secondPassword} dependencies={['password']}>
            <Input.Password placeholder={t('registration.confirmPassword')} autoComplete="new-password" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={saving} data-testid="reset-submit">
              {t('registration.resetSubmit')}
            </Button>
          </Form.Item>
        </Form>
      )}
      <div style={{ textAlign: 'center' }}>
        <SignInLink />
      </div>
      <Modal
        open={failure !== undefined}
        title={t('common.tips')}
        closable={false}
        mask={{ closable: false }}
        footer={<SignInLink />}
      >
        <div data-testid="reset-link-failure">{failure}</div>
      </Modal>
    </StandaloneFrame>
  );
}
