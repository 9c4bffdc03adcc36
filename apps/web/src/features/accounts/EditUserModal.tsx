import { useMemo } from 'react';
import { DatePicker, Form, Input, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { schemaRule } from '../../forms/schemaRule';
import { DATE_TIME_FORMAT } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { PROGRAM_ROLES, roleLabelKey } from './programRoles';
import { validWindowRule } from '../../forms/validWindow';

type ConsoleUser = accounts.ConsoleUser;

interface EditUserValues {
  state: 0 | 1;
  role: number;
  remark?: string;
  validBeginTime?: Dayjs | null;
  validEndTime?: Dayjs | null;
}

const fields = accounts.updateUser.params.shape;
const toDay = (ms: number | null) => (ms === null ? null : dayjs(ms));

/** Name, phone and e-mail are read-only; state, role, remark and the valid window change. */
export function EditUserModal({
  user,
  onClose,
  onSaved,
}: {
  user: ConsoleUser | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditUserValues>();
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      remark: [schemaRule(fields.remark, translate)],
      validEndTime: [
        validWindowRule(translate, () => form.getFieldValue('validBeginTime') as Dayjs | null | undefined),
      ],
    };
  }, [t, form]);

  return (
    <FormModal<EditUserValues>
      title={t('accounts.editUser')}
      open={user !== undefined}
      form={form}
      initialValues={
        user && {
          state: user.state,
          role: user.role,
          remark: user.remark,
          validBeginTime: toDay(user.validBeginTime),
          validEndTime: toDay(user.validEndTime),
        }
      }
      submit={(v) =>
        call(accounts.updateUser, {
          userId: user?.userId ?? 0,
          state: v.state,
          role: v.role,
          remark: v.remark?.trim() ?? '',
          validBeginTime: v.validBeginTime ? v.validBeginTime.valueOf() : '',
          validEndTime: v.validEndTime ? v.validEndTime.valueOf() : '',
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="user-edit"
    >
      <Form.Item label={t('accounts.userName')}>
        <Input value={user?.userName} disabled />
      </Form.Item>
      <Form.Item label={t('accounts.phone')}>
        <Input value={user?.phone} disabled />
      </Form.Item>
      <Form.Item label={t('accounts.email')}>
        <Input value={user?.email} disabled />
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
      <Form.Item name="validBeginTime" label={t('accounts.validBegin')}>
        <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="validEndTime"
        label={t('accounts.validEnd')}
        rules={rules.validEndTime}
        dependencies={['validBeginTime']}
      >
        <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="remark" label={t('accounts.remark')} rules={rules.remark}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
