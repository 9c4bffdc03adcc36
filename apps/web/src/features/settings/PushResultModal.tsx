import { useEffect, useState } from 'react';
import { Button, Modal, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, device, settings } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { PAGE_SIZE_OPTIONS } from '../../lists/paging';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { useSettingNames } from './names';

const POLL_MS = 2000;
const WAITING: readonly settings.PushResult[] = ['offline', 'sending'];

export const RESULT_COLORS: Record<settings.PushResult, string> = {
  offline: 'default',
  sending: 'processing',
  applied: 'success',
  offlineApplied: 'success',
  refused: 'error',
  expired: 'warning',
  cancelled: 'default',
};

type Reply = Awaited<ReturnType<typeof readPage>>;
const readPage = (pushId: number, start: number, size: number) =>
  call(settings.selectSettingPush, { pushId, start, size }, { quietFail: true });

interface PushResultModalProps {
  pushId: number | undefined;
  onClose(): void;
}

/**
 * Where a push is, panel by panel (what the panels acknowledged, not the send reply): applied,
 * refused with the panel's reason, waiting while off, applied after coming back, or expired.
 * Read again every 2 s while any panel is still waiting.
 */
export function PushResultModal({ pushId, onClose }: PushResultModalProps) {
  const { t } = useTranslation();
  const names = useSettingNames();
  const [page, setPage] = useState({ start: 1, size: DEFAULT_PAGE_SIZE });
  const [reply, setReply] = useState<Reply>();
  // Read again after a stop, even when nothing is waiting any more.
  const [round, setRound] = useState(0);
  const confirm = useConfirmAction();

  useEffect(() => {
    if (pushId === undefined) {
      setReply(undefined);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const next = await readPage(pushId, page.start, page.size);
        if (stopped) return;
        setReply(next);
        if (WAITING.some((r) => next.counts[r] > 0)) timer = setTimeout(() => void poll(), POLL_MS);
      } catch (error) {
        alreadyReported(error);
      }
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [pushId, page, round]);

  // A template's push names its series, a source setting's its input.
  const what = (row: settings.PushTarget) =>
    device.isSeries(row.what) ? row.what : names.source(row.what as device.SourceType);
  const columns: TableColumnsType<settings.PushTarget> = [
    { title: t('pushResult.device'), dataIndex: 'deviceName', ellipsis: true },
    { title: t('deviceDetail.serial'), dataIndex: 'deviceKey', width: 130 },
    { title: t('pushResult.what'), dataIndex: 'what', width: 120, render: (_, row) => what(row) },
    {
      title: t('pushResult.result'),
      dataIndex: 'result',
      width: 190,
      render: (_, row) => (
        <Tag color={RESULT_COLORS[row.result]} data-testid="push-result-tag">
          {t(`pushResult.results.${row.result}`)}
        </Tag>
      ),
    },
    { title: t('pushResult.detail'), dataIndex: 'detail', width: 110 },
    {
      title: t('pushResult.time'),
      dataIndex: 'updateTime',
      width: 170,
      render: (_, row) => formatDateTime(row.updateTime),
    },
  ];

  return (
    <Modal
      title={t('pushResult.title')}
      open={pushId !== undefined}
      width={980}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      modalRender={(node) => <div data-testid="push-result">{node}</div>}
    >
      {reply && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <Typography.Text strong>{t('pushResult.summary', { total: reply.totalRecords })}</Typography.Text>
            {settings.PUSH_RESULTS.filter((r) => reply.counts[r] > 0).map((r) => (
              <Tag
                key={r}
                color={RESULT_COLORS[r]}
                data-testid={`push-count-${r}`}
                data-count={reply.counts[r]}
              >
                {t(`pushResult.results.${r}`)}: {reply.counts[r]}
              </Tag>
            ))}
          </Space>
          <Space wrap>
            <Typography.Text type="secondary">
              {t('pushResult.expires', { time: formatDateTime(reply.expiresAt) })}
            </Typography.Text>
            {reply.counts.offline > 0 && pushId !== undefined && (
              <Button
                size="small"
                danger
                data-testid="push-stop"
                onClick={() =>
                  confirm(
                    t('pushResult.stopConfirm', { count: reply.counts.offline }),
                    () => call(settings.cancelSettingPush, { pushId }),
                    () => setRound((n) => n + 1),
                  )
                }
              >
                {t('pushResult.stop')}
              </Button>
            )}
          </Space>
          <Table<settings.PushTarget>
            size="small"
            rowKey={(row) => `${row.deviceId}-${row.settingId ?? row.what}`}
            columns={columns}
            dataSource={reply.listObject}
            onRow={(row) => ({ 'data-device-key': row.deviceKey, 'data-result': row.result }) as object}
            pagination={{
              current: page.start,
              pageSize: page.size,
              total: reply.totalRecords,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZE_OPTIONS,
              onChange: (start, size) => setPage({ start, size }),
            }}
          />
        </Space>
      )}
    </Modal>
  );
}
