import { useMemo, useState } from 'react';
import { Card, Form, Input, Select, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { tips } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';

type Tip = tips.ErrorTip;
interface TipValues {
  tipsCode: string;
  message: string;
  language: Tip['language'];
}

/** Add (`null`) or edit an error tip; all three fields are required (请把内容填写完全 / 请填写完全！). */
function TipModal({
  tip,
  onClose,
  onSaved,
}: {
  tip: Tip | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TipValues>();
  const required = useMemo(
    () => [
      {
        required: true,
        whitespace: true,
        message: t(tip ? 'errorTips.fillAllEdit' : 'errorTips.fillAll', { ns: CONTRACT_NS }),
      },
    ],
    [t, tip],
  );
  const submit = (v: TipValues) => {
    const values = { tipsCode: v.tipsCode.trim(), message: v.message.trim(), language: v.language };
    return tip ? call(tips.updateTips, { id: tip.id, ...values }) : call(tips.addTips, values);
  };
  return (
    <FormModal<TipValues>
      title={tip ? t('errorTips.edit') : t('errorTips.add')}
      open={tip !== undefined}
      form={form}
      width={600}
      initialValues={tip ? { tipsCode: tip.tipsCode, message: tip.message, language: tip.language } : {}}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="tip-form"
    >
      <Form.Item name="tipsCode" label={t('errorTips.tipsCode')} rules={required} required>
        <Input data-testid="tip-code" maxLength={64} placeholder={t('errorTips.codeHint')} />
      </Form.Item>
      <Form.Item name="language" label={t('errorTips.language')} rules={required} required>
        <Select
          data-testid="tip-language"
          options={tips.TIP_LANGUAGES.map((value) => ({ value, label: t(`errorTips.languages.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="message" label={t('errorTips.message')} rules={required} required>
        <Input.TextArea data-testid="tip-message" rows={4} maxLength={1000} />
      </Form.Item>
    </FormModal>
  );
}

/**
 * Error tips (view errorMsg, spec 3 section 2.9): the message for each error code panels report,
 * per language; the feedback log shows it beside a failed command.
 */
export default function ErrorTipsView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('errorTips', (start, size, tipsCode) =>
    call(tips.listTips, { start, size, tipsCode }),
  );
  const [editing, setEditing] = useState<Tip | null>();
  const columns: TableColumnsType<Tip> = [
    { title: t('errorTips.tipsCode'), dataIndex: 'tipsCode' },
    {
      title: t('errorTips.language'),
      dataIndex: 'language',
      render: (_, row) => t(`errorTips.languages.${row.language}`),
    },
    { title: t('errorTips.message'), dataIndex: 'message', width: 420 },
    { title: t('errorTips.updateMan'), dataIndex: 'updateMan' },
    {
      title: t('errorTips.updateDate'),
      dataIndex: 'updateDate',
      render: (_, row) => formatDateTime(row.updateDate),
    },
    operationsColumn<Tip>(t('lists.operations'), (row) => (
      <>
        <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
        <RowAction
          label={t('lists.delete')}
          testId="row-delete"
          danger
          onClick={() =>
            confirm(t('errorTips.deleteConfirm'), () => call(tips.deleteTips, { id: row.id }), list.reload)
          }
        />
      </>
    )),
  ];
  return (
    <Card title={t('views.errorMsg')}>
      <ListToolbar
        searchPlaceholder={t('errorTips.searchCode')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={() => setEditing(null)}
      />
      <PagedTable<Tip> rowKey="id" columns={columns} list={list} />
      <TipModal tip={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </Card>
  );
}
