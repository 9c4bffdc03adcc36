import { useMemo } from 'react';
import { DatePicker, Form, Input, Radio, Select, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { schemaRule } from '../../forms/schemaRule';
import { validWindowRule } from '../../forms/validWindow';
import { DATE_TIME_FORMAT } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import {
  EDITABLE_LICENSE_STATES,
  isLicenseUsed,
  LICENSE_TYPES,
  licenseStateKey,
  licenseTypeKey,
} from './licenseStates';

type License = accounts.License;

interface LicenseValues {
  companyName: string;
  saleName?: number;
  state: number;
  type: 0 | 1;
  validBeginTime?: Dayjs;
  validEndTime?: Dayjs;
}

interface LicenseModalProps {
  /** `null` adds a license; a row edits it. */
  license: License | null | undefined;
  onClose(): void;
  onSaved(): void;
}

const fields = accounts.licenseAdd.params.shape;

export function LicenseModal({ license, onClose, onSaved }: LicenseModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LicenseValues>();
  const open = license !== undefined;
  const used = license ? isLicenseUsed(license) : false;
  const salespeople = useQuery({
    queryKey: ['salespeopleOnJob'],
    queryFn: () => call(accounts.selectSale, {}),
    enabled: open,
  });
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    const required = { required: true, message: translate('notNull') };
    return {
      companyName: [schemaRule(fields.companyName, translate)],
      saleName: [schemaRule(fields.saleName, translate, (v) => v ?? 0)],
      validBeginTime: [required],
      validEndTime: [
        required,
        validWindowRule(translate, () => form.getFieldValue('validBeginTime') as Dayjs | undefined),
      ],
    };
  }, [t, form]);

  // A salesperson who has left is not offered for new licenses but still names this one.
  const options = (salespeople.data?.listObject ?? []).map((s) => ({ value: s.id, label: s.name }));
  if (license && !options.some((o) => o.value === license.saleName))
    options.push({ value: license.saleName, label: license.saleManName });

  const submit = (v: LicenseValues) => {
    const values = {
      companyName: v.companyName.trim(),
      saleName: v.saleName ?? 0,
      // A used license keeps state 0 on the server whatever is sent.
      state: used ? 1 : v.state,
      type: v.type,
      validBeginTime: v.validBeginTime?.valueOf() ?? 0,
      validEndTime: v.validEndTime?.valueOf() ?? 0,
    };
    return license
      ? call(accounts.licenseUpdate, { id: license.id, ...values })
      : call(accounts.licenseAdd, values);
  };

  return (
    <FormModal<LicenseValues>
      title={license ? t('licenses.edit') : t('licenses.add')}
      open={open}
      form={form}
      width={560}
      initialValues={
        license
          ? {
              companyName: license.companyName,
              saleName: license.saleName,
              state: license.state,
              type: license.type,
              validBeginTime: dayjs(license.validBeginTime),
              validEndTime: dayjs(license.validEndTime),
            }
          : {
              state: 1,
              type: 0,
              validBeginTime: dayjs().startOf('day'),
              validEndTime: dayjs().startOf('day').add(1, 'year'),
            }
      }
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="license-form"
    >
      {license && (
        <Form.Item label={t('licenses.key')}>
          <Input value={license.license} disabled />
        </Form.Item>
      )}
      <Form.Item name="companyName" label={t('licenses.companyName')} rules={rules.companyName} required>
        <Input />
      </Form.Item>
      <Form.Item name="saleName" label={t('licenses.salesperson')} rules={rules.saleName} required>
        <Select
          data-testid="license-salesperson"
          loading={salespeople.isLoading}
          options={options}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item name="state" label={t('licenses.state')}>
        {used ? (
          <Tag>{t(licenseStateKey(0))}</Tag>
        ) : (
          <Radio.Group
            options={EDITABLE_LICENSE_STATES.map((state) => ({
              value: state,
              label: t(licenseStateKey(state)),
            }))}
          />
        )}
      </Form.Item>
      <Form.Item name="type" label={t('licenses.type')}>
        <Radio.Group
          disabled={used}
          options={LICENSE_TYPES.map((type) => ({ value: type, label: t(licenseTypeKey(type)) }))}
        />
      </Form.Item>
      <Form.Item name="validBeginTime" label={t('licenses.validBegin')} rules={rules.validBeginTime} required>
        <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="validEndTime"
        label={t('licenses.validEnd')}
        rules={rules.validEndTime}
        dependencies={['validBeginTime']}
        required
      >
        <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: '100%' }} />
      </Form.Item>
    </FormModal>
  );
}
