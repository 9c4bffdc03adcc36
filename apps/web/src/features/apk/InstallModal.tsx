import { useMemo, useState } from 'react';
import { App, Input, Modal, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apk, device } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { CONTRACT_NS } from '../../i18n';

/**
 * Install a version on panels (spec 3 section 2.6, the renew page's install-to-devices dialog):
 * the company's panels, searchable by deviceKey or deviceName; at least one must be chosen
 * (apk.selectDevice). The server makes a task with a row per panel; each panel downloads,
 * verifies, installs and reports its apps.
 */
export function InstallModal({
  version,
  onClose,
}: {
  version?: { apkVersionId: number; versionName: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'install-devices'],
    queryFn: () => call(device.listDevices, { start: 1, size: 100 }),
    enabled: version !== undefined,
  });
  const rows = useMemo(() => {
    const text = search.trim().toLowerCase();
    return (query.data?.listObject ?? []).filter(
      (d) => !text || d.deviceKey.toLowerCase().includes(text) || d.deviceName.toLowerCase().includes(text),
    );
  }, [query.data, search]);
  return (
    <Modal
      open={version !== undefined}
      width={850}
      title={t('apkPage.installTitle', { version: version?.versionName ?? '' })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      data-testid="apk-install-modal"
      onOk={async () => {
        if (!chosen.length) {
          void message.warning(t('apk.selectDevice', { ns: CONTRACT_NS }), NOTICE_SECONDS);
          return;
        }
        setSaving(true);
        try {
          const reply = await call(apk.installApk, {
            apkVersionId: version!.apkVersionId,
            deviceIds: chosen.join(','),
            allowDowngrade: '0',
          });
          void message.success(
            t('apkPage.installStarted', { count: reply.dataObject.deviceCount }),
            NOTICE_SECONDS,
          );
          setChosen([]);
          onClose();
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        } finally {
          setSaving(false);
        }
      }}
    >
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
        loading={query.isFetching}
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
              v === '1' ? <Tag color="green">{t('apkPage.online')}</Tag> : <Tag>{t('apkPage.offline')}</Tag>,
          },
        ]}
      />
    </Modal>
  );
}
