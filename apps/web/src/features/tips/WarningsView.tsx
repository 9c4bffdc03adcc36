import { useState } from 'react';
import { Card, Descriptions, Form, Input, Modal, Tag, Button, Space, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auth, tips, truncateToWidth } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY, USER_TYPE_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { reminderLanguageLabel } from './languages';
import { MessagesModal } from './WarningMessages';

type Warning = tips.Warning;

interface WarningValues {
  machineType: string;
  otaVersion: string;
  remark?: string;
}

/** Add (`null`) or edit a reminder: machine type and version required (checked on blur, trimmed). */
function WarningModal({
  warning,
  onClose,
  onSaved,
}: {
  warning: Warning | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WarningValues>();
  const rule = (key: string) => [{ required: true, whitespace: true, message: t(key, { ns: CONTRACT_NS }) }];
  const submit = (v: WarningValues) => {
    const values = {
      machineType: v.machineType.trim(),
      otaVersion: v.otaVersion.trim(),
      remark: (v.remark ?? '').trim(),
    };
    return warning
      ? call(tips.updateWarning, { warningId: warning.warningId, ...values })
      : call(tips.addWarning, values);
  };
  return (
    <FormModal<WarningValues>
      title={warning ? t('reminders.edit') : t('reminders.add')}
      open={warning !== undefined}
      form={form}
      width={600}
      initialValues={
        warning
          ? { machineType: warning.machineType, otaVersion: warning.otaVersion, remark: warning.remark }
          : {}
      }
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="warning-form"
    >
      <Form.Item
        name="machineType"
        label={t('reminders.machineType')}
        rules={rule('warning.machineTypeRequired')}
        validateTrigger="onBlur"
        required
      >
        <Input data-testid="warning-machine-type" maxLength={64} />
      </Form.Item>
      <Form.Item
        name="otaVersion"
        label={t('reminders.otaVersion')}
        rules={rule('warning.otaVersionRequired')}
        validateTrigger="onBlur"
        required
      >
        <Input data-testid="warning-ota-version" maxLength={64} />
      </Form.Item>
      {/* 200 width units, a wide character counts 2; input is cut at the limit (spec 3 section 5). */}
      <Form.Item
        name="remark"
        label={t('reminders.remark')}
        normalize={(v: string) => truncateToWidth(v ?? '', 200)}
      >
        <Input.TextArea data-testid="warning-remark" rows={3} />
      </Form.Item>
    </FormModal>
  );
}

function WarningViewModal({ warning, onClose }: { warning: Warning | undefined; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const messages = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'warningView', warning?.warningId],
    queryFn: () => call(tips.listWarningMessage, { warningId: warning!.warningId, start: 1, size: 50 }),
    enabled: warning !== undefined,
  });
  return (
    <Modal
      title={t('reminders.view')}
      open={warning !== undefined}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.ok')}
        </Button>
      }
      width={600}
      destroyOnHidden
    >
      {warning && (
        <div data-testid="warning-view-dialog">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('reminders.machineType')}>{warning.machineType}</Descriptions.Item>
            <Descriptions.Item label={t('reminders.otaVersion')}>{warning.otaVersion}</Descriptions.Item>
            <Descriptions.Item label={t('reminders.remark')}>{warning.remark}</Descriptions.Item>
            <Descriptions.Item label={t('reminders.createMan')}>{warning.createMan}</Descriptions.Item>
            <Descriptions.Item label={t('reminders.creationDate')}>
              {formatDateTime(warning.creationDate)}
            </Descriptions.Item>
            {(messages.data?.listObject ?? []).map((m) => (
              <Descriptions.Item
                key={m.warningMessageId}
                label={reminderLanguageLabel(m.language, i18n.language)}
              >
                {m.message}
              </Descriptions.Item>
            ))}
          </Descriptions>
        </div>
      )}
    </Modal>
  );
}

/**
 * Reminders (view warningMsg, spec 3 section 2.10): per machine type and OTA version, a message
 * per language that a panel shows before installing that OTA.
 */
export default function WarningsView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  // The platform and the OTA staff change reminders; a customer manager reads them (the server decides).
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const editor = session.data ? tips.REMINDER_EDITOR_TYPES.includes(session.data.userType) : false;
  const list = usePagedList('warnings', (start, size, machineType) =>
    call(tips.listWarning, { start, size, machineType }),
  );
  const [editing, setEditing] = useState<Warning | null>();
  const [messagesOf, setMessagesOf] = useState<Warning>();
  const [viewing, setViewing] = useState<Warning>();
  const columns: TableColumnsType<Warning> = [
    { title: t('reminders.machineType'), dataIndex: 'machineType' },
    { title: t('reminders.otaVersion'), dataIndex: 'otaVersion' },
    { title: t('reminders.remark'), dataIndex: 'remark', width: 240 },
    {
      title: t('reminders.languages'),
      dataIndex: 'languages',
      render: (_, row) => (
        <Space size={[0, 4]} wrap data-testid="warning-languages">
          {row.languages.map((l) => (
            <Tag key={l}>{l}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('reminders.createMan'), dataIndex: 'createMan' },
    {
      title: t('reminders.creationDate'),
      dataIndex: 'creationDate',
      render: (_, row) => formatDateTime(row.creationDate),
    },
    operationsColumn<Warning>(t('lists.operations'), (row) => (
      <>
        <RowAction label={t('reminders.messages')} testId="row-messages" onClick={() => setMessagesOf(row)} />
        <RowAction label={t('reminders.viewAction')} testId="row-view" onClick={() => setViewing(row)} />
        {editor && (
          <>
            <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
            <RowAction
              label={t('lists.delete')}
              testId="row-delete"
              danger
              onClick={() =>
                confirm(
                  t('reminders.deleteConfirm'),
                  () => call(tips.deleteWarning, { warningId: row.warningId }),
                  list.reload,
                )
              }
            />
          </>
        )}
      </>
    )),
  ];
  return (
    <Card title={t('views.warningMsg')}>
      <ListToolbar
        searchPlaceholder={t('reminders.searchMachineType')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={editor ? () => setEditing(null) : undefined}
      />
      <PagedTable<Warning> rowKey="warningId" columns={columns} list={list} />
      <WarningModal warning={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <MessagesModal
        warning={messagesOf}
        editor={editor}
        onClose={() => {
          setMessagesOf(undefined);
          list.reload();
        }}
      />
      <WarningViewModal warning={viewing} onClose={() => setViewing(undefined)} />
    </Card>
  );
}
