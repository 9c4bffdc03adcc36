import { Card, Col, Row, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { dashboard } from '@panelfleet/contract';
import { Chart } from './Chart';
import { Counters } from './Counters';
import { diskGb, hasData, memoryGb, percent, slicesOf, slotLabels, slotValues, topWithOther } from './format';
import { gaugeOption } from './gauges';
import { NoData } from './NoData';
import { OtaVersionsCard } from './OtaVersionsCard';
import { RegionMapCard } from './RegionMapCard';
import { useDashboard, useHistory } from './useDashboard';

const DEVICE_DAYS = 14;
const USER_HOURS = 24;
const PIE_SLICES = 8;

/**
 * Dashboard B (view index1: a distributor's staff and a customer manager, types 1 and 3, and the
 * platform admin): counters; disk, memory and CPU gauges (the server host's for the platform
 * admin, the panels' own for everyone else); panels over the last days; the maps; users online
 * per hour; the weekly line of OTA-upgraded panels; panels per customer (or per machine type for
 * one company); the OTA version pie with More>>.
 */
export default function DashboardB() {
  const { t } = useTranslation();
  const { data } = useDashboard();
  const devices = useHistory('day', DEVICE_DAYS);
  const users = useHistory('hour', USER_HOURS);
  if (!data) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  const info = data.systemInfo;
  const host = info.source === 'host';
  const memoryPct = info.memory !== null && info.memoryTotal ? percent(info.memory, info.memoryTotal) : null;
  const diskPct = info.disk !== null && info.diskTotal ? percent(info.disk, info.diskTotal) : null;
  const gauges = [
    {
      key: 'disk',
      title: t('dashboard.disk'),
      value: diskPct,
      option: gaugeOption(diskPct, 100, '%', t('dashboard.diskName')),
      note:
        info.disk !== null && info.diskTotal !== null
          ? t('dashboard.ofGb', {
              used: diskGb(info.disk).toFixed(1),
              total: diskGb(info.diskTotal).toFixed(1),
            })
          : t('dashboard.diskNotReported'),
    },
    {
      key: 'memory',
      title: t('dashboard.memory'),
      value: memoryPct,
      option: gaugeOption(memoryPct, 100, '%', t('dashboard.memoryName')),
      note:
        info.memory !== null && info.memoryTotal !== null
          ? t('dashboard.ofGb', {
              used: memoryGb(info.memory, data.kilobyte).toFixed(1),
              total: memoryGb(info.memoryTotal, data.kilobyte).toFixed(1),
            })
          : t('dashboard.notMeasured'),
    },
    {
      key: 'cpu',
      title: host ? t('dashboard.cpuLoad') : t('dashboard.cpuTemperature'),
      value: info.cpu,
      option: gaugeOption(
        info.cpu,
        100,
        host ? '%' : '°C',
        host ? t('dashboard.cpuName') : t('dashboard.cpuTempName'),
      ),
      note: info.cpu === null ? t('dashboard.notMeasured') : '',
    },
  ];
  const multi = data.scope !== 'company';
  const pie = multi
    ? topWithOther(
        data.listObject.map((c) => ({ name: c.name, value: c.value })),
        PIE_SLICES,
        t('dashboard.otherCustomers'),
      )
    : data.machineTypeToTotal.map((m) => ({ name: m.name || t('dashboard.unknownType'), value: m.value }));
  const slices = slicesOf(pie);
  const slots = (series: typeof devices.data, value: (p: dashboard.HistoryPoint) => number | null) =>
    series ? slotValues(series.points, series.start, series.step, series.count, value) : [];
  const panelTotals = slots(devices.data, (p) => p.deviceTotal);
  const onlinePeaks = slots(devices.data, (p) => p.onlineDevices);
  const usersOnline = slots(users.data, (p) => p.onlineUsers);
  const upgrades = data.weekUpgradeDevice.map((w) => w.total);
  return (
    <div data-testid="dashboard-b" data-scope={data.scope}>
      <Counters data={data} />
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        {gauges.map((g) => (
          <Col span={5} key={g.key}>
            <Card
              size="small"
              title={g.title}
              extra={
                <Typography.Text type="secondary">
                  {host ? t('dashboard.host') : t('dashboard.fleet')}
                </Typography.Text>
              }
            >
              {g.value === null ? (
                <NoData testId={`gauge-${g.key}`} height={200} text={t('dashboard.noData')} />
              ) : (
                <Chart testId={`gauge-${g.key}`} height={200} option={g.option} />
              )}
              <Typography.Text
                type="secondary"
                style={{ display: 'block', textAlign: 'center', minHeight: 22 }}
              >
                {g.note}
              </Typography.Text>
            </Card>
          </Col>
        ))}
        <Col span={9}>
          <Card size="small" title={t('dashboard.deviceLine', { days: DEVICE_DAYS })}>
            {devices.data && !hasData(panelTotals) ? (
              <NoData testId="chart-device-line" height={222} text={t('dashboard.noHistory')} />
            ) : devices.data ? (
              <Chart
                testId="chart-device-line"
                height={222}
                option={{
                  tooltip: { trigger: 'axis' },
                  legend: { top: 0 },
                  grid: { left: 40, right: 16, top: 32, bottom: 24 },
                  xAxis: {
                    type: 'category',
                    data: slotLabels(devices.data.start, devices.data.step, devices.data.count),
                  },
                  yAxis: { type: 'value', minInterval: 1 },
                  series: [
                    {
                      name: t('dashboard.deviceTotal'),
                      type: 'line',
                      // A lone known day (sampling began today) is a dot, not an invisible line.
                      showAllSymbol: true,
                      symbolSize: 6,
                      data: panelTotals,
                    },
                    {
                      name: t('dashboard.onlinePeak'),
                      type: 'line',
                      areaStyle: { opacity: 0.15 },
                      showAllSymbol: true,
                      symbolSize: 6,
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
          <RegionMapCard data={data} height={320} />
        </Col>
        <Col span={10}>
          <Card size="small" title={t('dashboard.onlineUsers', { hours: USER_HOURS })}>
            {users.data && !hasData(usersOnline) ? (
              <NoData testId="chart-online-users" height={352} text={t('dashboard.noUsersOnline')} />
            ) : users.data ? (
              <Chart
                testId="chart-online-users"
                height={352}
                option={{
                  tooltip: { trigger: 'axis' },
                  grid: { left: 40, right: 16, top: 24, bottom: 28 },
                  xAxis: {
                    type: 'category',
                    data: slotLabels(users.data.start, users.data.step, users.data.count),
                  },
                  yAxis: { type: 'value', minInterval: 1 },
                  series: [
                    {
                      name: t('dashboard.activeUserTotal'),
                      type: 'bar',
                      itemStyle: { color: '#722ed1' },
                      data: usersOnline,
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
        <Col span={9}>
          <Card size="small" title={t('dashboard.weekUpgrades')}>
            {!hasData(upgrades) ? (
              <NoData testId="chart-week-upgrades" height={260} text={t('dashboard.noUpgrades')} />
            ) : (
              <Chart
                testId="chart-week-upgrades"
                height={260}
                option={{
                  tooltip: { trigger: 'axis' },
                  grid: { left: 40, right: 16, top: 24, bottom: 28 },
                  xAxis: { type: 'category', data: data.weekUpgradeDevice.map((w) => w.createDate.slice(5)) },
                  yAxis: { type: 'value', minInterval: 1 },
                  series: [
                    {
                      name: t('dashboard.upgradedPanels'),
                      type: 'line',
                      smooth: true,
                      data: upgrades,
                    },
                  ],
                }}
              />
            )}
          </Card>
        </Col>
        <Col span={7}>
          <Card size="small" title={multi ? t('dashboard.customersPie') : t('dashboard.devicesPie')}>
            {!slices.length ? (
              <NoData testId="chart-customers-pie" height={260} text={t('dashboard.noPanels')} />
            ) : (
              <Chart
                testId="chart-customers-pie"
                height={260}
                option={{
                  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
                  legend: { bottom: 0, type: 'scroll' },
                  series: [
                    {
                      type: 'pie',
                      radius: '55%',
                      center: ['50%', '45%'],
                      label: { width: 90, overflow: 'break' },
                      data: slices,
                    },
                  ],
                }}
              />
            )}
          </Card>
        </Col>
        <Col span={8}>
          <OtaVersionsCard data={data} />
        </Col>
      </Row>
    </div>
  );
}
