import { useState } from 'react';
import { App, Button, Input, Modal, Space, Table, Upload, type TableColumnsType } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { otaRules } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { CONTRACT_NS } from '../../../i18n';
import { ListToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { usePagedList } from '../../../lists/usePagedList';

type Rule = ReturnType<typeof otaRules.otaRule.parse>;
type Sn = ReturnType<typeof otaRules.otaRuleSn.parse>;

/** Text files up to this size are read in the browser (20000 serial numbers of 64 characters fit). */
const MAX_LIST_BYTES = 1_500_000;

/**
 * The serial-number list of a policy (the spec's button had no action): paste a list or read a
 * .txt/.csv in the browser, search, remove one or all. Panels not listed are skipped.
 */
export function SnListModal({
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
  const [text, setText] = useState('');
  const ruleId = rule?.otaRuleId;
  const list = usePagedList<Sn>(`otaRuleSns-${ruleId ?? 0}`, (start, size, deviceKey) =>
    ruleId
      ? call(otaRules.listOtaRuleSns, { otaRuleId: ruleId, start, size, deviceKey })
      : Promise.resolve({ listObject: [], totalRecords: 0 }),
  );
  const reload = () => {
    list.reload();
    onChanged();
  };
  const add = async () => {
    if (!text.trim()) {
      void message.warning(t('otaRule.snNull', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    try {
      const reply = await call(otaRules.addOtaRuleSns, { otaRuleId: ruleId!, deviceKeys: text });
      void message.success(t('ota.policy.snAdded', reply.dataObject), NOTICE_SECONDS);
      setText('');
      reload();
    } catch (error) {
      alreadyReported(error);
    }
  };
  const read = (file: File) => {
    if (file.size > MAX_LIST_BYTES) {
      void message.error(t('otaRule.snTooMany', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return false;
    }
    void file
      .text()
      .then((content) => setText((old) => (old.trim() ? `${old.trim()}\n${content}` : content)));
    return false;
  };
  const columns: TableColumnsType<Sn> = [
    { title: t('ota.policy.sn'), dataIndex: 'deviceKey' },
    operationsColumn<Sn>(t('lists.operations'), (r) => (
      <RowAction
        label={t('lists.delete')}
        testId="sn-delete"
        danger
        onClick={() =>
          confirm(
            t('lists.deleteConfirm', { name: r.deviceKey }),
            () => call(otaRules.deleteOtaRuleSn, { otaRuleSnId: r.otaRuleSnId }),
            reload,
          )
        }
      />
    )),
  ];
  return (
    <Modal
      title={t('ota.policy.snTitle', { name: rule?.name ?? '' })}
      open={rule !== undefined}
      onCancel={() => {
        setText('');
        onClose();
      }}
      footer={null}
      width={850}
      destroyOnHidden
    >
      <div data-testid="policy-sns">
        <Input.TextArea
          data-testid="policy-sn-text"
          rows={4}
          value={text}
          placeholder={t('ota.policy.snPlaceholder')}
          onChange={(e) => setText(e.target.value)}
        />
        <Space style={{ margin: '8px 0 16px' }} wrap>
          <Button type="primary" data-testid="policy-sn-add" onClick={() => void add()}>
            {t('ota.policy.snAdd')}
          </Button>
          <Upload accept=".txt,.csv,text/plain,text/csv" showUploadList={false} beforeUpload={read}>
            <Button icon={<UploadOutlined />} data-testid="policy-sn-file">
              {t('ota.policy.snFile')}
            </Button>
          </Upload>
          <Button
            danger
            data-testid="policy-sn-clear"
            disabled={list.pagination.total === 0}
            onClick={() =>
              confirm(
                t('ota.policy.snClearConfirm', { name: rule?.name ?? '' }),
                () => call(otaRules.clearOtaRuleSns, { otaRuleId: ruleId! }),
                reload,
              )
            }
          >
            {t('ota.policy.snClear')}
          </Button>
        </Space>
        <ListToolbar
          searchPlaceholder={t('ota.policy.snSearch')}
          onSearch={list.search}
          onRefresh={list.refresh}
        />
        <Table<Sn>
          rowKey="otaRuleSnId"
          size="small"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading}
          pagination={list.pagination}
        />
      </div>
    </Modal>
  );
}
