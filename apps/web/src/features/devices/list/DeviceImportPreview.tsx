import { Alert, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { device } from '@panelfleet/contract';
import { CONTRACT_NS } from '../../../i18n';

type Preview = device.DeviceImportPreview;
type Change = device.DeviceImportChange;
type LineError = device.DeviceImportError;

/** The counts of a preview or of an applied import. */
export function ImportCounts({ counts }: { counts: device.DeviceImportCounts }) {
  const { t } = useTranslation();
  const items = (['lines', 'updated', 'pending', 'unchanged', 'labelsCreated', 'errors'] as const).map(
    (key) => ({
      key,
      label: t(`deviceImport.count.${key}`),
      children: <span data-testid={`import-count-${key}`}>{counts[key]}</span>,
    }),
  );
  return <Descriptions size="small" column={3} bordered items={items} />;
}

/** What a preview found: the bad lines (then nothing can be applied) or the changes, line by line. */
export function DeviceImportPreview({ preview }: { preview: Preview }) {
  const { t } = useTranslation();
  const columnName = (column: string) =>
    column === 'file' ? t('deviceImport.wholeLine') : t(`deviceCsv.column.${column}`, { ns: CONTRACT_NS });
  const fieldName = (field: string) => t(`deviceCsv.column.${field}`, { ns: CONTRACT_NS });
  const listedNote = (shown: number, total: number) =>
    total > shown ? (
      <Typography.Text type="secondary">{t('deviceImport.firstOnly', { shown, total })}</Typography.Text>
    ) : null;
  const changed = preview.updated + preview.pending;

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <ImportCounts counts={preview} />
      {preview.errors > 0 ? (
        <>
          <Alert
            type="error"
            showIcon
            data-testid="import-has-errors"
            title={t('deviceImport.hasErrors', { count: preview.errors })}
          />
          <Table<LineError>
            size="small"
            rowKey={(e) => `${e.line}-${e.column}`}
            data-testid="import-errors"
            dataSource={preview.errorLines}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            columns={[
              { title: t('deviceImport.line'), dataIndex: 'line', width: 80 },
              { title: t('deviceImport.column'), dataIndex: 'column', width: 140, render: columnName },
              { title: t('deviceImport.reason'), dataIndex: 'message' },
            ]}
          />
          {listedNote(preview.errorLines.length, preview.errors)}
        </>
      ) : (
        <>
          {preview.newLabels.length > 0 && (
            <Typography.Text data-testid="import-new-labels">
              {t('deviceImport.newLabels')}{' '}
              {preview.newLabels.map((name) => (
                <Tag key={name}>{name}</Tag>
              ))}
            </Typography.Text>
          )}
          {changed === 0 ? (
            <Alert type="info" showIcon data-testid="import-nothing" title={t('deviceImport.nothing')} />
          ) : (
            <Table<Change>
              size="small"
              rowKey="line"
              data-testid="import-changes"
              dataSource={preview.changes}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              columns={[
                { title: t('deviceImport.line'), dataIndex: 'line', width: 70 },
                { title: t('deviceCsv.column.serial', { ns: CONTRACT_NS }), dataIndex: 'serial', width: 150 },
                {
                  title: t('deviceImport.kind'),
                  dataIndex: 'kind',
                  width: 130,
                  render: (kind: Change['kind']) => (
                    <Tag color={kind === 'update' ? 'blue' : 'gold'}>{t(`deviceImport.kinds.${kind}`)}</Tag>
                  ),
                },
                {
                  title: t('deviceImport.fields'),
                  dataIndex: 'fields',
                  render: (fields: Change['fields']) =>
                    fields.map((f) => (
                      <div key={f.field}>
                        {fieldName(f.field)}: {f.from || '—'} → {f.to || '—'}
                      </div>
                    )),
                },
              ]}
            />
          )}
          {listedNote(preview.changes.length, changed)}
        </>
      )}
    </Space>
  );
}
