import { useEffect, useState } from 'react';
import { App, Button, Card, Checkbox, Form, Input, Select, Space, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sso } from '@panelfleet/contract';
import { call } from '../../api/client';
import { PROGRAM_ROLES, roleLabelKey } from '../accounts/programRoles';

interface MappingValues {
  claim: string;
  value: string;
  userType: '0' | '1' | '3' | '4';
  programRole: 0 | 1 | 2;
}

interface SettingsValues {
  enabled: boolean;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string;
  mappings: MappingValues[];
  jit: boolean;
  ssoOnly: boolean;
  breakGlassUser: string;
}

const QUERY_KEY = ['sso', 'settings'];

/** The organisation's single sign-on, set up by its administrator (issue 29). */
export default function SsoSettingsView() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SettingsValues>();
  const [saving, setSaving] = useState(false);
  const settings = useQuery({ queryKey: QUERY_KEY, queryFn: () => call(sso.settings, {}) });
  const item = settings.data?.dataObject;

  useEffect(() => {
    if (!item) return;
    form.setFieldsValue({
      ...item,
      enabled: item.enabled === 1,
      jit: item.jit === 1,
      ssoOnly: item.ssoOnly === 1,
      clientSecret: '',
      mappings: item.mappings,
    });
  }, [item, form]);

  const save = async (values: SettingsValues) => {
    setSaving(true);
    try {
      const reply = await call(sso.saveSettings, {
        ...values,
        enabled: values.enabled ? 1 : 0,
        jit: values.jit ? 1 : 0,
        ssoOnly: values.ssoOnly ? 1 : 0,
        mappings: JSON.stringify(values.mappings ?? []),
      });
      if (reply.hhtMsg) void message.success(reply.hhtMsg);
      await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    } finally {
      setSaving(false);
    }
  };

  const userTypes = ['0', '1', '3', '4'].map((type) => ({ value: type, label: t(`sso.type${type}`) }));
  return (
    <Card title={t('sso.title')} loading={settings.isLoading} data-testid="sso-settings">
      <Form<SettingsValues> form={form} layout="vertical" onFinish={save} style={{ maxWidth: 720 }}>
        <Form.Item name="enabled" valuePropName="checked">
          <Checkbox data-testid="sso-enabled">{t('sso.enabled')}</Checkbox>
        </Form.Item>
        <Form.Item name="displayName" label={t('sso.displayName')} required>
          <Input data-testid="sso-display-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="issuer" label={t('sso.issuer')} required>
          <Input data-testid="sso-issuer" placeholder="https://" />
        </Form.Item>
        <Form.Item name="clientId" label={t('sso.clientId')} required>
          <Input data-testid="sso-client-id" />
        </Form.Item>
        <Form.Item
          name="clientSecret"
          label={t('sso.clientSecret')}
          extra={item?.hasSecret === 1 ? t('sso.secretKept') : undefined}
        >
          <Input.Password data-testid="sso-client-secret" autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="emailDomains" label={t('sso.emailDomains')}>
          <Input data-testid="sso-domains" placeholder="school.example" />
        </Form.Item>
        <Form.Item label={t('sso.mappings')} extra={t('sso.mappingsHelp')}>
          <Form.List name="mappings">
            {(rows, { add, remove }) => (
              <>
                {rows.map((row) => (
                  <Space key={row.key} align="baseline">
                    <Form.Item name={[row.name, 'claim']} rules={[{ required: true }]}>
                      <Input
                        style={{ width: 120 }}
                        placeholder={t('sso.claim')}
                        title={t('sso.claim')}
                        data-testid="sso-map-claim"
                      />
                    </Form.Item>
                    <Form.Item name={[row.name, 'value']} rules={[{ required: true }]}>
                      <Input
                        style={{ width: 140 }}
                        placeholder={t('sso.value')}
                        title={t('sso.value')}
                        data-testid="sso-map-value"
                      />
                    </Form.Item>
                    <Form.Item name={[row.name, 'userType']} rules={[{ required: true }]}>
                      <Select
                        style={{ width: 230 }}
                        placeholder={t('sso.userType')}
                        options={userTypes}
                        data-testid="sso-map-type"
                      />
                    </Form.Item>
                    <Form.Item name={[row.name, 'programRole']} initialValue={0}>
                      <Select
                        style={{ width: 160 }}
                        title={t('sso.programRole')}
                        options={PROGRAM_ROLES.map((role) => ({ value: role, label: t(roleLabelKey(role)) }))}
                      />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(row.name)} />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  onClick={() => add({ programRole: 0 })}
                  icon={<PlusOutlined />}
                  data-testid="sso-map-add"
                >
                  {t('sso.addMapping')}
                </Button>
              </>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item name="jit" valuePropName="checked">
          <Checkbox data-testid="sso-jit">{t('sso.jit')}</Checkbox>
        </Form.Item>
        <Form.Item name="ssoOnly" valuePropName="checked">
          <Checkbox data-testid="sso-only">{t('sso.ssoOnly')}</Checkbox>
        </Form.Item>
        <Form.Item name="breakGlassUser" label={t('sso.breakGlassUser')}>
          <Input data-testid="sso-break-glass" />
        </Form.Item>
        <Form.Item label={t('sso.redirectUrl')}>
          <Typography.Text copyable data-testid="sso-redirect-url">
            {item?.redirectUrl}
          </Typography.Text>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="sso-save">
          {t('sso.save')}
        </Button>
      </Form>
    </Card>
  );
}
