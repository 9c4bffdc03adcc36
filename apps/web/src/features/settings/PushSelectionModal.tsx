import { useEffect, useState } from 'react';
import { App, Empty, Modal, Spin, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import { testHook } from '../../lists/FormModal';
import { useResetOnOpen } from '../../lists/useResetOnOpen';
import { useSettingNames } from './names';

/** The dialog lists this many saved settings of each kind (the list call's largest page). */
const LISTED = 100;

interface PushSelectionModalProps {
  open: boolean;
  deviceId: number;
  deviceName: string;
  /** The panel's series (machine type) and the system it reported; null while unknown. */
  series: string;
  system: device.PanelSystem | null;
  onClose(): void;
  /** The push was made: its per-panel results. */
  onPushed(pushId: number): void;
}

type Row = settings.SettingRow;

/**
 * The device detail's "setting and source-setting push selection": tick saved templates and
 * source settings and push them to this panel; those of another series (or of another system
 * than the panel reports) are shown with the reason and cannot be ticked.
 */
export function PushSelectionModal(props: PushSelectionModalProps) {
  const { open, deviceId, deviceName, series, system, onClose, onPushed } = props;
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const names = useSettingNames();
  const [rows, setRows] = useState<{ templates: Row[]; sources: Row[] }>();
  const [chosen, setChosen] = useState<number[]>([]);
  const [sending, setSending] = useState(false);
  useResetOnOpen(open, () => setChosen([]));

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const list = (type: '0' | '1') =>
      call(settings.listSetting, { type, start: 1, size: LISTED }, { signal: controller.signal }).then(
        (reply) => reply.listObject,
      );
    Promise.all([list('0'), list('1')]).then(
      ([templates, sources]) => setRows({ templates, sources }),
      (error: unknown) => alreadyReported(error),
    );
    return () => controller.abort();
  }, [open]);

  const why = (row: Row) => {
    if (!device.isSeries(series)) return t('savedSettings.noSeries');
    if (row.series !== series)
      return t('savedSettings.notForThisPanel', { series: row.series, panelSeries: series });
    if (row.type === '1' && system && row.platform !== system)
      return t('savedSettings.otherSystem', {
        system: names.system(row.platform),
        panelSystem: names.system(system),
      });
    return undefined;
  };

  const send = async () => {
    if (!chosen.length) {
      notification.error({
        title: t('common.tips'),
        description: t('deviceManage.selectSettingToPush', { ns: CONTRACT_NS }),
        duration: NOTICE_SECONDS,
      });
      return;
    }
    setSending(true);
    try {
      const reply = await call(settings.sendSettingsToDevice, { deviceId, ids: chosen.join(',') });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onClose();
      onPushed(reply.dataObject.pushId);
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSending(false);
    }
  };

  const table = (kind: '0' | '1', data: Row[]) => {
    const columns: TableColumnsType<Row> =
      kind === '0'
        ? [
            { title: t('settingPage.seriesName'), dataIndex: 'series', width: 110 },
            { title: t('settingPage.number'), dataIndex: 'id', width: 80 },
          ]
        : [
            {
              title: t('settingPage.system'),
              dataIndex: 'platform',
              width: 130,
              render: (_, r) => names.system(r.platform),
            },
            { title: t('settingPage.series'), dataIndex: 'series', width: 90 },
            {
              title: t('settingPage.source'),
              dataIndex: 'sourceType',
              width: 120,
              render: (_, r) => names.source(r.sourceType),
            },
          ];
    columns.push({
      title: '',
      key: 'why',
      render: (_, r) => {
        const reason = why(r);
        return reason ? (
          <Typography.Text type="warning" data-testid="selection-reason">
            {reason}
          </Typography.Text>
        ) : null;
      },
    });
    return (
      <div data-testid={kind === '0' ? 'selection-templates' : 'selection-sources'}>
        <Table<Row>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={data}
          pagination={false}
          scroll={{ y: 190 }}
          onRow={(r) => ({ 'data-id': r.id, 'data-series': r.series }) as object}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('settingPage.empty')} />,
          }}
          rowSelection={{
            selectedRowKeys: chosen.filter((id) => data.some((r) => r.id === id)),
            onChange: (keys) =>
              setChosen([...chosen.filter((id) => !data.some((r) => r.id === id)), ...keys.map(Number)]),
            getCheckboxProps: (r) => ({ disabled: why(r) !== undefined }),
          }}
        />
      </div>
    );
  };

  return (
    <Modal
      title={t('savedSettings.selectionTitle')}
      open={open}
      width={760}
      onOk={() => void send()}
      onCancel={onClose}
      okText={t('settingPage.push')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      okButtonProps={testHook('push-selection-ok')}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => <div data-testid="push-selection">{node}</div>}
    >
      <Typography.Paragraph type="secondary">
        {t('savedSettings.selectionHint', { name: deviceName, series: series || '—' })}
      </Typography.Paragraph>
      {!rows ? (
        <Spin />
      ) : (
        <>
          <Typography.Title level={5}>{t('savedSettings.templates')}</Typography.Title>
          {table('0', rows.templates)}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('savedSettings.sources')}
          </Typography.Title>
          {table('1', rows.sources)}
          <Typography.Text type="secondary">
            {t('savedSettings.chosen', { count: chosen.length })}
          </Typography.Text>
        </>
      )}
    </Modal>
  );
}
