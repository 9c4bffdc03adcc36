import { useMemo, useState } from 'react';
import { Button, DatePicker, Segmented, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { panelHistory } from '@panelfleet/contract';
import { Chart } from '../../dashboards/Chart';
import HistoryScreenshots from './HistoryScreenshots';
import { lineOption, presenceOption, ramShare } from './options';
import { useHistory, type HistoryRange } from './useHistory';
import { feedbackTypeKey } from '../../feedback/feedbackTypes';

const HOUR = 3_600_000;
const PRESETS = { day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR } as const;
type Preset = keyof typeof PRESETS | 'custom';

const time = (at: number) => dayjs(at).format('YYYY-MM-DD HH:mm:ss');

interface ChangeRow {
  key: string;
  at: number;
  what: 'source' | 'power' | 'firmware' | 'app';
  value: string;
}

/** An app change in words: installed, removed, or from one version to another. */
function appChangeWords(
  t: (key: string, values: Record<string, string>) => string,
  c: panelHistory.AppChange,
) {
  const values = { app: c.appName, from: c.from ?? '', to: c.to ?? '' };
  if (c.from === null) return t('panelHistory.appChange.installed', values);
  if (c.to === null) return t('panelHistory.appChange.removed', values);
  return t('panelHistory.appChange.updated', values);
}

/**
 * The device detail's history tab (issue 27 item 5): online and offline over a range with the
 * reasons, the reported state as charts, firmware, source and power changes, the commands and
 * rollouts the panel took part in, its app changes, and the screenshots taken of it.
 */
export default function HistoryTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<Preset>('day');
  const [range, setRange] = useState<HistoryRange>(() => {
    const now = Date.now();
    return [now - PRESETS.day, now];
  });
  const { history, loading, reload } = useHistory(deviceId, range);

  const choose = (value: Preset) => {
    setPreset(value);
    if (value !== 'custom') {
      const now = Date.now();
      setRange([now - PRESETS[value], now]);
    }
  };

  const changes = useMemo<ChangeRow[]>(() => {
    if (!history) return [];
    const rows = (what: ChangeRow['what'], list: Array<{ at: number; value: string }>) =>
      list.map((c, i) => ({ key: `${what}-${i}`, at: c.at, what, value: c.value }));
    return [
      ...rows('source', history.source),
      ...rows('power', history.power),
      ...rows('firmware', history.firmware),
      ...rows(
        'app',
        history.apps.map((c) => ({ at: c.at, value: appChangeWords(t, c) })),
      ),
    ].sort((a, b) => b.at - a.at);
  }, [history, t]);

  return (
    <div data-testid="history-tab">
      <Space wrap style={{ marginBottom: 8 }}>
        <Segmented<Preset>
          data-testid="history-preset"
          value={preset}
          onChange={choose}
          options={(['day', 'week', 'month', 'custom'] as const).map((value) => ({
            value,
            label: t(`panelHistory.preset.${value}`),
          }))}
        />
        {preset === 'custom' && (
          <DatePicker.RangePicker
            data-testid="history-range"
            showTime
            value={[dayjs(range[0]), dayjs(range[1])]}
            onChange={(value) => {
              if (value?.[0] && value[1]) setRange([value[0].valueOf(), value[1].valueOf()]);
            }}
          />
        )}
        <Button size="small" onClick={reload} data-testid="history-refresh">
          {t('panelHistory.refresh')}
        </Button>
      </Space>
      {!history ? (
        <Spin style={{ display: 'block', margin: '40px auto' }} />
      ) : (
        <Spin spinning={loading}>
          <Typography.Text
            type="secondary"
            data-testid="history-resolution"
            data-resolution={history.resolution}
          >
            {t(`panelHistory.resolution.${history.resolution}`)}
          </Typography.Text>
          <HistoryCharts history={history} />
          <Section title={t('panelHistory.presenceChanges')}>
            <Table
              size="small"
              data-testid="history-presence"
              pagination={{ pageSize: 5, size: 'small' }}
              rowKey={(row) => `${row.at}-${row.online ? 1 : 0}`}
              dataSource={[...history.presence].reverse()}
              columns={[
                { title: t('panelHistory.time'), dataIndex: 'at', render: time },
                {
                  title: t('panelHistory.state'),
                  dataIndex: 'online',
                  render: (online: boolean) => (
                    <Tag color={online ? 'green' : 'default'}>
                      {t(online ? 'lists.online' : 'lists.offline')}
                    </Tag>
                  ),
                },
                {
                  title: t('panelHistory.reason'),
                  dataIndex: 'reason',
                  render: (reason: string) => t(`panelHistory.reasons.${reason}`),
                },
              ]}
            />
          </Section>
          <Section title={t('panelHistory.changes')}>
            <Table
              size="small"
              data-testid="history-changes"
              pagination={{ pageSize: 5, size: 'small' }}
              dataSource={changes}
              columns={[
                { title: t('panelHistory.time'), dataIndex: 'at', render: time },
                {
                  title: t('panelHistory.what'),
                  dataIndex: 'what',
                  render: (w: string) => t(`panelHistory.field.${w}`),
                },
                { title: t('panelHistory.value'), dataIndex: 'value' },
              ]}
            />
          </Section>
          <TakenPart history={history} />
        </Spin>
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div style={{ marginTop: 12 }}>
      <Typography.Text strong>{title}</Typography.Text>
      <div style={{ marginTop: 4 }}>{children}</div>
    </div>
  );
}

function HistoryCharts({ history }: { history: panelHistory.PanelHistory }) {
  const { t } = useTranslation();
  const hourly = history.resolution === 'hour';
  const options = useMemo(
    () => ({
      presence: presenceOption(history, { online: t('lists.online'), offline: t('lists.offline') }),
      telemetry: lineOption(
        history,
        [
          { name: t('panelHistory.series.temperature'), points: history.telemetry, value: (p) => p.n1 },
          { name: t('panelHistory.series.ram'), points: history.telemetry, value: ramShare, right: true },
        ],
        ['°C', '%'],
      ),
      picture: lineOption(
        history,
        [
          {
            name: t('panelHistory.series.brightness'),
            points: history.brightness,
            value: (p) => p.n1,
            step: !hourly,
          },
          { name: t('panelHistory.series.volume'), points: history.sound, value: (p) => p.n1, step: !hourly },
        ],
        ['0-100'],
      ),
      network: lineOption(
        history,
        [
          {
            name: t('panelHistory.series.network'),
            points: history.network,
            value: (p) => p.n1,
            step: !hourly,
          },
        ],
        [''],
      ),
    }),
    [history, hourly, t],
  );
  return (
    <>
      <Section title={t('panelHistory.presence')}>
        <Chart option={options.presence} height={90} testId="history-chart-presence" />
      </Section>
      <Section title={t('panelHistory.telemetry')}>
        <Chart option={options.telemetry} height={170} testId="history-chart-telemetry" />
      </Section>
      <Section title={t('panelHistory.picture')}>
        <Chart option={options.picture} height={170} testId="history-chart-picture" />
      </Section>
      <Section title={t('panelHistory.network')}>
        <Chart option={options.network} height={140} testId="history-chart-network" />
      </Section>
    </>
  );
}

/** What the panel took part in: commands, rollouts, and the screenshots taken of it. */
function TakenPart({ history }: { history: panelHistory.PanelHistory }) {
  const { t } = useTranslation();
  return (
    <>
      <Section title={t('panelHistory.commands')}>
        <Table
          size="small"
          data-testid="history-commands"
          rowKey="commandId"
          pagination={{ pageSize: 5, size: 'small' }}
          dataSource={history.commands}
          columns={[
            { title: t('panelHistory.time'), dataIndex: 'createdAt', render: time },
            {
              title: t('panelHistory.order'),
              dataIndex: 'orderCode',
              render: (code: string) => {
                const key = feedbackTypeKey(code);
                return key ? t(key) : code;
              },
            },
            {
              title: t('panelHistory.status'),
              dataIndex: 'status',
              render: (status: string) =>
                t(`panelHistory.commandStatuses.${status}`, { defaultValue: status }),
            },
          ]}
        />
      </Section>
      <Section title={t('panelHistory.rollouts')}>
        <Table
          size="small"
          data-testid="history-rollouts"
          rowKey="taskId"
          pagination={{ pageSize: 5, size: 'small' }}
          dataSource={history.rollouts}
          columns={[
            { title: t('panelHistory.time'), dataIndex: 'createdAt', render: time },
            { title: t('panelHistory.rolloutName'), dataIndex: 'name' },
            {
              title: t('panelHistory.status'),
              dataIndex: 'status',
              render: (state: string) => t(`ota.task.targetStates.${state}`, { defaultValue: state }),
            },
          ]}
        />
      </Section>
      <Section title={t('panelHistory.screenshots')}>
        <HistoryScreenshots shots={history.screenshots} />
      </Section>
    </>
  );
}
