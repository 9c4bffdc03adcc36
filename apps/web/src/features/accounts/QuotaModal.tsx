import { useEffect, useMemo } from 'react';
import { Form, Input, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accounts, auth } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY, USER_TYPE_QUERY_KEY } from '../../app/queryClient';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';

type Customer = accounts.Customer;

interface QuotaValues {
  userNumber: string;
}

/**
 * How many console users a customer may have: digits only. Read-only for whoever the call's
 * access declaration does not let change it (a customer manager, type 3).
 */
export function QuotaModal({ customer, onClose }: { customer: Customer | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<QuotaValues>();
  const quota = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'quota', customer?.customerId],
    queryFn: () => call(accounts.getQuota, { customerId: customer?.customerId ?? 0 }),
    enabled: customer !== undefined,
    staleTime: 0,
    select: (reply) => reply.dataObject,
  });
  const current = quota.data;
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const userType = session.data?.userType;
  const mayChange = userType !== undefined && accounts.updateQuota.access.types.includes(userType);
  useEffect(() => {
    if (current) form.setFieldValue('userNumber', String(current.userNumber));
  }, [current, form]);
  const rules = useMemo(
    () => [schemaRule(accounts.updateQuota.params.shape.userNumber, (key) => t(key, { ns: CONTRACT_NS }))],
    [t],
  );

  return (
    <FormModal<QuotaValues>
      title={t('accounts.quotaTitle')}
      open={customer !== undefined}
      form={form}
      submit={({ userNumber }) => {
        if (!current) throw new Error('the quota has not been read yet');
        return call(accounts.updateQuota, {
          customerUserNumberId: current.customerUserNumberId,
          userNumber: userNumber.trim(),
        });
      }}
      onClose={onClose}
      onSaved={() => void quota.refetch()}
      testId="quota"
      readOnly={!mayChange}
    >
      <Typography.Paragraph type="secondary">
        {t('accounts.quotaNotes', { name: customer?.companyName ?? '' })}
      </Typography.Paragraph>
      {!mayChange && (
        <Typography.Paragraph type="warning" data-testid="quota-read-only">
          {t('accounts.quotaReadOnly')}
        </Typography.Paragraph>
      )}
      {current ? (
        <Form.Item name="userNumber" label={t('accounts.userAmount')} rules={rules} required={mayChange}>
          <Input inputMode="numeric" readOnly={!mayChange} data-testid="quota-input" />
        </Form.Item>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
    </FormModal>
  );
}
