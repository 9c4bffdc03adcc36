import { Form, InputNumber, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { alerts } from '@panelfleet/contract';
import { CONTRACT_NS } from '../../../i18n';
import { schemaRule } from '../../../forms/schemaRule';
import { KIND_FIELDS, type RuleFormValues } from '../ruleForm';

/** Each condition parameter's schema, so the dialog shows the server's own messages. */
function fieldSchema(kind: alerts.AlertRuleKind, field: string) {
  const option = alerts.alertCondition.options.find((o) => o.shape.kind.value === kind);
  return (option?.shape as Record<string, Parameters<typeof schemaRule>[0]> | undefined)?.[field];
}

/** The parameters of the chosen condition kind (what the rule watches), one form per kind. */
export function ConditionFields({ form }: { form: FormInstance<RuleFormValues> }) {
  const { t } = useTranslation();
  const kind = Form.useWatch('kind', form) ?? 'offline';
  const rules = (field: string) => {
    const schema = fieldSchema(kind, field);
    return schema
      ? [
          schemaRule(
            schema,
            (key) => t(key, { ns: CONTRACT_NS }),
            (v) => v,
          ),
        ]
      : [];
  };
  const number = (field: keyof RuleFormValues, unit: string, min: number, max: number) => (
    <Form.Item key={field} name={field} label={t(`alerts.field.${field}`)} rules={rules(field)}>
      <InputNumber
        min={min}
        max={max}
        addonAfter={unit}
        style={{ width: 200 }}
        data-testid={`rule-${field}`}
      />
    </Form.Item>
  );
  const fields: Record<string, () => React.ReactNode> = {
    minutes: () => number('minutes', t('alerts.unit.minutes'), 1, alerts.ALERT_MAX_MINUTES),
    percent: () => number('percent', '%', 0, 100),
    count: () => number('count', t('alerts.unit.logs'), 1, 100_000),
    days: () => number('days', t('alerts.unit.days'), 0, alerts.ALERT_MAX_DAYS),
    value: () => (
      <Form.Item key="value" name="value" label={t('alerts.field.value')} rules={rules('value')}>
        <InputNumber style={{ width: 200 }} data-testid="rule-value" />
      </Form.Item>
    ),
    taskKinds: () => (
      <Form.Item
        key="taskKinds"
        name="taskKinds"
        label={t('alerts.field.taskKinds')}
        rules={rules('taskKinds')}
      >
        <Select
          mode="multiple"
          data-testid="rule-taskKinds"
          options={alerts.TASK_KINDS.map((k) => ({ value: k, label: t(`alerts.taskKind.${k}`) }))}
        />
      </Form.Item>
    ),
    apps: () => (
      <Form.Item key="apps" name="apps" label={t('alerts.field.apps')} extra={t('alerts.field.appsHint')}>
        <Select mode="tags" open={false} data-testid="rule-apps" tokenSeparators={[',', ' ']} />
      </Form.Item>
    ),
    metric: () => (
      <Form.Item key="metric" name="metric" label={t('alerts.field.metric')} rules={rules('metric')}>
        <Select
          data-testid="rule-metric"
          options={alerts.ALERT_METRICS.map((m) => ({ value: m, label: t(`alerts.metric.${m}`) }))}
        />
      </Form.Item>
    ),
    direction: () => (
      <Form.Item
        key="direction"
        name="direction"
        label={t('alerts.field.direction')}
        rules={rules('direction')}
      >
        <Select
          data-testid="rule-direction"
          options={(['above', 'below'] as const).map((d) => ({
            value: d,
            label: t(`alerts.direction.${d}`),
          }))}
        />
      </Form.Item>
    ),
    what: () => (
      <Form.Item key="what" name="what" label={t('alerts.field.what')} rules={rules('what')}>
        <Select
          data-testid="rule-what"
          options={(['certificate', 'licence'] as const).map((w) => ({
            value: w,
            label: t(`alerts.expiring.${w}`),
          }))}
        />
      </Form.Item>
    ),
  };
  return (
    <>
      <Form.Item name="kind" label={t('alerts.field.kind')} rules={[{ required: true }]}>
        <Select
          data-testid="rule-kind"
          options={alerts.ALERT_RULE_KINDS.map((k) => ({ value: k, label: t(`alerts.kind.${k}`) }))}
        />
      </Form.Item>
      {KIND_FIELDS[kind].map((field) => fields[field]?.())}
    </>
  );
}
