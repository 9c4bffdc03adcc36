import { useState } from 'react';
import { Button, Card, Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { dashboard } from '@panelfleet/contract';
import { Chart } from './Chart';
import { NoData } from './NoData';

/** The OTA version pie of the first 6 versions; More>> lists every version with its panel count. */
export function OtaVersionsCard({ data }: { data: dashboard.DashboardData }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const label = (name: string) => name || t('dashboard.noVersion');
  const first = data.otaVersionToTotal.slice(0, dashboard.DASHBOARD.otaPieVersions);
  return (
    <Card
      size="small"
      title={t('dashboard.otaVersions')}
      extra={
        <Button type="link" size="small" onClick={() => setOpen(true)} data-testid="ota-more">
          {t('dashboard.more')}
        </Button>
      }
    >
      {!first.length ? (
        <NoData testId="chart-ota-versions" height={260} text={t('dashboard.noVersions')} />
      ) : (
        <Chart
          testId="chart-ota-versions"
          height={260}
          option={{
            tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
            legend: { bottom: 0, type: 'scroll' },
            series: [
              {
                type: 'pie',
                radius: ['30%', '55%'],
                label: { width: 90, overflow: 'break' },
                center: ['50%', '45%'],
                data: first.map((v) => ({ name: label(v.name), value: v.value })),
              },
            ],
          }}
        />
      )}
      <Modal
        title={t('dashboard.otaVersions')}
        open={open}
        onCancel={() => setOpen(false)}
        footer={null}
        width={600}
        modalRender={(node) => <div data-testid="ota-versions-modal">{node}</div>}
      >
        <Table
          size="small"
          rowKey="name"
          pagination={{ pageSizeOptions: [5, 10, 20, 30, 50], defaultPageSize: 10 }}
          dataSource={data.otaVersionToTotal}
          columns={[
            { title: t('dashboard.version'), dataIndex: 'name', render: (name: string) => label(name) },
            { title: t('dashboard.panels'), dataIndex: 'value', width: 120 },
          ]}
        />
      </Modal>
    </Card>
  );
}
