import { useState } from 'react';
import { App, Button, DatePicker, Select, Tag, type TableColumnsType } from 'antd';
import { CloudSyncOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { servers } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { dayFilter, FilterToolbar, SearchText } from '../../lists/ListToolbar';
import { PagedTable } from '../../lists/RowActions';
import { OnlineTag } from '../../lists/StatusTags';
import { useFilteredList } from '../../lists/usePagedList';

type ServerRow = servers.ServerRow;

interface ServerFilter {
  companyName?: string;
  createDate?: string;
  utcOffset?: number;
  isOnline?: '0' | '1';
}

const DATE_FORMAT = 'YYYY-MM-DD';

/** ServeList: the private deployments that report to this platform (spec 1, server list). */
export default function ServerListView() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useFilteredList<ServerRow, ServerFilter>('servers', (start, size, filter) =>
    call(servers.listServer, { start, size, ...filter }),
  );
  const [companyName, setCompanyName] = useState('');
  const [createDate, setCreateDate] = useState<Dayjs | null>(null);
  const [isOnline, setIsOnline] = useState<'0' | '1' | undefined>();
  const [syncing, setSyncing] = useState(false);

  const search = () =>
    list.filter({ companyName: companyName.trim() || undefined, ...dayFilter(createDate), isOnline });
  const refresh = () => {
    setCompanyName('');
    setCreateDate(null);
    setIsOnline(undefined);
    list.refresh();
  };
  const sync = async () => {
    setSyncing(true);
    try {
      const { dataObject } = await call(servers.syncData, {});
      void message.success(t('servers.synced', dataObject));
      list.reload();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setSyncing(false);
    }
  };

  const columns: TableColumnsType<ServerRow> = [
    { title: t('servers.companyName'), dataIndex: 'companyName' },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      render: (_, row) => <OnlineTag online={row.isOnline} />,
    },
    { title: t('servers.mac'), dataIndex: 'mac' },
    { title: t('servers.os'), dataIndex: 'os' },
    {
      title: t('servers.state'),
      dataIndex: 'state',
      render: (_, row) => (
        <Tag color={row.state === 1 ? 'green' : 'red'} data-testid="server-state">
          {t(row.state === 1 ? 'servers.available' : 'servers.expired')}
        </Tag>
      ),
    },
    {
      title: t('servers.validBegin'),
      dataIndex: 'beginDate',
      render: (_, row) => formatDateTime(row.beginDate),
    },
    { title: t('servers.validEnd'), dataIndex: 'endDate', render: (_, row) => formatDateTime(row.endDate) },
    {
      title: t('servers.registerTime'),
      dataIndex: 'createDate',
      render: (_, row) => formatDateTime(row.createDate),
    },
  ];

  return (
    <>
      <FilterToolbar
        onSearch={search}
        onRefresh={refresh}
        extra={
          <Button
            icon={<CloudSyncOutlined />}
            onClick={() => void sync()}
            loading={syncing}
            data-testid="server-sync"
          >
            {t('servers.sync')}
          </Button>
        }
      >
        <SearchText
          placeholder={t('servers.searchCompany')}
          value={companyName}
          onChange={setCompanyName}
          onSearch={search}
        />
        <DatePicker
          data-testid="server-create-date"
          placeholder={t('servers.createDate')}
          format={DATE_FORMAT}
          value={createDate}
          onChange={setCreateDate}
        />
        <Select<'0' | '1'>
          data-testid="server-online"
          allowClear
          placeholder={t('lists.onlineState')}
          value={isOnline}
          onChange={setIsOnline}
          style={{ width: 120 }}
          options={[
            { value: '1', label: t('lists.online') },
            { value: '0', label: t('lists.offline') },
          ]}
        />
      </FilterToolbar>
      <PagedTable<ServerRow> rowKey="id" columns={columns} list={list} />
    </>
  );
}
