import { useState } from 'react';
import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { alerts } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { operationsColumn, PagedTable, RowAction } from '../../../lists/RowActions';
import { EnabledTag } from '../../../lists/StatusTags';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { useFilteredList } from '../../../lists/usePagedList';
import { useAlertAccess } from '../useAlertAccess';
import { conditionText, SEVERITY_COLORS } from '../words';
import { RuleModal } from './RuleModal';

type Rule = alerts.AlertRule;

/** Alert rules (view `alertRules`): the organisation's rules, newest first; add, edit, delete. */
export default function RulesPanel() {
  const { t } = useTranslation();
  const access = useAlertAccess();
  const confirm = useConfirmAction();
  const [editing, setEditing] = useState<Rule | 'new'>();
  const list = useFilteredList<Rule, undefined>('alertRules', (start, size) =>
    call(alerts.listAlertRules, { start, size }),
  );
  const channels = (rule: Rule) => {
    const mail = rule.channels.emailUserIds.length + rule.channels.emailAddresses.length;
    return (
      <Space direction="vertical" size={0}>
        <span>{t('alerts.rule.channelConsole')}</span>
        {mail > 0 && <span>{t(`alerts.rule.channelMail.${rule.channels.emailMode}`, { count: mail })}</span>}
        {rule.channels.webhookIds.length > 0 && (
          <span>{t('alerts.rule.channelWebhooks', { count: rule.channels.webhookIds.length })}</span>
        )}
      </Space>
    );
  };
  const columns: TableColumnsType<Rule> = [
    { title: t('alerts.rule.name'), dataIndex: 'name', ellipsis: true },
    {
      title: t('alerts.rule.condition'),
      key: 'condition',
      render: (_, rule) => (
        <Space direction="vertical" size={0}>
          <span data-testid="rule-condition">{conditionText(rule.condition, t)}</span>
          {rule.durationSeconds > 0 && (
            <span style={{ opacity: 0.65 }}>
              {t('alerts.rule.heldFor', { seconds: rule.durationSeconds })}
            </span>
          )}
        </Space>
      ),
    },
    {
      title: t('alerts.column.severity'),
      dataIndex: 'severity',
      width: 100,
      render: (_, rule) => (
        <Tag color={SEVERITY_COLORS[rule.severity]}>{t(`alerts.severity.${rule.severity}`)}</Tag>
      ),
    },
    {
      title: t('alerts.rule.labels'),
      key: 'labels',
      render: (_, rule) =>
        rule.labelNames.length
          ? rule.labelNames.map((name) => <Tag key={name}>{name}</Tag>)
          : t('alerts.rule.allPanels'),
    },
    { title: t('alerts.rule.channels'), key: 'channels', render: (_, rule) => channels(rule) },
    {
      title: t('lists.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (_, rule) => <EnabledTag state={rule.enabled ? 1 : 0} />,
    },
    {
      title: t('alerts.rule.openAlerts'),
      dataIndex: 'openAlerts',
      width: 100,
      render: (_, rule) => <span data-testid="rule-open-alerts">{rule.openAlerts}</span>,
    },
    operationsColumn<Rule>(t('lists.operations'), (rule) => (
      <>
        {access.editRules && (
          <RowAction label={t('lists.edit')} testId="rule-edit" onClick={() => setEditing(rule)} />
        )}
        {access.deleteRules && (
          <RowAction
            danger
            label={t('lists.delete')}
            testId="rule-delete"
            onClick={() =>
              confirm(
                t('alerts.rule.deleteConfirm', { name: rule.name }),
                () => call(alerts.deleteAlertRule, { id: rule.id }),
                list.reload,
              )
            }
          />
        )}
      </>
    )),
  ];
  return (
    <div data-testid="alert-rules">
      <Space style={{ marginBottom: 16 }}>
        {access.editRules && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="rule-add"
            onClick={() => setEditing('new')}
          >
            {t('alerts.rule.add')}
          </Button>
        )}
        <Button icon={<ReloadOutlined />} data-testid="list-refresh" onClick={list.refresh}>
          {t('lists.refresh')}
        </Button>
      </Space>
      <PagedTable<Rule> rowKey="id" columns={columns} list={list} />
      <RuleModal
        rule={editing === 'new' ? undefined : editing}
        open={editing !== undefined}
        onClose={() => setEditing(undefined)}
        onSaved={list.reload}
      />
    </div>
  );
}
