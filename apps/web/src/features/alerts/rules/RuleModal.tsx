import { Divider, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accounts, alerts, device, webhooks } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { schemaRule } from '../../../forms/schemaRule';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';
import { LABELS_KEY } from '../../labels/useLabels';
import { labelOption } from '../../labels/labelOption';
import { formToInput, NEW_RULE, ruleToForm, type RuleFormValues } from '../ruleForm';
import { useAlertAccess } from '../useAlertAccess';
import { ALERTS_KEY } from '../useAlertCounts';
import { ConditionFields } from './ConditionFields';

interface RuleModalProps {
  /** Undefined: a new rule. */
  rule: alerts.AlertRule | undefined;
  open: boolean;
  onClose(): void;
  onSaved(): void;
}

/** Creates or changes an alert rule: what it watches, how long, which panels, where it is sent. */
export function RuleModal({ rule, open, onClose, onSaved }: RuleModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const access = useAlertAccess();
  const message = (key: string) => t(key, { ns: CONTRACT_NS });
  const labels = useQuery({
    queryKey: LABELS_KEY,
    queryFn: () => call(device.listGroups, {}),
    enabled: open && access.readLabels,
  });
  const users = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'alertRecipients'],
    queryFn: () => call(accounts.userList, { start: 1, size: 100 }).then((reply) => reply.listObject),
    enabled: open && access.readUsers,
  });
  const hooks = useQuery({
    queryKey: [...ALERTS_KEY, 'webhookNames'],
    queryFn: () => call(webhooks.listWebhooks, { start: 1, size: 100 }).then((reply) => reply.listObject),
    enabled: open,
  });
  return (
    <FormModal<RuleFormValues>
      title={t(rule ? 'alerts.rule.editTitle' : 'alerts.rule.addTitle')}
      open={open}
      form={form}
      width={760}
      initialValues={rule ? ruleToForm(rule) : NEW_RULE}
      submit={(values) => call(alerts.saveAlertRule, formToInput(values, rule?.id), { json: true })}
      onClose={onClose}
      onSaved={onSaved}
      testId="rule-modal"
    >
      <Form.Item
        name="name"
        label={t('alerts.rule.name')}
        rules={[schemaRule(alerts.alertRuleInput.shape.name, message)]}
      >
        <Input maxLength={64} data-testid="rule-name" />
      </Form.Item>
      <Form.Item name="severity" label={t('alerts.column.severity')}>
        <Radio.Group
          data-testid="rule-severity"
          options={alerts.ALERT_SEVERITIES.map((s) => ({ value: s, label: t(`alerts.severity.${s}`) }))}
        />
      </Form.Item>
      <ConditionFields form={form} />
      <Form.Item
        name="durationSeconds"
        label={t('alerts.field.durationSeconds')}
        extra={t('alerts.field.durationHint')}
        rules={[schemaRule(alerts.alertRuleInput.shape.durationSeconds, message, (v) => v)]}
      >
        <InputNumber
          min={0}
          max={alerts.ALERT_MAX_DURATION_SECONDS}
          addonAfter={t('alerts.unit.seconds')}
          style={{ width: 200 }}
          data-testid="rule-duration"
        />
      </Form.Item>
      <Form.Item name="labelIds" label={t('alerts.rule.labels')} extra={t('alerts.rule.labelsHint')}>
        <Select
          mode="multiple"
          allowClear
          data-testid="rule-labels"
          optionFilterProp="label"
          options={(labels.data?.listObject ?? []).map((label) => labelOption(label, t))}
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('lists.enabled')} valuePropName="checked">
        <Switch data-testid="rule-enabled" />
      </Form.Item>
      <Divider plain>{t('alerts.rule.channels')}</Divider>
      {access.readUsers && (
        <Form.Item name="emailUserIds" label={t('alerts.field.emailUsers')}>
          <Select
            mode="multiple"
            allowClear
            data-testid="rule-email-users"
            optionFilterProp="label"
            loading={users.isFetching}
            options={(users.data ?? []).map((user) => ({
              value: user.userId,
              label: user.email ? `${user.userName} <${user.email}>` : user.userName,
            }))}
          />
        </Form.Item>
      )}
      <Form.Item
        name="emailAddresses"
        label={t('alerts.field.emailAddresses')}
        extra={t('alerts.field.emailAddressesHint')}
        rules={[schemaRule(alerts.alertChannels.shape.emailAddresses, message, (v) => v ?? [])]}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[',', ';', ' ']}
          data-testid="rule-email-addresses"
        />
      </Form.Item>
      <Form.Item name="emailMode" label={t('alerts.field.emailMode')}>
        <Radio.Group
          data-testid="rule-email-mode"
          options={(['grouped', 'digest'] as const).map((mode) => ({
            value: mode,
            label: t(`alerts.emailMode.${mode}`),
          }))}
        />
      </Form.Item>
      <Form.Item name="webhookIds" label={t('views.webhooks')}>
        <Select
          mode="multiple"
          allowClear
          data-testid="rule-webhooks"
          optionFilterProp="label"
          loading={hooks.isFetching}
          options={(hooks.data ?? []).map((hook) => ({ value: hook.id, label: hook.name }))}
        />
      </Form.Item>
    </FormModal>
  );
}
