import { useMemo, useState } from 'react';
import { App, Button, Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { md5 } from 'js-md5';
import { accounts } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { confirmationRule, passwordRule } from '../../forms/passwordRules';
import { schemaRule } from '../../forms/schemaRule';
import { useRevalidateOnLanguageChange } from '../../forms/useRevalidateOnLanguageChange';
import { CONTRACT_NS } from '../../i18n';
import { PATHS } from '../../paths';
import { SignInLink, StandaloneFrame } from './StandaloneFrame';

interface RegisterValues {
  companyName: string;
  saleName?: number;
  license: string;
  userName: string;
  phone: string;
  email: string;
  userPass: string;
  secondPassword: string;
}

const fields = accounts.register.params.shape;

export default function RegisterPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterValues>();
  useRevalidateOnLanguageChange(form);
  const [submitting, setSubmitting] = useState(false);
  const salespeople = useQuery({
    queryKey: ['salespeopleOnJob'],
    queryFn: () => call(accounts.selectSale, {}),
  });

  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      companyName: [schemaRule(fields.companyName, translate)],
      saleName: [schemaRule(fields.saleName, translate, (v) => v ?? 0)],
      license: [schemaRule(fields.license, translate)],
      userName: [schemaRule(fields.userName, translate)],
      phone: [schemaRule(fields.phone, translate)],
      email: [schemaRule(fields.email, translate)],
      userPass: [passwordRule(translate, 'register.contentNull')],
      secondPassword: [
        confirmationRule(
          translate,
          () => form.getFieldValue('userPass'),
          'register.contentNull',
          'register.difference',
        ),
      ],
    };
  }, [t, form]);

  const register = async (values: RegisterValues) => {
    setSubmitting(true);
    try {
      const reply = await call(accounts.register, {
        companyName: values.companyName.trim(),
        saleName: values.saleName ?? 0,
        license: values.license.trim(),
        userName: values.userName.trim(),
        phone: values.phone.trim(),
        email: values.email.trim(),
        userPass: md5(values.userPass),
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
      setSubmitting(false);
    }
  };

  return (
    <StandaloneFrame page="register" title={t('pages.register')} width={560}>
      <Form<RegisterValues>
        form={form}
        labelCol={{ span: 7 }}
        wrapperCol={{ span: 17 }}
        onFinish={register}
        autoComplete="off"
      >
        <Form.Item
          name="companyName"
          label={t('registration.companyName')}
          rules={rules.companyName}
          required
        >
          <Input />
        </Form.Item>
        <Form.Item name="saleName" label={t('registration.salesperson')} rules={rules.saleName} required>
          <Select
            data-testid="register-salesperson"
            placeholder={t('registration.chooseSalesperson')}
            loading={salespeople.isLoading}
            options={(salespeople.data?.listObject ?? []).map((s) => ({ value: s.id, label: s.name }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Form.Item name="license" label={t('registration.license')} rules={rules.license} required>
          <Input />
        </Form.Item>
        <Form.Item name="userName" label={t('registration.userName')} rules={rules.userName} required>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item name="phone" label={t('registration.phone')} rules={rules.phone} required>
          <Input />
        </Form.Item>
        <Form.Item name="email" label={t('registration.email')} rules={rules.email} required>
          <Input />
        </Form.Item>
        <Form.Item name="userPass" label={t('registration.password')} rules={rules.userPass} required>
          <Input.Password autoComplete="new-password" placeholder={t('registration.passwordHint')} />
        </Form.Item>
        <Form.Item
          name="secondPassword"
          label={t('registration.secondPassword')}
          rules={rules.secondPassword}
          dependencies={['userPass']}
          required
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 7, span: 17 }}>
          <Button type="primary" htmlType="submit" block loading={submitting} data-testid="register-submit">
            {t('registration.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div style={{ textAlign: 'center' }}>
        <SignInLink />
      </div>
    </StandaloneFrame>
  );
}
