import { useMemo, useState } from 'react';
import { App, Input, Modal, Radio, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apk, device } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { CONTRACT_NS } from '../../i18n';
import { ChooseAllBox, PanelPicker, PickedCount } from '../labels/PanelPicker';
import { usePanelPicker } from '../labels/usePanelPicker';

type Target = 'devices' | 'labels';

/** Every panel of the company, page after page (the list call's largest page is 100). */
async function allPanels(signal: AbortSignal) {
  const rows: device.DeviceRow[] = [];
  let cursor: string | undefined;
  for (let start = 1; ; start += 1) {
    const reply = await call(device.listDevices, { start, size: 100, cursor }, { signal });
    rows.push(...reply.listObject);
    cursor = reply.cursor;
    if (!reply.listObject.length || rows.length >= reply.totalRecords) return rows;
  }
}

/**
 * Install a version on panels (spec 3 section 2.6, the renew page's install-to-devices dialog):
 * chosen panels (every panel of the company, searchable by deviceKey or deviceName; the header box
 * chooses every match on every page), or the panels of chosen labels; the count shows before the
 * install, and at least one must be chosen. The server makes a task with a row per panel (followed in the install task
 * dialog that `onInstalled` opens); each panel downloads, verifies, installs and reports its apps.
 */
export function InstallModal({
  version,
  onClose,
  onInstalled,
}: {
  version?: { apkVersionId: number; versionName: string };
  onClose: () => void;
  onInstalled: (taskId: number) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [target, setTarget] = useState<Target>('devices');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const open = version !== undefined;
  const picker = usePanelPicker({ open });
  const devices = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'install-devices'],
    queryFn: ({ signal }) => allPanels(signal),
    enabled: open && target === 'devices',
  });
  const rows = useMemo(() => {
    const text = search.trim().toLowerCase();
    return (devices.data ?? []).filter(
      (d) => !text || d.deviceKey.toLowerCase().includes(text) || d.deviceName.toLowerCase().includes(text),
    );
  }, [devices.data, search]);
  const close = () => {
    setChosen([]);
    setTarget('devices');
    onClose();
  };

  const install = async () => {
    const ids = target === 'devices' ? chosen : picker.ticked;
    if (!ids.length) {
      void message.warning(
        target === 'devices' ? t('apk.selectDevice', { ns: CONTRACT_NS }) : t('apkTask.chooseLabels'),
        NOTICE_SECONDS,
      );
      return;
    }
    setSaving(true);
    try {
      const reply = await call(apk.installApk, {
        apkVersionId: version!.apkVersionId,
        ...(target === 'devices' ? { deviceIds: ids.join(',') } : { tagIds: ids.join(',') }),
        allowDowngrade: '0',
      });
      void message.success(
        t('apkPage.installStarted', { count: reply.dataObject.deviceCount }),
        NOTICE_SECONDS,
      );
      close();
      onInstalled(reply.dataObject.taskId);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      width={850}
      title={t('apkPage.installTitle', { version: version?.versionName ?? '' })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onCancel={close}
      destroyOnHidden
      data-testid="apk-install-modal"
      onOk={() => void install()}
    >
      <div style={{ marginBottom: 12 }}>
        <span style={{ marginRight: 12 }}>{t('apkTask.installTo')}</span>
        <Radio.Group
          value={target}
          onChange={(e) => setTarget(e.target.value as Target)}
          optionType="button"
          data-testid="apk-install-target"
          options={[
            { value: 'devices', label: t('apkTask.toDevices') },
            { value: 'labels', label: t('apkTask.toLabels') },
          ]}
        />
      </div>
      {target === 'devices' ? (
        <>
          <Input.Search
            allowClear
            placeholder={t('apkPage.deviceSearch')}
            onSearch={setSearch}
            onChange={(e) => setSearch(e.target.value)}
            style={{ marginBottom: 12, width: 320 }}
            data-testid="apk-install-search"
          />
          <Table
            size="small"
            rowKey="deviceId"
            loading={devices.isFetching}
            dataSource={rows}
            data-testid="apk-install-devices"
            pagination={{
              pageSize: 5,
              showSizeChanger: false,
              showTotal: (count) => t('lists.total', { count }),
            }}
            rowSelection={{
              selectedRowKeys: chosen,
              preserveSelectedRowKeys: true,
              columnTitle: (
                <ChooseAllBox
                  rows={rows}
                  chosen={chosen.filter((id) => rows.some((r) => r.deviceId === id))}
                  onChange={(ids) =>
                    setChosen([...chosen.filter((id) => !rows.some((r) => r.deviceId === id)), ...ids])
                  }
                  testId="apk-install-all-panels"
                />
              ),
              onChange: (keys) => setChosen(keys as number[]),
            }}
            columns={[
              { title: t('apkPage.deviceName'), dataIndex: 'deviceName' },
              { title: t('apkPage.deviceKey'), dataIndex: 'deviceKey' },
              {
                title: t('apkPage.online'),
                dataIndex: 'isOnline',
                render: (v: string) =>
                  v === '1' ? (
                    <Tag color="green">{t('apkPage.online')}</Tag>
                  ) : (
                    <Tag>{t('apkPage.offline')}</Tag>
                  ),
              },
            ]}
          />
          {chosen.length > 0 && (
            <PickedCount count={chosen.length} of={chosen.length} testId="apk-install-count" />
          )}
        </>
      ) : (
        <div data-testid="apk-install-labels">
          <p>{t('apkTask.chooseLabels')}</p>
          <PanelPicker picker={picker} choose={false} testIdPrefix="apk-install" pageSize={5} />
        </div>
      )}
    </Modal>
  );
}
