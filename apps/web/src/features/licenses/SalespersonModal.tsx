import { useMemo } from 'react';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';

type Salesperson = accounts.Salesperson;

interface SalespersonValues {
  work_number: string;
  name: string;
  companyName: string;
  phone: string;
  jobState: 0 | 1;
}

const fields = accounts.saleManAdd.params.shape;

/** Add (`null`) or edit a salesperson; the work number is read-only on edit. */
export function SalespersonModal({
  salesperson,
  onClose,
  onSaved,
}: {
  salesperson: Salesperson | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SalespersonValues>();
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      work_number: [schemaRule(fields.work_number, translate)],
      name: [schemaRule(fields.name, translate)],
      companyName: [schemaRule(fields.companyName, translate)],
      phone: [schemaRule(fields.phone, translate)],
    };
  }, [t]);

  const submit = (v: SalespersonValues) => {
    const values = {
      name: v.name.trim(),
      companyName: v.companyName.trim(),
      phone: v.phone.trim(),
      jobState: v.jobState,
    };
    return salesperson
      ? call(accounts.saleManUpdate, { id: salesperson.id, ...values })
      : call(accounts.saleManAdd, { ...values, work_number: v.work_number.trim() });
  };

  return (
    <FormModal<SalespersonValues>
      title={salesperson ? t('salespeople.edit') : t('salespeople.add')}
      open={salesperson !== undefined}
      form={form}
      initialValues={salesperson ?? { jobState: 1 }}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="salesperson-form"
    >
      <Form.Item
        name="work_number"
        label={t('salespeople.workNumber')}
        rules={salesperson ? [] : rules.work_number}
        required
      >
        <Input disabled={!!salesperson} />
      </Form.Item>
      <Form.Item name="name" label={t('salespeople.name')} rules={rules.name} required>
        <Input />
      </Form.Item>
      <Form.Item name="companyName" label={t('salespeople.companyName')} rules={rules.companyName} required>
        <Input />
      </Form.Item>
      <Form.Item name="phone" label={t('salespeople.phone')} rules={rules.phone} required>
        <Input />
      </Form.Item>
      <Form.Item name="jobState" label={t('salespeople.jobState')}>
        <Radio.Group
          options={[
            { value: 1, label: t('salespeople.onJob') },
            { value: 0, label: t('salespeople.offJob') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}
