import { useState } from 'react';
import { Card, DatePicker, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { device, type ReplyOf } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { dayFilter, FilterToolbar, SearchText } from '../../lists/ListToolbar';
import { PagedTable } from '../../lists/RowActions';
import { useFilteredList } from '../../lists/usePagedList';
import { FEEDBACK_STATUS_COLORS, feedbackTypeKey } from './feedbackTypes';

type FeedbackRecord = ReplyOf<typeof device.listFeedback>['listObject'][number];

interface FeedbackFilter {
  deviceName?: string;
  createDate?: string;
  /** The console's offset from UTC on that day: the server reads createDate as the operator's day. */
  utcOffset?: number;
}

const DATE_FORMAT = 'YYYY-MM-DD';

/** Feedback log (view feedBack, spec 3 section 2.8): what became of each command sent to a panel. */
export default function FeedbackView() {
  const { t } = useTranslation();
  const list = useFilteredList<FeedbackRecord, FeedbackFilter>('feedback', (start, size, filter) =>
    call(device.listFeedback, { start, size, ...filter }),
  );
  const [deviceName, setDeviceName] = useState('');
  const [createDate, setCreateDate] = useState<Dayjs | null>(null);

  const search = () => list.filter({ deviceName: deviceName.trim() || undefined, ...dayFilter(createDate) });
  const refresh = () => {
    setDeviceName('');
    setCreateDate(null);
    list.refresh();
  };

  const columns: TableColumnsType<FeedbackRecord> = [
    { title: t('feedback.deviceName'), dataIndex: 'deviceName' },
    {
      title: t('feedback.type'),
      dataIndex: 'type',
      render: (_, row) => {
        const key = feedbackTypeKey(row.type);
        return (
          <span data-testid="feedback-type" data-type={row.type}>
            {key ? t(key) : row.type} <Typography.Text type="secondary">({row.type})</Typography.Text>
          </span>
        );
      },
    },
    {
      title: t('feedback.status'),
      dataIndex: 'status',
      render: (_, row) => (
        <Tag
          color={FEEDBACK_STATUS_COLORS[row.status]}
          data-testid="feedback-status"
          data-status={row.status}
        >
          {t(`feedback.statuses.${row.status}`)}
        </Tag>
      ),
    },
    {
      // A failed command: the panel's error code and its tip in the operator's language (errorMsg).
      title: t('feedbackTips.error'),
      dataIndex: 'detail',
      render: (_, row) =>
        row.detail ? (
          <span data-testid="feedback-error" data-code={row.detail}>
            {row.tip || row.detail}
            {row.tip && <Typography.Text type="secondary"> ({row.detail})</Typography.Text>}
          </span>
        ) : null,
    },
    { title: t('feedback.userName'), dataIndex: 'userName' },
    {
      title: t('feedback.createDate'),
      dataIndex: 'createDate',
      render: (_, row) => formatDateTime(row.createDate),
    },
  ];

  return (
    <Card title={t('feedback.title')}>
      <FilterToolbar onSearch={search} onRefresh={refresh}>
        <SearchText
          placeholder={t('feedback.searchDevice')}
          value={deviceName}
          onChange={setDeviceName}
          onSearch={search}
        />
        <DatePicker
          data-testid="feedback-date"
          placeholder={t('feedback.createDate')}
          format={DATE_FORMAT}
          value={createDate}
          onChange={setCreateDate}
        />
      </FilterToolbar>
      <PagedTable<FeedbackRecord> rowKey="uuid" columns={columns} list={list} />
    </Card>
  );
}
