import { useState } from 'react';
import {
  Button,
  Card,
  Collapse,
  Descriptions,
  Empty,
  Input,
  List,
  Modal,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import {
  ArrowLeftOutlined,
  CloudDownloadOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apk } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { ApkIcon } from './ApkIcon';
import { InstallModal } from './InstallModal';
import { useOtaAccess } from '../ota/manage/useOtaAccess';
import { InstallTaskModal } from './InstallTasks';
import { megabytes } from '../../format/fileSize';
import { useUploadFlow } from './useUploadFlow';

/**
 * The detail panel of an application card: icon, name, remark, package name, mark and signer,
 * its versions (latest tag, size, time, operator, description with edit) with their auxiliary
 * apps, and the uploads of a new version or an auxiliary app. It closes when the last version goes.
 */
export function ApkDetail({ apkMarkId, onBack }: { apkMarkId: number; onBack: () => void }) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const [subFor, setSubFor] = useState<number>();
  const [editing, setEditing] = useState<{ id: number; remark: string }>();
  const [installing, setInstalling] = useState<{ apkVersionId: number; versionName: string }>();
  const [following, setFollowing] = useState<number>();
  const { installer } = useOtaAccess();
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'details', apkMarkId],
    queryFn: () => call(apk.apkDetails, { apkMarkId, start: 1, size: 100 }, { quietFail: true }),
    retry: false,
  });
  /** After a change: the versions again; an empty list (or a card gone) closes the panel. */
  const reload = async () => {
    const next = await query.refetch();
    if (next.error instanceof ApiError || next.data?.listObject.length === 0) onBack();
  };
  const flow = useUploadFlow(async (mode, uploadId, request) => {
    if (mode === 'version')
      await call(apk.uploadNewApkVersion, {
        uploadId,
        apkMarkId,
        remark: request.remark ?? '',
        downgrade: request.downgrade ? '1' : '0',
      });
    else await call(apk.uploadApkFileSub, { uploadId, apkMarkId, apkVersionId: subFor! });
    await reload();
  });

  if (query.error) {
    onBack();
    return null;
  }
  const card = query.data?.dataObject;
  const versions = query.data?.listObject ?? [];
  return (
    <Card
      title={
        <Space>
          <Button type="link" icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="apk-back">
            {t('apkPage.back')}
          </Button>
          {card?.label}
        </Space>
      }
      extra={
        <Button
          type="primary"
          icon={<UploadOutlined />}
          onClick={() => flow.open('version')}
          data-testid="apk-upload-version"
        >
          {t('apkPage.uploadVersion')}
        </Button>
      }
      data-testid="apk-detail"
    >
      {!card ? (
        <Spin />
      ) : (
        <Space align="start" size="large" style={{ width: '100%' }}>
          <ApkIcon src={card.iconName} size={96} title={card.packageName} />
          <Descriptions column={1} size="small" styles={{ label: { width: 170 } }}>
            <Descriptions.Item label={t('apkPage.name')}>
              <span data-testid="apk-detail-label">{card.label}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('apkPage.remark')}>{card.remark || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('apkPage.packageName')}>
              <span data-testid="apk-detail-package">{card.packageName}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('apkPage.mark')}>{card.mark}</Descriptions.Item>
            <Descriptions.Item label={t('apkPage.signer')}>
              <Typography.Text code style={{ fontSize: 11 }}>
                {card.signerSha256}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </Space>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('apkPage.versions')}
      </Typography.Title>
      <List
        dataSource={versions}
        locale={{ emptyText: <Empty description={t('apkPage.empty')} /> }}
        data-testid="apk-versions"
        renderItem={(v) => (
          <List.Item
            key={v.apkVersionId}
            data-testid={`apk-version-${v.versionCode}`}
            actions={[
              // Only who may install sees the button (the contract's access declaration).
              ...(installer
                ? [
                    <Button
                      key="install"
                      size="small"
                      icon={<CloudDownloadOutlined />}
                      data-testid={`apk-version-install-${v.versionCode}`}
                      onClick={() =>
                        setInstalling({ apkVersionId: v.apkVersionId, versionName: v.versionName })
                      }
                    >
                      {t('apkPage.install')}
                    </Button>,
                  ]
                : []),
              <Button
                key="delete"
                danger
                size="small"
                icon={<DeleteOutlined />}
                data-testid={`apk-version-delete-${v.versionCode}`}
                onClick={() =>
                  confirm(
                    t('apkPage.confirmDeleteVersion', { version: v.versionName }),
                    () => call(apk.deleteApkVersion, { apkVersionId: v.apkVersionId }),
                    () => void reload(),
                  )
                }
              >
                {t('lists.delete')}
              </Button>,
            ]}
          >
            <div style={{ width: '100%' }}>
              <Space wrap>
                <Typography.Text strong>{v.versionName}</Typography.Text>
                <Typography.Text type="secondary">({v.versionCode})</Typography.Text>
                {v.logo === 1 && (
                  <Tag color="green" data-testid="apk-latest">
                    {t('apkPage.latest')}
                  </Tag>
                )}
                {v.downgrade === '1' && <Tag color="orange">{t('apkPage.downgraded')}</Tag>}
                <Typography.Text>{megabytes(v.fileSize, 0)} MB</Typography.Text>
                <Typography.Text type="secondary">{formatDateTime(v.creationDate)}</Typography.Text>
                <Typography.Text type="secondary">{v.userName}</Typography.Text>
              </Space>
              <div>
                <Typography.Text type="secondary">{t('apkPage.description')}: </Typography.Text>
                <span data-testid={`apk-remark-text-${v.versionCode}`}>{v.remark || '—'}</span>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('apkPage.editDescription')}
                  data-testid={`apk-remark-edit-${v.versionCode}`}
                  onClick={() => setEditing({ id: v.apkVersionId, remark: v.remark })}
                />
              </div>
              <Collapse
                size="small"
                ghost
                items={[
                  {
                    key: 'subs',
                    label: t('apkPage.subs', { count: v.apkFileSubList.length }),
                    children: (
                      <>
                        <List
                          size="small"
                          dataSource={v.apkFileSubList}
                          locale={{ emptyText: t('apkPage.noSubs') }}
                          renderItem={(s) => (
                            <List.Item
                              data-testid={`apk-sub-${s.packageName}`}
                              actions={[
                                <Button
                                  key="delete"
                                  danger
                                  size="small"
                                  type="link"
                                  data-testid={`apk-sub-delete-${s.packageName}`}
                                  onClick={() =>
                                    confirm(
                                      t('apkPage.confirmDeleteSub', { name: s.fileName }),
                                      () => call(apk.deleteApkFileSub, { apkFileSubId: s.apkFileSubId }),
                                      () => void reload(),
                                    )
                                  }
                                >
                                  {t('lists.delete')}
                                </Button>,
                              ]}
                            >
                              <Space>
                                <Tooltip title={s.packageName}>
                                  <span>
                                    <ApkIcon src={s.iconName} size={28} />
                                  </span>
                                </Tooltip>
                                <Typography.Text>{s.fileName}</Typography.Text>
                                <Typography.Text type="secondary">{s.versionName}</Typography.Text>
                                <Typography.Text type="secondary">
                                  {megabytes(s.fileSize, 0)} MB
                                </Typography.Text>
                              </Space>
                            </List.Item>
                          )}
                        />
                        <Button
                          size="small"
                          icon={<PlusOutlined />}
                          data-testid={`apk-sub-upload-${v.versionCode}`}
                          onClick={() => {
                            setSubFor(v.apkVersionId);
                            flow.open('sub');
                          }}
                        >
                          {t('apkPage.uploadSub')}
                        </Button>
                      </>
                    ),
                  },
                ]}
              />
            </div>
          </List.Item>
        )}
      />
      <EditRemarkModal
        editing={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => void reload()}
      />
      <InstallModal
        version={installing}
        onClose={() => setInstalling(undefined)}
        onInstalled={setFollowing}
      />
      <InstallTaskModal taskId={following} onClose={() => setFollowing(undefined)} />
      {flow.dialogs}
    </Card>
  );
}

function EditRemarkModal({
  editing,
  onClose,
  onSaved,
}: {
  editing?: { id: number; remark: string };
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(editing?.remark ?? '');
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      open={editing !== undefined}
      title={t('apkPage.editDescription')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onCancel={onClose}
      onOk={async () => {
        setSaving(true);
        try {
          await call(apk.updateApkRemark, { apkVersionId: editing!.id, remark: text });
          onClose();
          onSaved();
        } catch (error) {
          // The dialog stays open on a failed save; the notice was shown.
          if (!(error instanceof ApiError)) throw error;
        } finally {
          setSaving(false);
        }
      }}
      data-testid="apk-remark-modal"
    >
      <Input.TextArea
        rows={4}
        value={text}
        maxLength={apk.APK_REMARK_MAX}
        onChange={(e) => setText(e.target.value)}
        data-testid="apk-remark-input"
      />
    </Modal>
  );
}
