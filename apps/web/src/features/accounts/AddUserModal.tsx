import { useMemo } from 'react';
import { Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { md5 } from 'js-md5';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { passwordRule } from '../../forms/passwordRules';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { CONSOLE_USER_TYPES, PROGRAM_ROLES, roleLabelKey, userTypeLabelKey } from './programRoles';

interface AddUserValues {
  userName: string;
  password: string;
  phone: string;
  email: string;
  state: 0 | 1;
  remark?: string;
  role: 0 | 1 | 2;
  userType: '3' | '4';
}

const fields = accounts.insertUser.params.shape;

export function AddUserModal({
  open,
  onClose,
  onSaved,
}: {
  open: boolean;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddUserValues>();
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      userName: [schemaRule(fields.userName, translate)],
      password: [passwordRule(translate, 'notNull')],
      phone: [schemaRule(fields.phone, translate)],
      email: [schemaRule(fields.email, translate)],
      remark: [schemaRule(fields.remark, translate)],
    };
  }, [t]);

  return (
    <FormModal<AddUserValues>
      title={t('accounts.addUser')}
      open={open}
      form={form}
      initialValues={{ state: 1, role: 0, userType: '4' }}
      submit={(v) =>
        call(accounts.insertUser, {
          userName: v.userName.trim(),
          password: md5(v.password),
          phone: v.phone.trim(),
          email: v.email.trim(),
          state: v.state,
          remark: v.remark?.trim() || undefined,
          role: v.role,
          userType: v.userType,
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="user-add"
    >
      <Form.Item name="userName" label={t('accounts.userName')} rules={rules.userName} required>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="password" label={t('accounts.password')} rules={rules.password} required>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="phone" label={t('accounts.phone')} rules={rules.phone} required>
        <Input />
      </Form.Item>
      <Form.Item name="email" label={t('accounts.email')} rules={rules.email} required>
        <Input />
      </Form.Item>
      <Form.Item name="state" label={t('accounts.state')}>
        <Radio.Group
          options={[
            { value: 1, label: t('lists.enabled') },
            { value: 0, label: t('lists.disabled') },
          ]}
        />
      </Form.Item>
      <Form.Item name="role" label={t('accounts.role')}>
        <Select options={PROGRAM_ROLES.map((role) => ({ value: role, label: t(roleLabelKey(role)) }))} />
      </Form.Item>
      <Form.Item name="userType" label={t('accounts.userType')}>
        <Select
          data-testid="user-type"
          options={CONSOLE_USER_TYPES.map((type) => ({ value: type, label: t(userTypeLabelKey(type)) }))}
        />
      </Form.Item>
      <Form.Item name="remark" label={t('accounts.remark')} rules={rules.remark}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
