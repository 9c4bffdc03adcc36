import { useState } from 'react';
import { Button, Modal, Table, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { otaRules } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { ZoneFormModal } from './ZoneFormModal';

type Rule = ReturnType<typeof otaRules.otaRule.parse>;
type Zone = ReturnType<typeof otaRules.otaRuleZone.parse>;

/** The time-zone windows of a policy: a panel in a listed zone starts at that zone's local time. */
export function ZoneListModal({
  rule,
  onClose,
  onChanged,
}: {
  rule: Rule | undefined;
  onClose(): void;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const [editing, setEditing] = useState<Zone | null>();
  const list = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'otaRuleZones', rule?.otaRuleId],
    enabled: rule !== undefined,
    staleTime: 0,
    queryFn: () =>
      call(otaRules.listOtaRuleZones, {
        otaRuleId: rule!.otaRuleId,
        start: 1,
        size: otaRules.RULE_LIST_MAX_SIZE,
      }),
  });
  const reload = () => {
    void list.refetch();
    onChanged();
  };
  const columns: TableColumnsType<Zone> = [
    { title: t('ota.policy.timeZone'), dataIndex: 'timeZone' },
    { title: t('ota.policy.startTime'), dataIndex: 'startTime' },
    { title: t('ota.policy.remark'), dataIndex: 'remark' },
    operationsColumn<Zone>(t('lists.operations'), (r) => (
      <>
        <RowAction label={t('lists.edit')} testId="zone-edit" onClick={() => setEditing(r)} />
        <RowAction
          label={t('lists.delete')}
          testId="zone-delete"
          danger
          onClick={() =>
            confirm(
              t('lists.deleteConfirm', { name: r.timeZone }),
              () => call(otaRules.deleteOtaRuleZone, { otaRuleListId: r.otaRuleListId }),
              reload,
            )
          }
        />
      </>
    )),
  ];
  return (
    <>
      <Modal
        title={t('ota.policy.zoneTitle', { name: rule?.name ?? '' })}
        open={rule !== undefined}
        onCancel={onClose}
        footer={null}
        width={850}
        destroyOnHidden
      >
        <div data-testid="policy-zones">
          <Button
            icon={<PlusOutlined />}
            style={{ marginBottom: 12 }}
            data-testid="zone-add"
            onClick={() => setEditing(null)}
          >
            {t('ota.policy.zoneAdd')}
          </Button>
          <Table<Zone>
            rowKey="otaRuleListId"
            size="small"
            columns={columns}
            dataSource={list.data?.listObject ?? []}
            loading={list.isFetching}
            pagination={{ pageSize: 10, showSizeChanger: false }}
          />
        </div>
      </Modal>
      {rule && (
        <ZoneFormModal
          ruleId={rule.otaRuleId}
          zone={editing}
          onClose={() => setEditing(undefined)}
          onSaved={reload}
        />
      )}
    </>
  );
}
