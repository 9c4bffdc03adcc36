import { useState } from 'react';
import { App, Button, DatePicker, Input, Select, Space, Table, type TableColumnsType } from 'antd';
import { EyeOutlined, FileExcelOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { reports } from '@panelfleet/contract';
import { call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { formatDateTime } from '../../format/dateTime';
import { useFilteredList } from '../../lists/usePagedList';
import { useOperationWords } from '../logs/operationWords';
import { DataRangeHint } from './DataRangeHint';
import { reportDuration } from './duration';
import {
  consoleTimeZone,
  DEFAULT_MODE,
  MODE_VALUES,
  rangeOfData,
  recentRange,
  requestedDays,
  signOf,
  weekRange,
  type ModeValue,
} from './reportRange';

type Kind = reports.ReportKind;
type Row =
  | reports.ErrorLogRow
  | reports.DeviceTimeRow
  | reports.AppTimeRow
  | reports.OperationLogRow
  | reports.ProofOfPlayRow;

interface ReportFilter {
  sign: string;
  startTime?: string;
  endTime?: string;
  deviceName?: string;
  timeZone: string;
}

const CALLS = {
  errorLog: reports.ureportErrorLog,
  deviceTime: reports.ureportRptDeviceTime,
  appTime: reports.ureportRptAppTime,
  operationLog: reports.ureportOperationLog,
  proofOfPlay: reports.ureportProofOfPlay,
} as const;

const PICKERS: Record<string, 'date' | 'week' | 'month' | 'year'> = {
  day: 'date',
  recent: 'date',
  week: 'date',
  month: 'month',
  year: 'year',
};

/**
 * One tab of the report screen (spec 3 section 2.7): time mode, dates, device name, search,
 * preview, export and refresh over a list the server aggregates and pages.
 */
export function ReportPanel({ kind }: { kind: Kind }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [mode, setMode] = useState<ModeValue>(DEFAULT_MODE);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null]>([null, null]);
  const [weekDate, setWeekDate] = useState<Dayjs | null>(null);
  const [deviceName, setDeviceName] = useState('');
  const timeZone = consoleTimeZone();
  const sign = signOf(mode);
  const operation = kind === 'operationLog';
  const initial: ReportFilter = { sign: 'day', timeZone };
  const list = useFilteredList<Row, ReportFilter>(`report-${kind}`, (start, size, filter) => {
    const { sign: chosen, ...rest } = filter ?? initial;
    return call(CALLS[kind] as typeof reports.ureportErrorLog, {
      start,
      size,
      ...(operation ? {} : { sign: chosen as 'day' }),
      ...rest,
    }) as Promise<{ listObject: Row[]; totalRecords: number }>;
  });

  /** The filter as the form shows it, or undefined after the 请选择日期 notice. */
  const current = (): ReportFilter | undefined => {
    const days = requestedDays(sign, { from: sign === 'week' ? weekDate : range[0], to: range[1] });
    if (days === 'chooseDate') {
      void message.error(t('report.chooseDate'), NOTICE_SECONDS);
      return undefined;
    }
    return {
      sign,
      ...days,
      ...(deviceName.trim() && !operation ? { deviceName: deviceName.trim() } : {}),
      timeZone,
    };
  };

  const search = () => {
    const filter = current();
    if (filter) list.filter(filter);
  };
  const open = (path: string, download: boolean) => {
    const filter = current();
    if (!filter) return;
    const { sign: chosen, ...rest } = filter;
    const query = new URLSearchParams({
      report: kind,
      ...(operation ? {} : { sign: chosen }),
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined) as [string, string][]),
      lang: i18n.language,
    });
    const url = `${path}?${query}`;
    if (!download) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    const link = document.createElement('a');
    link.href = url;
    link.download = '';
    document.body.append(link);
    link.click();
    link.remove();
  };
  // Refresh: day mode, no filters, reload (spec 3 section 4).
  const refresh = () => {
    setMode(DEFAULT_MODE);
    setRange([null, null]);
    setWeekDate(null);
    setDeviceName('');
    list.refresh();
  };
  /** Shows the whole span of the report's data: its mode and days, searched at once. */
  const showData = (firstDay: string, lastDay: string) => {
    const chosen = rangeOfData(firstDay, lastDay, operation);
    setMode(chosen.mode);
    setWeekDate(null);
    setRange(chosen.range);
    const days = requestedDays(signOf(chosen.mode), { from: chosen.range[0], to: chosen.range[1] });
    if (days !== 'chooseDate')
      list.filter({
        sign: signOf(chosen.mode),
        ...days,
        ...(deviceName.trim() && !operation ? { deviceName: deviceName.trim() } : {}),
        timeZone,
      });
  };
  const chooseMode = (value: ModeValue) => {
    setMode(value);
    setWeekDate(null);
    setRange(signOf(value) === 'recent' ? recentRange() : [null, null]);
  };

  const duration = (ms: number) => reportDuration(ms, t, i18n.language);
  const words = useOperationWords();
  const column = (key: string, render?: (row: Row) => string) => ({
    title: t(`report.columns.${key}`),
    dataIndex: key,
    key,
    ...(render ? { render: (_: unknown, row: Row) => render(row) } : {}),
  });
  const time = (row: Row) => duration((row as reports.AppTimeRow).totalTime);
  const columns: TableColumnsType<Row> = {
    errorLog: [
      column('groupDate'),
      column('deviceName'),
      column('appName'),
      column('model'),
      column('total'),
    ],
    deviceTime: [column('groupDate'), column('deviceName'), column('deviceKey'), column('totalTime', time)],
    appTime: [
      column('groupDate'),
      column('deviceName'),
      column('appName'),
      column('packageName'),
      column('totalTime', time),
    ],
    proofOfPlay: [
      column('groupDate'),
      column('programName'),
      column('deviceName'),
      column('deviceKey'),
      column('plays'),
      column('totalTime', time),
      column('cutShort'),
    ],
    operationLog: [
      column('operatorTime', (row) => formatDateTime((row as reports.OperationLogRow).operatorTime)),
      column('userName'),
      column('operationType', (row) => words.typeOf((row as reports.OperationLogRow).operationType)),
      column('content', (row) => words.contentOf(row as reports.OperationLogRow)),
      column('operatorIp'),
    ],
  }[kind];

  const picker = PICKERS[sign]!;
  return (
    <div data-testid={`report-${kind}`}>
      <DataRangeHint kind={kind} timeZone={timeZone} onShow={showData} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<ModeValue>
          data-testid="report-mode"
          value={mode}
          onChange={chooseMode}
          style={{ width: 145 }}
          options={MODE_VALUES.map((value) => ({ value, label: t(`report.modes.${signOf(value)}`) }))}
        />
        {sign === 'week' ? (
          <Space>
            <DatePicker
              data-testid="report-week-date"
              value={weekDate}
              onChange={setWeekDate}
              placeholder={t('report.chooseWeekDate')}
            />
            {weekDate && (
              <span data-testid="report-week-bounds">
                {weekRange(weekDate)
                  .map((d) => d.format('YYYY-MM-DD'))
                  .join(' ~ ')}
              </span>
            )}
          </Space>
        ) : (
          <DatePicker.RangePicker
            data-testid="report-range"
            picker={picker}
            value={range}
            disabled={sign === 'recent'}
            allowEmpty={[true, true]}
            onChange={(value) => setRange(value ? [value[0], value[1]] : [null, null])}
            placeholder={[t('report.startTime'), t('report.endTime')]}
          />
        )}
        {!operation && (
          <Input
            data-testid="report-device-name"
            allowClear
            placeholder={t('report.deviceName')}
            value={deviceName}
            onChange={(e) => setDeviceName(e.target.value)}
            onPressEnter={search}
            style={{ width: 150 }}
          />
        )}
        <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="report-search">
          {t('lists.search')}
        </Button>
        <Button
          icon={<EyeOutlined />}
          onClick={() => open(reports.PREVIEW_PATH, false)}
          data-testid="report-preview"
        >
          {t('report.preview')}
        </Button>
        <Button
          icon={<FileExcelOutlined />}
          onClick={() => open(reports.EXCEL_PATH, true)}
          data-testid="report-export"
        >
          {t('report.export')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={refresh} data-testid="report-refresh">
          {t('lists.refresh')}
        </Button>
      </Space>
      <Table<Row>
        rowKey={(row) => JSON.stringify(row)}
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        size="middle"
      />
    </div>
  );
}
