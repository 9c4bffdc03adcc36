import { useRef } from 'react';
import { Checkbox, Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { webhooks } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { schemaRule } from '../../../forms/schemaRule';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';

interface Values {
  name: string;
  url: string;
  enabled: boolean;
  events: webhooks.WebhookEventType[];
}

interface WebhookModalProps {
  /** Undefined: a new webhook. */
  hook: webhooks.Webhook | undefined;
  open: boolean;
  onClose(): void;
  /** After a save; a new webhook's reply carries its secret, shown once. */
  onSaved(secret: string | undefined): void;
}

/** Creates or changes a webhook: name, receiving URL, the plain events it subscribes to. */
export function WebhookModal({ hook, open, onClose, onSaved }: WebhookModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const message = (key: string) => t(key, { ns: CONTRACT_NS });
  const secret = useRef<string | undefined>(undefined);
  return (
    <FormModal<Values>
      title={t(hook ? 'alerts.webhook.editTitle' : 'alerts.webhook.addTitle')}
      open={open}
      form={form}
      width={680}
      initialValues={
        hook
          ? {
              name: hook.name,
              url: hook.url,
              enabled: hook.enabled,
              events: hook.events.filter((e) => e !== 'ping'),
            }
          : { name: '', url: 'https://', enabled: true, events: [] }
      }
      submit={async (values) => {
        const reply = await call(
          webhooks.saveWebhook,
          { ...values, ...(hook ? { id: hook.id } : {}) },
          { json: true },
        );
        secret.current = reply.dataObject.secret;
        return reply;
      }}
      onClose={onClose}
      onSaved={() => onSaved(secret.current)}
      testId="webhook-modal"
    >
      <Form.Item
        name="name"
        label={t('alerts.webhook.name')}
        rules={[schemaRule(webhooks.webhookInput.shape.name, message)]}
      >
        <Input maxLength={64} data-testid="webhook-name" />
      </Form.Item>
      <Form.Item
        name="url"
        label={t('alerts.webhook.url')}
        extra={t('alerts.webhook.urlHint')}
        rules={[schemaRule(webhooks.webhookInput.shape.url, message)]}
      >
        <Input maxLength={2000} data-testid="webhook-url" />
      </Form.Item>
      <Form.Item name="events" label={t('alerts.webhook.events')} extra={t('alerts.webhook.eventsHint')}>
        <Checkbox.Group
          data-testid="webhook-events"
          options={webhooks.SUBSCRIBABLE_EVENTS.map((event) => ({
            value: event,
            label: t(`alerts.event.${event}`),
          }))}
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('lists.enabled')} valuePropName="checked">
        <Switch data-testid="webhook-enabled" />
      </Form.Item>
    </FormModal>
  );
}
