import { useMemo } from 'react';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { sources } from '@panelfleet/contract';
import { call } from '../../api/client';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';

interface SourceValues {
  name: string;
  sourceKey: string;
}

/** Add (`null`) or edit a signal source: name and key required, the key in the panels' key form. */
export function SourceModal({
  source,
  onClose,
  onSaved,
}: {
  source: sources.SignalSource | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SourceValues>();
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      name: [schemaRule(sources.sourceNameField, translate)],
      sourceKey: [schemaRule(sources.sourceKeyField, translate)],
    };
  }, [t]);

  const submit = (v: SourceValues) => {
    const values = { name: v.name.trim(), sourceKey: v.sourceKey.trim() };
    return source
      ? call(sources.updateSource, { id: source.id, ...values })
      : call(sources.addSource, values);
  };

  return (
    <FormModal<SourceValues>
      title={source ? t('sources.edit') : t('sources.add')}
      open={source !== undefined}
      form={form}
      initialValues={source ?? undefined}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="source-form"
    >
      <Form.Item name="name" label={t('sources.name')} rules={rules.name} required>
        <Input data-testid="source-name" maxLength={32} />
      </Form.Item>
      <Form.Item
        name="sourceKey"
        label={t('sources.key')}
        rules={rules.sourceKey}
        required
        extra={t('sources.keyHint')}
      >
        <Input data-testid="source-key" maxLength={32} />
      </Form.Item>
    </FormModal>
  );
}
