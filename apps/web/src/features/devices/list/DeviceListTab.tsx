import { useState } from 'react';
import { Alert, App, Button, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { ImportOutlined, SendOutlined, TagsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { ListToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, RowAction, textColumn } from '../../../lists/RowActions';
import { EnabledTag, OnlineTag } from '../../../lists/StatusTags';
import { ScreenTimeModal } from '../../screenTime/ScreenTimeModal';
import { EditDeviceModal } from '../edit/EditDeviceModal';
import { EditLabelsModal } from '../edit/EditLabelsModal';
import { RemoveDeviceModal } from '../edit/RemoveDeviceModal';
import { DeviceDetailModal } from '../detail/DeviceDetailModal';
import { PushResultModal } from '../../settings/PushResultModal';
import { DeviceExportButtons } from './DeviceExportButtons';
import { DeviceImportModal } from './DeviceImportModal';
import { LabelChips } from './LabelChips';
import { MatchingAlert } from './MatchingAlert';
import { MatchingCommands } from './MatchingCommands';
import { PushSettingModal } from './PushSettingModal';
import { useAllMatching } from './useAllMatching';
import { useDeviceList } from './useDeviceList';
import { useOnlineState } from './useOnlineState';

type DeviceRow = device.DeviceRow;

/** The device list tab: search by name, refresh, edit labels of the selected devices, paged table. */
export function DeviceListTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useDeviceList();
  const onlineOf = useOnlineState(list.rows.map((r) => r.deviceKey));
  const [selected, setSelected] = useState<Map<number, DeviceRow>>(new Map());
  const [editing, setEditing] = useState<DeviceRow>();
  const [removing, setRemoving] = useState<DeviceRow>();
  const [labelling, setLabelling] = useState(false);
  const [importing, setImporting] = useState(false);
  const [screenTime, setScreenTime] = useState<DeviceRow>();
  const [detailId, setDetailId] = useState<number>();
  const [pushing, setPushing] = useState(false);
  const [pushId, setPushId] = useState<number>();
  const pageChosen = list.rows.length > 0 && list.rows.every((r) => selected.has(r.deviceId));
  const matching = useAllMatching(list.current, pageChosen);
  const clearSelection = () => {
    setSelected(new Map());
    matching.reset();
  };
  const chosenCount = matching.all ? (matching.counted?.count ?? 0) : selected.size;

  const columns: TableColumnsType<DeviceRow> = [
    {
      title: t('devices.name'),
      dataIndex: 'deviceName',
      ellipsis: { showTitle: false },
      // The name opens the device detail modal.
      render: (_, row) => (
        <Tooltip title={row.deviceName} placement="topLeft">
          <Typography.Link data-testid="device-name" onClick={() => setDetailId(row.deviceId)}>
            {row.deviceName}
          </Typography.Link>
        </Tooltip>
      ),
    },
    textColumn(t('devices.serial'), 'deviceKey'),
    textColumn(t('devices.machineType'), 'machineType', 120),
    textColumn(t('devices.model'), 'model', 90),
    { title: t('devices.labels'), dataIndex: 'tag', render: (_, row) => <LabelChips tag={row.tag} /> },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      width: 80,
      render: (_, row) => {
        const online = onlineOf(row.deviceKey, row.isOnline);
        return (
          <span data-testid="device-online" data-online={online}>
            <OnlineTag online={online === '1' ? 1 : 0} />
          </span>
        );
      },
    },
    {
      title: t('devices.state'),
      dataIndex: 'state',
      width: 80,
      render: (_, row) => <EnabledTag state={row.state} />,
    },
    textColumn(t('devices.remark'), 'remark'),
    operationsColumn(
      t('lists.operations'),
      (row) => (
        <>
          <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
          <RowAction
            label={t('devices.detail')}
            testId="row-detail"
            onClick={() => setDetailId(row.deviceId)}
          />
          <RowAction
            label={t('devices.screenTime')}
            testId="row-screen-time"
            onClick={() => setScreenTime(row)}
          />
          <RowAction
            label={t('devices.remove')}
            testId="row-remove"
            danger
            onClick={() => setRemoving(row)}
          />
        </>
      ),
      260,
    ),
  ];

  const editLabels = () => {
    if (!selected.size) {
      void message.warning(t('deviceManage.selectEditDeviceTag', { ns: 'contract' }), NOTICE_SECONDS);
      return;
    }
    setLabelling(true);
  };
  const afterLabels = () => {
    clearSelection();
    list.reload();
  };
  const pushSetting = () => {
    if (!chosenCount) {
      void message.warning(t('allMatching.selectFirst'), NOTICE_SECONDS);
      return;
    }
    setPushing(true);
  };

  return (
    <div data-testid="device-list">
      <ListToolbar
        searchPlaceholder={t('devices.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        extra={
          <>
            <Tooltip title={matching.all ? t('allMatching.labelsTickedOnly') : undefined}>
              <Button
                icon={<TagsOutlined />}
                onClick={editLabels}
                disabled={matching.all}
                data-testid="edit-labels"
              >
                {t('devices.editLabels')}
                {selected.size && !matching.all ? ` (${selected.size})` : ''}
              </Button>
            </Tooltip>
            <Button icon={<SendOutlined />} onClick={pushSetting} data-testid="push-setting">
              {t('allMatching.pushSetting')}
              {chosenCount ? ` (${chosenCount})` : ''}
            </Button>
            <MatchingCommands all={matching.all} count={chosenCount} matching={matching.matching} />
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="import-devices">
              {t('deviceImport.button')}
            </Button>
            <DeviceExportButtons search={list.current} />
          </>
        }
      />
      {list.capped && (
        <Alert
          type="info"
          showIcon
          data-testid="search-capped"
          style={{ marginBottom: 12 }}
          title={t('devices.searchCapped', { count: device.DEVICE_SEARCH_CAP })}
        />
      )}
      <MatchingAlert
        state={matching}
        filter={list.current}
        pageCount={list.rows.length}
        pageChosen={pageChosen}
        onClear={clearSelection}
      />
      <Table<DeviceRow>
        rowKey="deviceId"
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        pagination={list.pagination}
        tableLayout="fixed"
        size="middle"
        rowSelection={{
          // Every panel matching is chosen: the page in view shows ticked whatever was ticked before.
          selectedRowKeys: matching.all
            ? [...new Set([...selected.keys(), ...list.rows.map((r) => r.deviceId)])]
            : [...selected.keys()],
          preserveSelectedRowKeys: true,
          onChange: (keys, rows) => {
            // Unticking a panel leaves "all matching": the selection is the ticked panels again.
            matching.reset();
            setSelected((previous) => {
              const next = new Map<number, DeviceRow>();
              for (const key of keys as number[]) {
                const found = rows.find((r) => r?.deviceId === key) ?? previous.get(key);
                if (found) next.set(key, found);
              }
              return next;
            });
          },
        }}
      />
      <PushSettingModal
        open={pushing}
        selection={matching.all ? { matching: matching.matching } : { deviceIds: [...selected.keys()] }}
        count={chosenCount}
        onClose={() => setPushing(false)}
        onPushed={setPushId}
      />
      <PushResultModal pushId={pushId} onClose={() => setPushId(undefined)} />
      <DeviceDetailModal
        deviceId={detailId}
        open={detailId !== undefined}
        onClose={() => setDetailId(undefined)}
      />
      <EditDeviceModal row={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <RemoveDeviceModal row={removing} onClose={() => setRemoving(undefined)} onRemoved={list.reload} />
      <EditLabelsModal
        devices={[...selected.values()]}
        open={labelling}
        onClose={() => setLabelling(false)}
        onSaved={afterLabels}
      />
      <DeviceImportModal open={importing} onClose={() => setImporting(false)} onImported={list.reload} />
      {screenTime && (
        <ScreenTimeModal
          deviceKey={screenTime.deviceKey}
          deviceName={screenTime.deviceName}
          open
          onClose={() => setScreenTime(undefined)}
        />
      )}
    </div>
  );
}
