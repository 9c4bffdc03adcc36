import { useState } from 'react';
import { Button, Card, Col, Empty, Input, Pagination, Row, Space, Spin, Typography } from 'antd';
import { UnorderedListOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apk } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { useOtaAccess } from '../ota/manage/useOtaAccess';
import { ApkDetail } from './ApkDetail';
import { InstallTasksModal } from './InstallTasks';
import { ApkIcon } from './ApkIcon';
import { megabytes } from '../../format/fileSize';
import { useUploadFlow } from './useUploadFlow';

/** The APK list's page sizes (spec 3 section 2.6): 1, 10, 20, 30, 50, default 20. */
const APK_PAGE_SIZES = ['1', '10', '20', '30', '50'];
const APK_PAGE_SIZE = 20;

/**
 * View `apk` (spec 3 section 2.6): the application cards of the company, searched by label, a
 * detail panel per card with its versions and auxiliary apps, and the resumable upload of a new
 * application.
 */
export default function ApkView() {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ page: 1, size: APK_PAGE_SIZE });
  const [label, setLabel] = useState<string>();
  const [opened, setOpened] = useState<number>();
  const [tasksOpen, setTasksOpen] = useState(false);
  const { installer } = useOtaAccess();
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'cards', paging.page, paging.size, label],
    queryFn: () => call(apk.listApkCards, { start: paging.page, size: paging.size, label }),
    placeholderData: keepPreviousData,
  });
  const flow = useUploadFlow(async (_mode, uploadId, request) => {
    await call(apk.uploadApk, { uploadId, mark: request.mark ?? '', remark: request.remark ?? '' });
    setPaging((p) => ({ ...p, page: 1 }));
    await query.refetch();
  });

  if (opened !== undefined)
    return (
      <ApkDetail
        apkMarkId={opened}
        onBack={() => {
          setOpened(undefined);
          void query.refetch();
        }}
      />
    );

  const cards = query.data?.listObject ?? [];
  return (
    <Card
      title={t('apkPage.title')}
      extra={
        <Space>
          <Input.Search
            allowClear
            placeholder={t('apkPage.searchPlaceholder')}
            onSearch={(text) => {
              setLabel(text.trim() || undefined);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            style={{ width: 240 }}
            data-testid="apk-search"
          />
          {installer && (
            <Button
              icon={<UnorderedListOutlined />}
              onClick={() => setTasksOpen(true)}
              data-testid="apk-install-tasks"
            >
              {t('apkTask.tasks')}
            </Button>
          )}
          <Button
            type="primary"
            icon={<UploadOutlined />}
            onClick={() => flow.open('apk')}
            data-testid="apk-upload"
          >
            {t('apkPage.upload')}
          </Button>
        </Space>
      }
    >
      {!query.data ? (
        <Spin />
      ) : cards.length === 0 ? (
        <Empty description={t('apkPage.empty')} data-testid="apk-empty" />
      ) : (
        <Row gutter={[16, 16]} data-testid="apk-cards">
          {cards.map((c) => (
            <Col key={c.apkMarkId} xs={24} sm={12} md={8} lg={6} xl={4}>
              <CardItem card={c} onOpen={() => setOpened(c.apkMarkId)} />
            </Col>
          ))}
        </Row>
      )}
      <Pagination
        style={{ marginTop: 16, justifyContent: 'flex-end' }}
        current={paging.page}
        pageSize={paging.size}
        total={query.data?.totalRecords ?? 0}
        showSizeChanger
        pageSizeOptions={APK_PAGE_SIZES}
        showTotal={(count) => t('lists.total', { count })}
        onChange={(page, size) => setPaging((p) => (size !== p.size ? { page: 1, size } : { page, size }))}
        data-testid="apk-pager"
      />
      {flow.dialogs}
      {tasksOpen && <InstallTasksModal onClose={() => setTasksOpen(false)} />}
    </Card>
  );
}

function CardItem({ card, onOpen }: { card: apk.ApkCard; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Card hoverable size="small" onClick={onOpen} data-testid={`apk-card-${card.packageName}`}>
      <Space align="start">
        <ApkIcon src={card.iconName} size={48} title={card.packageName} />
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ display: 'block' }} data-testid="apk-card-label">
            {card.label}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDateTime(card.apkVersionDate)}
          </Typography.Text>
        </div>
      </Space>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 8 }}>
        <Typography.Text style={{ fontSize: 12 }} data-testid="apk-card-version">
          {card.versionName} · {megabytes(card.fileSize, 0)} MB
        </Typography.Text>
        <Typography.Link style={{ fontSize: 12 }}>{t('apkPage.detail')}</Typography.Link>
      </div>
    </Card>
  );
}
