import { useMemo } from 'react';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';

interface PersonalValues {
  email: string;
  phone: string;
}

interface EditPersonalModalProps {
  open: boolean;
  userId: number;
  current: PersonalValues;
  onClose(): void;
  onSaved(): void;
}

const fields = accounts.updatePersonal.params.shape;

/** Only e-mail and phone are the user's to change; name and company are not. */
export function EditPersonalModal({ open, userId, current, onClose, onSaved }: EditPersonalModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PersonalValues>();
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return { email: [schemaRule(fields.email, translate)], phone: [schemaRule(fields.phone, translate)] };
  }, [t]);
  return (
    <FormModal<PersonalValues>
      title={t('personal.editTitle')}
      open={open}
      form={form}
      initialValues={current}
      submit={(values) =>
        call(accounts.updatePersonal, { userId, email: values.email.trim(), phone: values.phone.trim() })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="personal-edit"
    >
      <Form.Item name="email" label={t('personal.email')} rules={rules.email} required>
        <Input />
      </Form.Item>
      <Form.Item name="phone" label={t('personal.phone')} rules={rules.phone} required>
        <Input />
      </Form.Item>
    </FormModal>
  );
}
