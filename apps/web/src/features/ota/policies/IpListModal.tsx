import { useState } from 'react';
import { App, Button, Input, Modal, Space, Table, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isIpv4OrCidr, otaRules } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { CONTRACT_NS } from '../../../i18n';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';

type Rule = ReturnType<typeof otaRules.otaRule.parse>;
type Ip = ReturnType<typeof otaRules.otaRuleIp.parse>;

/** The IP whitelist of a policy: IPv4 addresses or CIDR blocks (IP不能为空, 请填写正确的IP地址). */
export function IpListModal({
  rule,
  onClose,
  onChanged,
}: {
  rule: Rule | undefined;
  onClose(): void;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirmAction();
  const [ip, setIp] = useState('');
  const [error, setError] = useState<string>();
  const list = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'otaRuleIps', rule?.otaRuleId],
    enabled: rule !== undefined,
    staleTime: 0,
    queryFn: () =>
      call(otaRules.listOtaRuleIps, {
        otaRuleId: rule!.otaRuleId,
        start: 1,
        size: otaRules.RULE_LIST_MAX_SIZE,
      }),
  });
  const reload = () => {
    void list.refetch();
    onChanged();
  };
  const add = async () => {
    const text = ip.trim();
    const problem = !text ? 'otaRule.ipNull' : !isIpv4OrCidr(text) ? 'otaRule.ipInvalid' : undefined;
    setError(problem && t(problem, { ns: CONTRACT_NS }));
    if (problem) {
      void message.warning(t(problem, { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    try {
      const reply = await call(otaRules.addOtaRuleIp, { otaRuleId: rule!.otaRuleId, ip: text });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      setIp('');
      reload();
    } catch (err) {
      alreadyReported(err);
    }
  };
  const columns: TableColumnsType<Ip> = [
    { title: t('ota.policy.ip'), dataIndex: 'ip' },
    operationsColumn<Ip>(t('lists.operations'), (r) => (
      <RowAction
        label={t('lists.delete')}
        testId="ip-delete"
        danger
        onClick={() =>
          confirm(
            t('lists.deleteConfirm', { name: r.ip }),
            () => call(otaRules.deleteOtaRuleIp, { otaRuleWhiteId: r.otaRuleWhiteId }),
            reload,
          )
        }
      />
    )),
  ];
  return (
    <Modal
      title={t('ota.policy.ipTitle', { name: rule?.name ?? '' })}
      open={rule !== undefined}
      onCancel={() => {
        setIp('');
        setError(undefined);
        onClose();
      }}
      footer={null}
      width={600}
      destroyOnHidden
    >
      <div data-testid="policy-ips">
        <Space.Compact style={{ width: '100%', marginBottom: 4 }}>
          <Input
            data-testid="policy-ip-input"
            status={error ? 'error' : undefined}
            placeholder={t('ota.policy.ipPlaceholder')}
            value={ip}
            onChange={(e) => setIp(e.target.value)}
            onPressEnter={() => void add()}
          />
          <Button type="primary" data-testid="policy-ip-add" onClick={() => void add()}>
            {t('lists.add')}
          </Button>
        </Space.Compact>
        <div style={{ minHeight: 22, color: '#ff4d4f' }} data-testid="policy-ip-error">
          {error}
        </div>
        <Table<Ip>
          rowKey="otaRuleWhiteId"
          size="small"
          columns={columns}
          dataSource={list.data?.listObject ?? []}
          loading={list.isFetching}
          pagination={{ pageSize: 10, showSizeChanger: false }}
        />
      </div>
    </Modal>
  );
}
