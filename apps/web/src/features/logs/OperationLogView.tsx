import { Card, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { logs } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { ListToolbar } from '../../lists/ListToolbar';
import { PagedTable } from '../../lists/RowActions';
import { usePagedList } from '../../lists/usePagedList';
import { useOperationWords } from './operationWords';

type Entry = logs.OperationLogRecord;

/** Operation log (view operationLog, spec 3 section 2.8): every write in the organisation, newest first. */
export default function OperationLogView() {
  const { t } = useTranslation();
  const words = useOperationWords();
  const list = usePagedList('operationLog', (start, size, content) =>
    call(logs.listOperationLog, { start, size, content }),
  );
  const columns: TableColumnsType<Entry> = [
    {
      title: t('operationLog.content'),
      dataIndex: 'content',
      width: 480,
      render: (_, row) => <span data-testid="operation-content">{words.contentOf(row)}</span>,
    },
    { title: t('operationLog.userName'), dataIndex: 'userName' },
    {
      title: t('operationLog.operationType'),
      dataIndex: 'operationType',
      render: (_, row) => <span data-testid="operation-type">{words.typeOf(row.operationType)}</span>,
    },
    { title: t('operationLog.operatorIp'), dataIndex: 'operatorIp' },
    {
      title: t('operationLog.operatorTime'),
      dataIndex: 'operatorTime',
      render: (_, row) => formatDateTime(row.operatorTime),
    },
  ];
  return (
    <Card title={t('operationLog.title')}>
      <ListToolbar
        searchPlaceholder={t('operationLog.searchContent')}
        onSearch={list.search}
        onRefresh={list.refresh}
      />
      <PagedTable<Entry> rowKey="id" columns={columns} list={list} />
    </Card>
  );
}
