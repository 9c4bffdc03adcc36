import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { FormModal } from '../../lists/FormModal';

type Customer = accounts.Customer;

/** Enable or disable a customer account. */
export function CustomerStateModal({
  customer,
  onClose,
  onSaved,
}: {
  customer: Customer | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ state: 0 | 1 }>();
  return (
    <FormModal<{ state: 0 | 1 }>
      title={t('accounts.editCustomer')}
      open={customer !== undefined}
      form={form}
      initialValues={customer && { state: customer.state }}
      submit={({ state }) => call(accounts.updateCustomer, { userId: customer?.userId ?? 0, state })}
      onClose={onClose}
      onSaved={onSaved}
      testId="customer-edit"
    >
      <Form.Item label={t('accounts.userName')}>
        <Input value={customer?.userName} disabled />
      </Form.Item>
      <Form.Item label={t('accounts.companyName')}>
        <Input value={customer?.companyName} disabled />
      </Form.Item>
      <Form.Item name="state" label={t('accounts.accountState')}>
        <Radio.Group
          options={[
            { value: 1, label: t('lists.enabled') },
            { value: 0, label: t('lists.disabled') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}
