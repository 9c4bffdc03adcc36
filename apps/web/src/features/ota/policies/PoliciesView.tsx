import { useState } from 'react';
import { Badge, Card, Space, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { otaRules } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { ListToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { usePagedList } from '../../../lists/usePagedList';
import { IpListModal } from './IpListModal';
import { PolicyModal } from './PolicyModal';
import { SnListModal } from './SnListModal';
import { ZoneListModal } from './ZoneListModal';

type Rule = ReturnType<typeof otaRules.otaRule.parse>;

/**
 * Upgrade policies (view upgradeTactics, spec 3 section 2.2): search by name, add, edit, delete;
 * per row the IP whitelist, the time-zone windows and the serial-number list.
 */
export default function PoliciesView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('otaRules', (start, size, name) =>
    call(otaRules.listOtaRules, { start, size, name }),
  );
  const [editing, setEditing] = useState<Rule | null>();
  const [ips, setIps] = useState<Rule>();
  const [zones, setZones] = useState<Rule>();
  const [sns, setSns] = useState<Rule>();

  const filterTag = (on: 0 | 1, label: string, count: number) => (
    <Tag color={on ? 'blue' : 'default'}>
      {label} {on ? <Badge count={count} showZero size="small" color="blue" /> : t('ota.policy.off')}
    </Tag>
  );
  const columns: TableColumnsType<Rule> = [
    { title: t('ota.policy.name'), dataIndex: 'name' },
    { title: t('ota.policy.remark'), dataIndex: 'remark', ellipsis: true, width: 220 },
    {
      title: t('ota.policy.filters'),
      key: 'filters',
      render: (_, r) => (
        <Space size={0} wrap data-testid="policy-filters">
          {filterTag(r.enableIp, t('ota.policy.ipShort'), r.ipCount)}
          {filterTag(r.enableTimezone, t('ota.policy.zoneShort'), r.timeZoneCount)}
          {filterTag(r.enableSn, t('ota.policy.snShort'), r.snCount)}
        </Space>
      ),
    },
    { title: t('ota.policy.fileCount'), dataIndex: 'fileCount' },
    {
      title: t('ota.policy.creationDate'),
      dataIndex: 'creationDate',
      render: (_, r) => formatDateTime(r.creationDate),
    },
    operationsColumn<Rule>(t('lists.operations'), (r) => (
      <>
        <RowAction label={t('ota.policy.ipFilter')} testId="policy-ip" onClick={() => setIps(r)} />
        <RowAction label={t('ota.policy.zoneFilter')} testId="policy-zone" onClick={() => setZones(r)} />
        <RowAction label={t('ota.policy.snFilter')} testId="policy-sn" onClick={() => setSns(r)} />
        <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(r)} />
        <RowAction
          label={t('lists.delete')}
          testId="row-delete"
          danger
          title={r.fileCount > 0 ? t('ota.policy.inUse', { count: r.fileCount }) : undefined}
          onClick={() =>
            confirm(
              t('lists.deleteConfirm', { name: r.name }),
              () => call(otaRules.deleteOtaRule, { otaRuleId: r.otaRuleId }),
              list.reload,
            )
          }
        />
      </>
    )),
  ];
  return (
    <Card title={t('views.upgradeTactics')}>
      <ListToolbar
        searchPlaceholder={t('ota.policy.search')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={() => setEditing(null)}
      />
      <PagedTable<Rule> rowKey="otaRuleId" columns={columns} list={list} />
      <PolicyModal rule={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <IpListModal rule={ips} onClose={() => setIps(undefined)} onChanged={list.reload} />
      <ZoneListModal rule={zones} onClose={() => setZones(undefined)} onChanged={list.reload} />
      <SnListModal rule={sns} onClose={() => setSns(undefined)} onChanged={list.reload} />
    </Card>
  );
}
