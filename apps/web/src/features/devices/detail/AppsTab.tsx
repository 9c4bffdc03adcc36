import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceDetail } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { CONTRACT_NS } from '../../../i18n';
import { afterUninstall, isSelectable, renewDisabled, uninstallDisabled } from './appSelection';

type DeviceApp = deviceDetail.DeviceApp;

const toMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Tab 4: the apps the panel reports, with the newer version the APK repository holds of the same
 * package and signer; renew (an install task per app) or uninstall user apps.
 */
export function AppsTab({
  deviceId,
  online,
  active,
}: {
  deviceId: number;
  online: boolean;
  active: boolean;
}) {
  const { t } = useTranslation();
  const { message, modal, notification } = App.useApp();
  const [apps, setApps] = useState<DeviceApp[]>([]);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [uninstalling, setUninstalling] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const needsLoad = useRef(true);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const reply = await call(deviceDetail.listDeviceApps, { deviceId });
      setApps(reply.listObject);
      setSelected([]);
      if (!reply.listObject.length)
        notification.error({
          title: t('common.tips'),
          description: t('deviceDetail.noAppData'),
          duration: NOTICE_SECONDS,
        });
    } catch (error) {
      alreadyReported(error);
    } finally {
      setLoading(false);
    }
  }, [deviceId, notification, t]);

  // The list loads the first time the tab is shown; Refresh loads it again.
  useEffect(() => {
    if (active && needsLoad.current) {
      needsLoad.current = false;
      void load();
    }
  }, [active, load]);

  const chosen = apps.filter((a) => selected.includes(a.packageName));

  const uninstall = () => {
    if (!chosen.length) {
      void message.warning(t('deviceManage.SelectApkUninstall', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    if (chosen.some((a) => a.appLevel === 1)) {
      notification.error({
        title: t('common.tips'),
        description: t('deviceManage.SystemApkUninstall', { ns: CONTRACT_NS }),
        duration: NOTICE_SECONDS,
      });
      return;
    }
    modal.confirm({
      title: t('common.tips'),
      content: t('deviceDetail.confirmUninstall', { names: chosen.map((a) => a.appName).join(', ') }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        setUninstalling(true);
        try {
          const reply = await call(deviceDetail.uninstallApk, {
            deviceId,
            packageNames: chosen.map((a) => a.packageName).join(','),
          });
          setApps((current) => afterUninstall(current, reply.appList));
          setSelected([]);
          void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
        } catch (error) {
          alreadyReported(error);
        } finally {
          setUninstalling(false);
        }
      },
      onCancel: () => void message.info(t('common.cancelled'), NOTICE_SECONDS),
    });
  };

  const renew = async () => {
    if (!chosen.length) {
      void message.warning(t('deviceManage.SelectApkRenew', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    setRenewing(true);
    try {
      const reply = await call(deviceDetail.upgradeApk, {
        deviceId,
        packageNames: chosen.map((a) => a.packageName).join(','),
      });
      setSelected([]);
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
    } catch (error) {
      alreadyReported(error);
    } finally {
      setRenewing(false);
    }
  };

  const columns: TableColumnsType<DeviceApp> = [
    { title: t('deviceDetail.appName'), dataIndex: 'appName', ellipsis: { showTitle: true } },
    { title: t('deviceDetail.version'), dataIndex: 'versionName', width: 78, ellipsis: { showTitle: true } },
    {
      title: t('deviceDetail.newVersion'),
      dataIndex: 'newVersionName',
      width: 78,
      render: (_, a) =>
        a.newVersionName === null ? (
          '—'
        ) : (
          <Tag color="blue" data-testid={`app-new-version-${a.packageName}`}>
            {a.newVersionName}
          </Tag>
        ),
    },
    { title: t('deviceDetail.appSize'), dataIndex: 'appSize', width: 84, render: (_, a) => toMb(a.appSize) },
    {
      title: t('deviceDetail.appState'),
      key: 'state',
      width: 86,
      render: (_, a) => (
        <Space size={2} wrap>
          {a.appLevel === 1 && <Tag>{t('deviceDetail.systemApp')}</Tag>}
          {a.status === 'uninstall' && <Tag color="orange">{t('deviceDetail.uninstalling')}</Tag>}
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="detail-apps">
      <Space style={{ marginBottom: 8 }}>
        <Tooltip title={renewDisabled(chosen, online) ? t('deviceDetail.renewLater') : undefined}>
          <Button
            type="primary"
            disabled={renewDisabled(chosen, online)}
            loading={renewing}
            onClick={() => void renew()}
            data-testid="apps-renew"
          >
            {t('deviceDetail.renew')}
          </Button>
        </Tooltip>
        <Button
          danger
          disabled={uninstallDisabled(chosen, online)}
          loading={uninstalling}
          onClick={uninstall}
          data-testid="apps-uninstall"
        >
          {t('deviceDetail.uninstall')}
        </Button>
        <Button onClick={() => void load()} loading={loading} data-testid="apps-refresh">
          {t('lists.refresh')}
        </Button>
      </Space>
      <Table<DeviceApp>
        size="small"
        rowKey="packageName"
        columns={columns}
        dataSource={apps}
        loading={loading}
        pagination={false}
        scroll={{ y: 330 }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(String)),
          getCheckboxProps: (a) => ({ disabled: !isSelectable(a, online) }),
        }}
      />
    </div>
  );
}
