import { useMemo, useState } from 'react';
import { App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { md5 } from 'js-md5';
import { accounts } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { confirmationRule, passwordRule } from '../../forms/passwordRules';
import { CONTRACT_NS } from '../../i18n';
import { useRevalidateOnLanguageChange } from '../../forms/useRevalidateOnLanguageChange';

interface PasswordValues {
  userPass: string;
  userNewPass: string;
  userNewPass1: string;
}

/** Old, new and confirm password (sent as MD5); used by the personal center and modify-password view. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  useRevalidateOnLanguageChange(form);
  const [saving, setSaving] = useState(false);

  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      // The old password may predate today's rule: it is only required.
      userPass: [passwordRule(translate, 'modifyPsw.emptyPsw', false)],
      userNewPass: [passwordRule(translate, 'modifyPsw.emptyPsw')],
      userNewPass1: [
        confirmationRule(
          translate,
          () => form.getFieldValue('userNewPass'),
          'modifyPsw.emptyPsw',
          'modifyPsw.differPsw',
        ),
      ],
    };
  }, [t, form]);

  const save = async (values: PasswordValues) => {
    setSaving(true);
    try {
      const reply = await call(accounts.updatePassword, {
        userPass: md5(values.userPass),
        userNewPass: md5(values.userNewPass),
        userNewPass1: md5(values.userNewPass1),
      });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      form.resetFields();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<PasswordValues>
      form={form}
      labelCol={{ span: 6 }}
      wrapperCol={{ span: 14 }}
      onFinish={save}
      style={{ maxWidth: 640 }}
      data-testid="change-password"
    >
      <Form.Item name="userPass" label={t('personal.oldPassword')} rules={rules.userPass} required>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="userNewPass" label={t('personal.newPassword')} rules={rules.userNewPass} required>
        <Input.Password autoComplete="new-password" placeholder={t('registration.passwordHint')} />
      </Form.Item>
      <Form.Item
        name="userNewPass1"
        label={t('personal.confirmPassword')}
        rules={rules.userNewPass1}
        dependencies={['userNewPass']}
        required
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 6, span: 14 }}>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="change-password-submit">
          {t('personal.confirmChange')}
        </Button>
      </Form.Item>
    </Form>
  );
}
