import { useState } from 'react';
import { App, Button, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { webhooks } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { formatDateTime } from '../../../format/dateTime';
import { operationsColumn, PagedTable, RowAction, textColumn } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { useFilteredList } from '../../../lists/usePagedList';
import { useAlertAccess } from '../useAlertAccess';
import { DeliveriesDrawer } from './DeliveriesDrawer';
import { SecretModal } from './SecretModal';
import { WebhookModal } from './WebhookModal';

type Hook = webhooks.Webhook;

/**
 * Webhooks (view `webhooks`): the organisation's signed receivers; add, edit, rotate the secret
 * (shown once), send a test event, the delivery log with redelivery. A webhook the server turned
 * off after repeated failures says why.
 */
export default function WebhooksPanel() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const access = useAlertAccess();
  const confirm = useConfirmAction();
  const [editing, setEditing] = useState<Hook | 'new'>();
  const [secret, setSecret] = useState<string>();
  const [log, setLog] = useState<Hook>();
  const list = useFilteredList<Hook, undefined>('webhooks', (start, size) =>
    call(webhooks.listWebhooks, { start, size }),
  );

  const test = async (hook: Hook) => {
    try {
      const reply = await call(webhooks.testWebhook, { id: hook.id });
      void message.success(reply.hhtMsg || t('alerts.webhook.testSent'), NOTICE_SECONDS);
      list.reload();
    } catch (error) {
      alreadyReported(error);
    }
  };
  const rotate = (hook: Hook) =>
    modal.confirm({
      title: t('common.tips'),
      content: t('alerts.webhook.rotateConfirm', { name: hook.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const reply = await call(webhooks.rotateWebhookSecret, { id: hook.id });
          setSecret(reply.dataObject.secret);
        } catch (error) {
          alreadyReported(error);
        }
      },
    });

  const state = (hook: Hook) => {
    if (hook.enabled) return <Tag color="blue">{t('lists.enabled')}</Tag>;
    const tag = (
      <Tag color="red" data-testid="webhook-disabled">
        {t('lists.disabled')}
      </Tag>
    );
    return hook.disabledReason ? (
      <Space direction="vertical" size={0}>
        {tag}
        <Typography.Text type="danger" data-testid="webhook-disabled-reason">
          {hook.disabledReason}
        </Typography.Text>
      </Space>
    ) : (
      tag
    );
  };
  const columns: TableColumnsType<Hook> = [
    textColumn<Hook>(t('alerts.webhook.name'), 'name', 160),
    textColumn<Hook>(t('alerts.webhook.url'), 'url'),
    {
      title: t('alerts.webhook.events'),
      key: 'events',
      render: (_, hook) =>
        hook.events.length ? (
          <Tooltip title={hook.events.map((e) => t(`alerts.event.${e}`)).join(t('alerts.listSeparator'))}>
            <span>{t('alerts.webhook.eventCount', { count: hook.events.length })}</span>
          </Tooltip>
        ) : (
          t('alerts.webhook.rulesOnly')
        ),
    },
    { title: t('alerts.webhook.state'), key: 'state', render: (_, hook) => state(hook) },
    {
      title: t('alerts.webhook.lastDelivery'),
      key: 'last',
      render: (_, hook) =>
        hook.lastDeliveryAt === null ? (
          ''
        ) : (
          <Space direction="vertical" size={0}>
            <span>{formatDateTime(hook.lastDeliveryAt)}</span>
            <Typography.Text type={hook.consecutiveFailures ? 'danger' : 'secondary'}>
              {hook.lastStatus ?? t('alerts.webhook.noAnswer')}
              {hook.consecutiveFailures > 0 &&
                ` · ${t('alerts.webhook.failures', { count: hook.consecutiveFailures })}`}
            </Typography.Text>
          </Space>
        ),
    },
    operationsColumn<Hook>(
      t('lists.operations'),
      (hook) => (
        <>
          {access.editWebhooks && (
            <RowAction label={t('lists.edit')} testId="webhook-edit" onClick={() => setEditing(hook)} />
          )}
          {access.testWebhooks && (
            <RowAction
              label={t('alerts.webhook.test')}
              testId="webhook-test"
              onClick={() => void test(hook)}
            />
          )}
          {access.rotateSecrets && (
            <RowAction
              label={t('alerts.webhook.rotate')}
              testId="webhook-rotate"
              onClick={() => rotate(hook)}
            />
          )}
          <RowAction
            label={t('alerts.webhook.deliveries')}
            testId="webhook-deliveries"
            onClick={() => setLog(hook)}
          />
          {access.deleteWebhooks && (
            <RowAction
              danger
              label={t('lists.delete')}
              testId="webhook-delete"
              onClick={() =>
                confirm(
                  t('lists.deleteConfirm', { name: hook.name }),
                  () => call(webhooks.deleteWebhook, { id: hook.id }),
                  list.reload,
                )
              }
            />
          )}
        </>
      ),
      220,
    ),
  ];
  return (
    <div data-testid="webhooks">
      <Space style={{ marginBottom: 16 }}>
        {access.editWebhooks && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="webhook-add"
            onClick={() => setEditing('new')}
          >
            {t('alerts.webhook.add')}
          </Button>
        )}
        <Button icon={<ReloadOutlined />} data-testid="list-refresh" onClick={list.refresh}>
          {t('lists.refresh')}
        </Button>
      </Space>
      <PagedTable<Hook> rowKey="id" columns={columns} list={list} />
      <WebhookModal
        hook={editing === 'new' ? undefined : editing}
        open={editing !== undefined}
        onClose={() => setEditing(undefined)}
        onSaved={(created) => {
          list.reload();
          if (created) setSecret(created);
        }}
      />
      <SecretModal secret={secret} onClose={() => setSecret(undefined)} />
      <DeliveriesDrawer hook={log} mayRedeliver={access.redeliver} onClose={() => setLog(undefined)} />
    </div>
  );
}
