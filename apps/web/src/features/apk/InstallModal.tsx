import { useMemo, useState } from 'react';
import { App, Checkbox, Empty, Input, Modal, Radio, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apk, device } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { CONTRACT_NS } from '../../i18n';

type Target = 'devices' | 'labels';

/**
 * Install a version on panels (spec 3 section 2.6, the renew page's install-to-devices dialog):
 * chosen panels, searchable by deviceKey or deviceName, or the panels of chosen labels; at least
 * one must be chosen. The server makes a task with a row per panel (followed in the install task
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
  const [labels, setLabels] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const open = version !== undefined;
  const devices = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'install-devices'],
    queryFn: () => call(device.listDevices, { start: 1, size: 100 }),
    enabled: open && target === 'devices',
  });
  const groups = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'install-labels'],
    queryFn: () => call(device.listGroups, {}),
    enabled: open && target === 'labels',
  });
  const rows = useMemo(() => {
    const text = search.trim().toLowerCase();
    return (devices.data?.listObject ?? []).filter(
      (d) => !text || d.deviceKey.toLowerCase().includes(text) || d.deviceName.toLowerCase().includes(text),
    );
  }, [devices.data, search]);
  const close = () => {
    setChosen([]);
    setLabels([]);
    setTarget('devices');
    onClose();
  };

  const install = async () => {
    const ids = target === 'devices' ? chosen : labels;
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
            pagination={{ pageSize: 5, showSizeChanger: false }}
            rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => setChosen(keys as number[]) }}
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
        </>
      ) : (
        <div data-testid="apk-install-labels">
          <p>{t('apkTask.chooseLabels')}</p>
          {groups.data && !groups.data.listObject.length ? (
            <Empty description={t('apkTask.noLabels')} />
          ) : (
            <Checkbox.Group
              value={labels}
              onChange={(values) => setLabels(values)}
              options={(groups.data?.listObject ?? []).map((g) => ({
                value: g.groupId,
                label: <span data-testid={`apk-install-label-${g.groupName}`}>{g.groupName}</span>,
              }))}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
