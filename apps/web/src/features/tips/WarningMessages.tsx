import { useMemo, useState } from 'react';
import { Form, Input, Modal, Select, Button, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { tips } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { reminderLanguageLabel, reminderLanguageOptions } from './languages';

// A warning's messages in each language: the list, its table and the editor (WarningsView.tsx).

type Warning = tips.Warning;
type WarningMessage = tips.WarningMessage;

interface MessageValues {
  language: string;
  message: string;
}

/** Add (`null`) or edit one language's message; the language is locked when editing. */
function MessageModal({
  warningId,
  message,
  taken,
  onClose,
  onSaved,
}: {
  warningId: number;
  message: WarningMessage | null | undefined;
  taken: string[];
  onClose(): void;
  onSaved(): void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<MessageValues>();
  const options = useMemo(
    () =>
      reminderLanguageOptions(i18n.language).map((o) => ({
        ...o,
        disabled: !message && taken.includes(o.value),
      })),
    [i18n.language, message, taken],
  );
  const submit = (v: MessageValues) => {
    const values = { language: v.language as tips.ReminderLanguage, message: v.message.trim() };
    return message
      ? call(tips.updateWarningMessage, { warningMessageId: message.warningMessageId, ...values })
      : call(tips.addWarningMessage, { warningId, ...values });
  };
  return (
    <FormModal<MessageValues>
      title={message ? t('reminders.editMessage') : t('reminders.addMessage')}
      open={message !== undefined}
      form={form}
      width={600}
      initialValues={message ? { language: message.language, message: message.message } : {}}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="warning-message-form"
    >
      <Form.Item
        name="language"
        label={t('reminders.language')}
        rules={[{ required: true, message: t('warning.languageInvalid', { ns: CONTRACT_NS }) }]}
        validateTrigger="onChange"
        required
      >
        <Select
          data-testid="warning-message-language"
          showSearch
          optionFilterProp="label"
          disabled={!!message}
          options={options}
        />
      </Form.Item>
      <Form.Item
        name="message"
        label={t('reminders.message')}
        rules={[
          { required: true, whitespace: true, message: t('warning.messageRequired', { ns: CONTRACT_NS }) },
        ]}
        required
      >
        <Input.TextArea data-testid="warning-message-text" rows={5} maxLength={2000} />
      </Form.Item>
    </FormModal>
  );
}

/** The nested dialog: a reminder's messages, one per language, with add, edit and delete. */
export function MessagesModal({
  warning,
  editor,
  onClose,
}: {
  warning: Warning | undefined;
  editor: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('reminders.messagesTitle', {
        machineType: warning?.machineType ?? '',
        otaVersion: warning?.otaVersion ?? '',
      })}
      open={warning !== undefined}
      onCancel={onClose}
      footer={null}
      width={850}
      destroyOnHidden
    >
      {warning && <MessagesTable key={warning.warningId} warning={warning} editor={editor} />}
    </Modal>
  );
}

function MessagesTable({ warning, editor }: { warning: Warning; editor: boolean }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirmAction();
  const [editing, setEditing] = useState<WarningMessage | null>();
  const list = usePagedList(`warningMessages-${warning.warningId}`, (start, size) =>
    call(tips.listWarningMessage, { warningId: warning.warningId, start, size }),
  );
  const columns: TableColumnsType<WarningMessage> = [
    {
      title: t('reminders.language'),
      dataIndex: 'language',
      render: (_, row) => reminderLanguageLabel(row.language, i18n.language),
    },
    { title: t('reminders.message'), dataIndex: 'message', width: 380 },
    {
      title: t('reminders.creationDate'),
      dataIndex: 'creationDate',
      render: (_, row) => formatDateTime(row.creationDate),
    },
    ...(editor
      ? [
          operationsColumn<WarningMessage>(t('lists.operations'), (row) => (
            <>
              <RowAction label={t('lists.edit')} testId="message-edit" onClick={() => setEditing(row)} />
              <RowAction
                label={t('lists.delete')}
                testId="message-delete"
                danger
                onClick={() =>
                  confirm(
                    t('reminders.deleteConfirm'),
                    () => call(tips.deleteWarningMessage, { warningMessageId: row.warningMessageId }),
                    list.reload,
                  )
                }
              />
            </>
          )),
        ]
      : []),
  ];
  return (
    <div data-testid="warning-messages-dialog">
      {editor && (
        <Button
          icon={<PlusOutlined />}
          style={{ marginBottom: 12 }}
          onClick={() => setEditing(null)}
          data-testid="message-add"
        >
          {t('reminders.addMessage')}
        </Button>
      )}
      <PagedTable<WarningMessage> rowKey="warningMessageId" columns={columns} list={list} />
      <MessageModal
        warningId={warning.warningId}
        message={editing}
        taken={list.rows.map((r) => r.language)}
        onClose={() => setEditing(undefined)}
        onSaved={list.reload}
      />
    </div>
  );
}

/** Read-only view of a reminder with all its messages. */
