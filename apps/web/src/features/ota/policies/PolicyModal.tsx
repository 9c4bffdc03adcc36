import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { otaRules, truncateToWidth } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';

type Rule = ReturnType<typeof otaRules.otaRule.parse>;

interface PolicyValues {
  name: string;
  remark?: string;
  enableIp: boolean;
  enableTimezone: boolean;
  enableSn: boolean;
}

const flag = (on: boolean) => (on ? '1' : '0');

/** Add (`null`) or edit a policy: name required, remark cut at 200 units, at least one filter on. */
export function PolicyModal({
  rule,
  onClose,
  onSaved,
}: {
  rule: Rule | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PolicyValues>();
  const allOff = () => {
    const v = form.getFieldsValue(['enableIp', 'enableTimezone', 'enableSn']) as Partial<PolicyValues>;
    return !v.enableIp && !v.enableTimezone && !v.enableSn
      ? Promise.reject(new Error(t('otaRule.allOff', { ns: CONTRACT_NS })))
      : Promise.resolve();
  };
  const filter = (name: keyof PolicyValues, label: string, testId: string, last = false) => (
    <Form.Item
      name={name}
      label={label}
      valuePropName="checked"
      dependencies={['enableIp', 'enableTimezone', 'enableSn'].filter((n) => n !== name)}
      rules={last ? [{ validator: allOff }] : []}
    >
      <Switch data-testid={testId} />
    </Form.Item>
  );
  return (
    <FormModal<PolicyValues>
      title={rule ? t('ota.policy.editTitle') : t('ota.policy.addTitle')}
      open={rule !== undefined}
      form={form}
      width={600}
      initialValues={
        rule
          ? {
              name: rule.name,
              remark: rule.remark,
              enableIp: rule.enableIp === 1,
              enableTimezone: rule.enableTimezone === 1,
              enableSn: rule.enableSn === 1,
            }
          : { enableIp: false, enableTimezone: true, enableSn: false }
      }
      submit={(v) => {
        const values = {
          name: v.name.trim(),
          remark: v.remark ?? '',
          enableIp: flag(v.enableIp),
          enableTimezone: flag(v.enableTimezone),
          enableSn: flag(v.enableSn),
        } as const;
        return rule
          ? call(otaRules.updateOtaRule, { otaRuleId: rule.otaRuleId, ...values })
          : call(otaRules.insertOtaRule, values);
      }}
      onClose={onClose}
      onSaved={onSaved}
      testId="policy-form"
    >
      <Form.Item
        name="name"
        label={t('ota.policy.name')}
        rules={[{ required: true, whitespace: true, message: t('otaRule.nameNull', { ns: CONTRACT_NS }) }]}
        required
      >
        <Input data-testid="policy-name" maxLength={64} />
      </Form.Item>
      <Form.Item
        name="remark"
        label={t('ota.policy.remark')}
        normalize={(v: string) => truncateToWidth(v ?? '', otaRules.RULE_REMARK_MAX)}
      >
        <Input.TextArea data-testid="policy-remark" rows={3} />
      </Form.Item>
      {filter('enableIp', t('ota.policy.enableIp'), 'policy-enable-ip')}
      {filter('enableTimezone', t('ota.policy.enableTimezone'), 'policy-enable-timezone')}
      {filter('enableSn', t('ota.policy.enableSn'), 'policy-enable-sn', true)}
    </FormModal>
  );
}
