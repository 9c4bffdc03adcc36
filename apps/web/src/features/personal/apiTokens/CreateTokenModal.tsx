import { useState } from 'react';
import { Alert, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiTokens, TOKEN_SCOPES, type TokenScope } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { useLabels } from '../../labels/useLabels';
import { EXPIRY_DAYS, expiryOf } from './useApiTokens';
import { labelOption } from '../../labels/labelOption';

interface Values {
  name: string;
  scope: TokenScope;
  expiryDays: number;
  labelIds?: number[];
}

/**
 * Makes a token: name, scope, expiry, labels (for users who have labels). The reply's token is
 * shown here once, with a copy button; closing the dialog forgets it.
 */
export function CreateTokenModal(props: {
  open: boolean;
  withLabels: boolean;
  onClose(): void;
  onMade(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [made, setMade] = useState<string>();

  const close = () => {
    setMade(undefined);
    form.resetFields();
    props.onClose();
  };
  const save = async (values: Values) => {
    setSaving(true);
    try {
      const expiresAt = expiryOf(values.expiryDays);
      const reply = await call(apiTokens.createToken, {
        name: values.name,
        scope: values.scope,
        ...(expiresAt ? { expiresAt } : {}),
        ...(values.labelIds?.length ? { labelIds: values.labelIds.join(',') } : {}),
      });
      setMade(reply.dataObject.token);
      props.onMade();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('apiTokens.createTitle')}
      onCancel={close}
      onOk={made ? close : () => form.submit()}
      okText={made ? t('apiTokens.done') : t('apiTokens.create')}
      cancelButtonProps={made ? { style: { display: 'none' } } : {}}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': made ? 'api-token-done' : 'api-token-submit' } as never}
    >
      {made ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={t('apiTokens.shownOnce')} />
          <Typography.Text code copyable style={{ wordBreak: 'break-all' }} data-testid="api-token-secret">
            {made}
          </Typography.Text>
        </Space>
      ) : (
        <TokenForm form={form} withLabels={props.withLabels} onFinish={(v) => void save(v)} />
      )}
    </Modal>
  );
}

function TokenForm(props: {
  form: ReturnType<typeof Form.useForm<Values>>[0];
  withLabels: boolean;
  onFinish(values: Values): void;
}) {
  const { t } = useTranslation();
  return (
    <Form
      form={props.form}
      layout="vertical"
      initialValues={{ scope: 'read', expiryDays: 90 }}
      onFinish={props.onFinish}
      data-testid="api-token-form"
    >
      <Form.Item
        name="name"
        label={t('apiTokens.name')}
        rules={[{ required: true, whitespace: true, message: t('apiTokens.nameRequired') }, { max: 64 }]}
      >
        <Input maxLength={64} placeholder={t('apiTokens.namePlaceholder')} data-testid="api-token-name" />
      </Form.Item>
      <Form.Item name="scope" label={t('apiTokens.scope')}>
        <Radio.Group data-testid="api-token-scope">
          <Space orientation="vertical">
            {TOKEN_SCOPES.map((scope) => (
              <Radio key={scope} value={scope} data-testid={`api-token-scope-${scope}`}>
                <Typography.Text strong>{t(`apiTokens.scopes.${scope}`)}</Typography.Text>{' '}
                <Typography.Text type="secondary">{t(`apiTokens.scopeHelp.${scope}`)}</Typography.Text>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      <Form.Item name="expiryDays" label={t('apiTokens.expiry')}>
        <Select
          data-testid="api-token-expiry"
          options={EXPIRY_DAYS.map((days) => ({
            value: days,
            label: days ? t('apiTokens.days', { count: days }) : t('apiTokens.never'),
          }))}
        />
      </Form.Item>
      {props.withLabels && <LabelField />}
    </Form>
  );
}

function LabelField() {
  const { t } = useTranslation();
  const { labels, loading } = useLabels();
  return (
    <Form.Item name="labelIds" label={t('apiTokens.labels')} extra={t('apiTokens.labelsHelp')}>
      <Select<number[]>
        mode="multiple"
        allowClear
        loading={loading}
        maxCount={50}
        placeholder={t('apiTokens.allPanels')}
        optionFilterProp="label"
        options={labels.map((l) => labelOption(l, t))}
        data-testid="api-token-labels"
      />
    </Form.Item>
  );
}
