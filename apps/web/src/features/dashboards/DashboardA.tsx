import { Card, Col, Row, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { dashboard } from '@panelfleet/contract';
import { Chart } from './Chart';
import { Counters } from './Counters';
import { hasData, percent, slicesOf, slotLabels, slotValues } from './format';
import { gaugeOption } from './gauges';
import { NoData } from './NoData';
import { RegionMapCard } from './RegionMapCard';
import { useDashboard, useHistory } from './useDashboard';

const USAGE_DAYS = 14;

/**
 * Dashboard A (view index2: the company account and its administrators, types 2 and 4): device
 * and user information of the company. Counters, online rate, daily usage (screen-on hours the
 * panels reported), the China/World map, offline panels by days, users and panels pies.
 */
export default function DashboardA() {
  const { t } = useTranslation();
  const { data } = useDashboard();
  const history = useHistory('day', USAGE_DAYS);
  if (!data) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  const rate = percent(data.activeDeviceTotal, data.deviceTotal);
  const usage = history.data;
  const slots = (value: (p: dashboard.HistoryPoint) => number | null) =>
    usage ? slotValues(usage.points, usage.start, usage.step, usage.count, value) : [];
  const screenHours = slots((p) => Math.round((p.screenOnMs / 3_600_000) * 10) / 10);
  const onlinePeaks = slots((p) => p.onlineDevices);
  const users = slicesOf([
    { name: t('dashboard.usersOnline'), value: data.activeUserTotal },
    { name: t('dashboard.usersOffline'), value: data.userTotal - data.activeUserTotal },
  ]);
  const types = slicesOf(
    data.machineTypeToTotal.map((m) => ({ name: m.name || t('dashboard.unknownType'), value: m.value })),
  );
  const offline = data.offlineDays.map((o) => o.value);
  return (
    <div data-testid="dashboard-a" data-scope={data.scope}>
      <Counters data={data} />
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col span={8}>
          <Card size="small" title={t('dashboard.onlineRate')}>
            {data.deviceTotal === 0 ? (
              <NoData testId="chart-online-rate" height={260} text={t('dashboard.gaugeNoPanels')} />
            ) : (
              <Chart
                testId="chart-online-rate"
                height={260}
                option={gaugeOption(rate, 100, '%', t('dashboard.onlineRateName'))}
              />
            )}
          </Card>
        </Col>
        <Col span={16}>
          <Card size="small" title={t('dashboard.usage', { days: USAGE_DAYS })}>
            {usage && !hasData(screenHours) && !hasData(onlinePeaks) ? (
              <NoData testId="chart-usage" height={260} text={t('dashboard.noUsage')} />
            ) : usage ? (
              <Chart
                testId="chart-usage"
                height={260}
                option={{
                  tooltip: { trigger: 'axis' },
                  legend: { top: 0 },
                  grid: { left: 48, right: 48, top: 36, bottom: 28 },
                  xAxis: { type: 'category', data: slotLabels(usage.start, usage.step, usage.count) },
                  yAxis: [
                    { type: 'value', name: t('dashboard.hours'), minInterval: 1 },
                    { type: 'value', name: t('dashboard.panels'), minInterval: 1 },
                  ],
                  series: [
                    {
                      name: t('dashboard.screenOnHours'),
                      type: 'line',
                      smooth: true,
                      areaStyle: { opacity: 0.15 },
                      data: screenHours,
                    },
                    {
                      name: t('dashboard.onlinePeak'),
                      type: 'line',
                      yAxisIndex: 1,
                      // Not sampled before the history began: a gap, not a fall to 0.
                      connectNulls: false,
                      data: onlinePeaks,
                    },
                  ],
                }}
              />
            ) : (
              <Spin />
            )}
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col span={14}>
          <RegionMapCard data={data} />
        </Col>
        <Col span={10}>
          <Card size="small" title={t('dashboard.offlineDays')}>
            {!hasData(offline) ? (
              <NoData
                testId="chart-offline-days"
                height={392}
                text={data.deviceTotal === 0 ? t('dashboard.noPanels') : t('dashboard.noOffline')}
              />
            ) : (
              <Chart
                testId="chart-offline-days"
                height={392}
                option={{
                  tooltip: { trigger: 'axis' },
                  grid: { left: 48, right: 16, top: 24, bottom: 48 },
                  xAxis: {
                    type: 'category',
                    axisLabel: { interval: 0, rotate: 20 },
                    data: dashboard.OFFLINE_BUCKETS.map((b) => t(`dashboard.bucket.${b}`)),
                  },
                  yAxis: { type: 'value', minInterval: 1, name: t('dashboard.panels') },
                  series: [
                    {
                      type: 'bar',
                      name: t('dashboard.offlinePanels'),
                      barWidth: '50%',
                      itemStyle: { color: '#fa8c16' },
                      data: offline,
                    },
                  ],
                }}
              />
            )}
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col span={12}>
          <Card size="small" title={t('dashboard.usersPie')}>
            {!users.length ? (
              <NoData testId="chart-users-pie" height={260} text={t('dashboard.noUsers')} />
            ) : (
              <Chart
                testId="chart-users-pie"
                height={260}
                option={{
                  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
                  legend: { bottom: 0 },
                  color: ['#52c41a', '#bfbfbf'],
                  series: [
                    {
                      type: 'pie',
                      radius: ['30%', '55%'],
                      label: { width: 90, overflow: 'break' },
                      center: ['50%', '45%'],
                      data: users,
                    },
                  ],
                }}
              />
            )}
          </Card>
        </Col>
        <Col span={12}>
          <Card size="small" title={t('dashboard.devicesPie')}>
            {!types.length ? (
              <NoData testId="chart-devices-pie" height={260} text={t('dashboard.noPanels')} />
            ) : (
              <Chart
                testId="chart-devices-pie"
                height={260}
                option={{
                  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
                  legend: { bottom: 0 },
                  series: [
                    {
                      type: 'pie',
                      radius: ['30%', '55%'],
                      label: { width: 90, overflow: 'break' },
                      center: ['50%', '45%'],
                      data: types,
                    },
                  ],
                }}
              />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
