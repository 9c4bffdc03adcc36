import { useState } from 'react';
import { App, Button, Table, Typography } from 'antd';
import { CheckOutlined, ClearOutlined, FileExcelOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { alerts, type ParamsOf } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { useFilteredList } from '../../../lists/usePagedList';
import { DeviceDetailModal } from '../../devices/detail/DeviceDetailModal';
import { filterParams, OPEN_ALERTS, type CentreFilter } from '../centreFilter';
import { useAlertAccess } from '../useAlertAccess';
import { ALERTS_KEY } from '../useAlertCounts';
import { alertColumns } from './alertColumns';
import { downloadFile } from './downloadFile';
import { CentreFilters } from './CentreFilters';
import { NoteModal } from './NoteModal';

type Alert = alerts.Alert;
type Bulk = 'acknowledge' | 'clear';

/**
 * The notification centre (view `alerts`): the alerts of the user's scope, newest first, by
 * state, severity, rule, text and time; bulk acknowledge (with a note) and clear; Excel export.
 */
export function AlertCentre() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const access = useAlertAccess();
  const [selected, setSelected] = useState<number[]>([]);
  const [bulk, setBulk] = useState<Bulk>();
  const [deviceId, setDeviceId] = useState<number>();
  const list = useFilteredList<Alert, CentreFilter>('alerts', (start, size, filter) =>
    call(alerts.listAlerts, {
      start,
      size,
      ...(filterParams(filter ?? OPEN_ALERTS) as object),
    } as ParamsOf<typeof alerts.listAlerts>),
  );
  const [filter, setFilter] = useState<CentreFilter>(OPEN_ALERTS);
  const rows = list.rows;
  const chosen = rows.filter((row) => selected.includes(row.id));

  const apply = (next: CentreFilter) => {
    setSelected([]);
    setFilter(next);
    list.filter(next);
  };
  const act = async (kind: Bulk, note: string) => {
    const def = kind === 'acknowledge' ? alerts.acknowledgeAlerts : alerts.clearAlerts;
    const ids = (kind === 'acknowledge' ? chosen.filter((row) => row.state === 'active') : chosen).map(
      (r) => r.id,
    );
    const reply = await call(def, { ids, ...(note.trim() ? { note: note.trim() } : {}) }, { json: true });
    void message.success(t(`alerts.${kind}Done`, { count: reply.dataObject.changed }), NOTICE_SECONDS);
    setBulk(undefined);
    setSelected([]);
    void client.invalidateQueries({ queryKey: ALERTS_KEY });
    list.reload();
  };
  const [exporting, setExporting] = useState(false);
  const exportList = async () => {
    setExporting(true);
    try {
      const refused = await downloadFile(
        alerts.exportAlerts.path,
        filterParams(filter),
        i18n.language,
        'alerts.xlsx',
      );
      if (refused) void message.error(refused, NOTICE_SECONDS);
    } catch {
      void message.error(t('alerts.exportFailed'), NOTICE_SECONDS);
    } finally {
      setExporting(false);
    }
  };
  const acknowledgeable = chosen.some((row) => row.state === 'active');
  const clearable = chosen.some((row) => row.state !== 'cleared');

  const actions = (
    <>
      {access.acknowledge && (
        <Button
          icon={<CheckOutlined />}
          disabled={!acknowledgeable}
          data-testid="alert-acknowledge"
          onClick={() => setBulk('acknowledge')}
        >
          {t('alerts.acknowledge')}
        </Button>
      )}
      {access.clear && (
        <Button
          icon={<ClearOutlined />}
          disabled={!clearable}
          data-testid="alert-clear"
          onClick={() => setBulk('clear')}
        >
          {t('alerts.clear')}
        </Button>
      )}
      {access.exportList && (
        <Button
          icon={<FileExcelOutlined />}
          data-testid="alert-export"
          loading={exporting}
          onClick={() => void exportList()}
        >
          {t('alerts.export')}
        </Button>
      )}
    </>
  );

  return (
    <div data-testid="alert-centre">
      <CentreFilters onFilter={apply} extra={actions} />
      {selected.length > 0 && (
        <Typography.Paragraph type="secondary" data-testid="alert-selected">
          {t('alerts.chosen', { count: selected.length })}
        </Typography.Paragraph>
      )}
      <Table<Alert>
        rowKey="id"
        columns={alertColumns({
          t,
          exists: (key) => i18n.exists(key),
          allowed: access.allowed,
          openDevice: setDeviceId,
        })}
        dataSource={rows}
        loading={list.loading}
        pagination={list.pagination}
        tableLayout="fixed"
        size="middle"
        rowSelection={
          access.acknowledge || access.clear
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (row) => ({ disabled: row.state === 'cleared' }),
              }
            : undefined
        }
        onRow={(row) => ({ 'data-testid': 'alert-row', 'data-alert': row.id }) as object}
      />
      <NoteModal
        open={bulk !== undefined}
        count={bulk === 'acknowledge' ? chosen.filter((row) => row.state === 'active').length : chosen.length}
        title={t(bulk === 'clear' ? 'alerts.clearTitle' : 'alerts.acknowledgeTitle')}
        onClose={() => setBulk(undefined)}
        onSubmit={(note) => act(bulk ?? 'acknowledge', note)}
      />
      <DeviceDetailModal
        deviceId={deviceId}
        open={deviceId !== undefined}
        onClose={() => setDeviceId(undefined)}
      />
    </div>
  );
}
