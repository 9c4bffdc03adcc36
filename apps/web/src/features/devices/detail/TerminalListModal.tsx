import { useEffect, useState } from 'react';
import { App, Empty, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { CONTRACT_NS } from '../../../i18n';
import { PAGE_SIZE_OPTIONS } from '../../../lists/paging';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';
import { SendModal } from './SendModal';
import { LabelPicker } from '../../labels/LabelPicker';
import { useLabels } from '../../labels/useLabels';
import { LabelChips } from '../list/LabelChips';

type LabelDevice = device.LabelDeviceRow;

/** Spec 2 section 9: push lists read the devices of the ticked labels at once. */
const PUSH_LIST_SIZE = 10_000;

interface TerminalListModalProps {
  open: boolean;
  title: string;
  /** Devices that cannot take what is pushed (and why), shown but not selectable. */
  unavailable(row: LabelDevice): string | undefined;
  onSend(deviceIds: number[]): Promise<boolean>;
  onClose(): void;
  /** The contract message shown when no device is chosen (default setting.chooseDevice). */
  noDeviceKey?: string;
}

/** Terminal list: tick labels (coloured chips, select all), then choose devices of those labels. */
export function TerminalListModal({
  open,
  title,
  unavailable,
  onSend,
  onClose,
  noDeviceKey = 'setting.chooseDevice',
}: TerminalListModalProps) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const { labels, loaded, reload: reloadLabels } = useLabels();
  const [ticked, setTicked] = useState<number[]>([]);
  const [rows, setRows] = useState<LabelDevice[]>([]);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);

  useEffect(() => {
    if (!open || !ticked.length) {
      setRows([]);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    call(
      device.selectByTag,
      { tags: ticked.join(','), start: 1, size: PUSH_LIST_SIZE },
      { signal: controller.signal },
    )
      .then(
        (reply) => setRows(reply.listObject),
        (error: unknown) => alreadyReported(error),
      )
      .finally(() => !controller.signal.aborted && setLoading(false));
    return () => controller.abort();
  }, [open, ticked]);

  // Labels made since the page loaded (by another operator or tab) must be choosable.
  useEffect(() => {
    if (open) void reloadLabels();
  }, [open, reloadLabels]);

  useResetOnOpen(open, () => {
    setTicked([]);
    setChosen([]);
  });
  const send = () => {
    const ids = chosen.filter((id) => rows.some((r) => r.deviceId === id));
    if (!ids.length) {
      notification.error({
        title: t('common.tips'),
        description: t(noDeviceKey, { ns: CONTRACT_NS }),
        duration: NOTICE_SECONDS,
      });
      return undefined;
    }
    return onSend(ids);
  };

  const columns: TableColumnsType<LabelDevice> = [
    { title: t('deviceDetail.deviceName'), dataIndex: 'deviceName', ellipsis: true },
    { title: t('deviceDetail.machineType'), dataIndex: 'machineType', width: 100 },
    { title: t('deviceDetail.serial'), dataIndex: 'deviceKey', width: 130 },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      width: 70,
      render: (_, row) => (
        <ThunderboltOutlined style={{ color: row.isOnline === '1' ? '#52c41a' : '#bfbfbf', fontSize: 16 }} />
      ),
    },
    { title: t('deviceDetail.tags'), dataIndex: 'tag', render: (_, row) => <LabelChips tag={row.tag} /> },
  ];

  return (
    <SendModal
      title={title}
      open={open}
      onClose={onClose}
      send={send}
      testId="terminal-list"
      width={820}
      keepOnMaskClick
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <LabelPicker
          labels={labels}
          ticked={ticked}
          onChange={setTicked}
          selectAllText={t('deviceDetail.selectAllLabels')}
          selectAllTestId="terminal-select-all"
          chipTestId="terminal-label"
        />
        {loaded && !labels.length && (
          <Typography.Text type="secondary">{t('upgrade.noLabel', { ns: CONTRACT_NS })}</Typography.Text>
        )}
      </Space>
      <Table<LabelDevice>
        size="small"
        rowKey="deviceId"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={{
          defaultPageSize: DEFAULT_PAGE_SIZE,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS,
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t(ticked.length ? 'deviceDetail.noLabelDevices' : 'label.chooseDevice', {
                ns: ticked.length ? undefined : CONTRACT_NS,
              })}
            />
          ),
        }}
        rowSelection={{
          selectedRowKeys: chosen,
          onChange: (keys) => setChosen(keys.map(Number)),
          getCheckboxProps: (row) => ({ disabled: unavailable(row) !== undefined }),
          renderCell: (_checked, row, _index, node) => {
            const why = unavailable(row);
            return why ? <Tooltip title={why}>{node}</Tooltip> : node;
          },
        }}
      />
      {chosen.length > 0 && (
        <Typography.Text type="secondary">
          {t('deviceDetail.chosenDevices', { count: chosen.length })}
        </Typography.Text>
      )}
    </SendModal>
  );
}
