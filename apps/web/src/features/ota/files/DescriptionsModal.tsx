import { useState } from 'react';
import { Button, Modal, Space, Table, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { useFilteredList } from '../../../lists/usePagedList';
import { reminderLanguageLabel } from '../../tips/languages';
import { DescriptionFormModal, type DescriptionEdit } from './DescriptionFormModal';

type Description = ReturnType<typeof ota.otaDescription.parse>;

/** The descriptions of a file, 5 a page: add, edit, view, edit reminder, delete (own files only). */
export function DescriptionsModal({ file, onClose }: { file: ota.OtaFile | undefined; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirmAction();
  const fileId = file?.id;
  const owned = file?.owned === '1';
  const list = useFilteredList<Description, number>(`otaDescriptions-${fileId ?? 0}`, (start, size) =>
    fileId
      ? call(ota.listOtaDescriptions, { start, size, otaFileId: fileId })
      : Promise.resolve({ listObject: [], totalRecords: 0 }),
  );
  const [edit, setEdit] = useState<DescriptionEdit>();
  const [viewing, setViewing] = useState<{ language: string; text: string; remind: string }>();

  const view = async (row: Description) => {
    try {
      const reply = await call(ota.viewOtaDescription, { id: row.id });
      setViewing({ language: row.language, text: reply.listObject, remind: reply.dataObject.remindText });
    } catch (error) {
      // The tips notice said why; the view dialog stays closed (spec 3 section 7).
      alreadyReported(error);
    }
  };

  const columns: TableColumnsType<Description> = [
    { title: t('ota.description.userName'), dataIndex: 'userName' },
    {
      title: t('ota.description.language'),
      dataIndex: 'language',
      render: (_, row) => reminderLanguageLabel(row.language, i18n.language),
    },
    {
      title: t('ota.description.updateDate'),
      dataIndex: 'updateDate',
      render: (_, row) => formatDateTime(row.updateDate),
    },
    {
      title: t('ota.description.textContent'),
      dataIndex: 'textContent',
      render: (_, row) => (
        <Typography.Text ellipsis style={{ maxWidth: 260 }} title={row.textContent}>
          {row.textContent}
        </Typography.Text>
      ),
    },
    operationsColumn<Description>(t('lists.operations'), (row) => (
      <>
        <RowAction
          label={t('ota.description.view')}
          testId="description-view"
          onClick={() => void view(row)}
        />
        {owned && (
          <>
            <RowAction
              label={t('lists.edit')}
              testId="description-edit"
              onClick={() => setEdit({ fileId: row.otaFileId, description: row })}
            />
            <RowAction
              label={t('ota.description.remind')}
              testId="description-remind"
              onClick={() => setEdit({ fileId: row.otaFileId, description: row, remindOnly: true })}
            />
            <RowAction
              label={t('lists.delete')}
              testId="description-delete"
              danger
              onClick={() =>
                confirm(
                  t('lists.deleteConfirm', { name: row.language }),
                  () => call(ota.deleteOtaDescription, { id: row.id }),
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
    <>
      <Modal
        title={t('ota.description.listTitle', { name: file ? `${file.fileName} (${file.otaVersion})` : '' })}
        open={file !== undefined}
        onCancel={onClose}
        footer={null}
        width={850}
        destroyOnHidden
      >
        <div data-testid="ota-descriptions">
          {owned && (
            <Space style={{ marginBottom: 12 }}>
              <Button
                icon={<PlusOutlined />}
                data-testid="description-add"
                onClick={() => setEdit({ fileId: fileId!, description: null })}
              >
                {t('ota.description.add')}
              </Button>
            </Space>
          )}
          <Table<Description>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={list.rows}
            loading={list.loading}
            pagination={{ ...list.pagination, showSizeChanger: false }}
            scroll={{ x: 'max-content' }}
          />
        </div>
        {/* Inside the list's dialog, so that antd stacks them above it. */}
        <DescriptionFormModal
          edit={edit}
          taken={list.rows.map((r) => r.language)}
          onClose={() => setEdit(undefined)}
          onSaved={list.reload}
        />
        <Modal
          title={t('ota.description.viewTitle', {
            language: viewing ? reminderLanguageLabel(viewing.language, i18n.language) : '',
          })}
          open={viewing !== undefined}
          onCancel={() => setViewing(undefined)}
          footer={null}
          width={600}
        >
          <div data-testid="ota-description-view">
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{viewing?.text}</Typography.Paragraph>
            {viewing?.remind && (
              <>
                <Typography.Text strong>{t('ota.description.remindText')}</Typography.Text>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>
                  {viewing.remind}
                </Typography.Paragraph>
              </>
            )}
          </div>
        </Modal>
      </Modal>
    </>
  );
}
