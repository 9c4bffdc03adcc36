import type { ReactNode } from 'react';
import { Empty, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LabelChips } from '../devices/list/LabelChips';
import { LabelPicker } from './LabelPicker';
import type { LabelDevice, useLabelDevices } from './useLabelDevices';

/**
 * The label chips (with select all), the actions of the page, and the paged devices of the
 * ticked labels: the Labels page and the Broadcast tab are this with other actions.
 */
export function LabelDevices({
  selection,
  actions,
  testIdPrefix,
}: {
  selection: ReturnType<typeof useLabelDevices>;
  actions: ReactNode;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const { labels, loaded, ticked, tick, list, onlineOf } = selection;
  const contract = (key: string) => t(key, { ns: 'contract' });

  const columns: TableColumnsType<LabelDevice> = [
    { title: t('devices.name'), dataIndex: 'deviceName' },
    { title: t('devices.machineType'), dataIndex: 'machineType' },
    { title: t('devices.serial'), dataIndex: 'deviceKey' },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      render: (_, row) => {
        const online = onlineOf(row.deviceKey, row.isOnline) === '1';
        return (
          <Tooltip title={online ? t('lists.online') : t('lists.offline')}>
            <span data-testid={`${testIdPrefix}-device-online`} data-online={online ? '1' : '0'}>
              <ThunderboltOutlined style={{ color: online ? '#52c41a' : '#bfbfbf', fontSize: 16 }} />
            </span>
          </Tooltip>
        );
      },
    },
    { title: t('devices.labels'), dataIndex: 'tag', render: (_, row) => <LabelChips tag={row.tag} /> },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }} data-testid={`${testIdPrefix}-chips`}>
        <LabelPicker
          labels={labels}
          ticked={ticked}
          onChange={tick}
          selectAllText={t('labels.selectAll')}
          selectAllTestId={`${testIdPrefix}-select-all`}
          chipTestId={`${testIdPrefix}-chip`}
        />
        {loaded && !labels.length && (
          <Typography.Text type="secondary">{contract('upgrade.noLabel')}</Typography.Text>
        )}
      </Space>
      <Space wrap style={{ marginBottom: 16, display: 'flex' }}>
        {actions}
      </Space>
      <Table<LabelDevice>
        rowKey="deviceId"
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        data-testid={`${testIdPrefix}-devices`}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={ticked.length ? t('labels.noDevices') : contract('label.chooseDevice')}
            />
          ),
        }}
      />
    </>
  );
}
