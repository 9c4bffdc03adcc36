import { Button, Card, Tabs } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { reports } from '@panelfleet/contract';
import { ReportPanel } from './ReportPanel';

/**
 * The report screen (view report, spec 3 section 2.7): four tabs, the last three rendered on
 * their first click (antd renders an inactive tab only once it was opened); the command
 * feedback log is one click away.
 */
export default function ReportView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card
      title={t('report.title')}
      extra={
        <Button
          icon={<MessageOutlined />}
          onClick={() => void navigate('/home/feedBack')}
          data-testid="report-feedback"
        >
          {t('views.feedBack')}
        </Button>
      }
    >
      <Tabs
        data-testid="report-tabs"
        items={reports.REPORT_KINDS.map((kind) => ({
          key: kind,
          label: t(`report.tabs.${kind}`),
          children: <ReportPanel kind={kind} />,
        }))}
      />
    </Card>
  );
}
