import { Button, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { alerts, type ViewName } from '@panelfleet/contract';
import { formatDateTime } from '../../../format/dateTime';
import { CONTRACT_NS } from '../../../i18n';
import { homeView } from '../../../paths';
import { SEVERITY_COLORS } from '../words';

type Alert = alerts.Alert;

const STATE_COLORS: Record<alerts.AlertState, string> = {
  active: 'red',
  acknowledged: 'gold',
  cleared: 'green',
};

/** The console page of a subject that is not a panel, if this user may open one. */
export function subjectPath(subject: alerts.AlertSubject, allowed: Set<ViewName>): string | undefined {
  const first = (views: ViewName[]) => views.find((view) => allowed.has(view));
  switch (subject.type) {
    case 'task': {
      if (subject.taskKind === 'program')
        return allowed.has('Broadcast') ? `${homeView('Broadcast')}?tab=program` : undefined;
      const view = first(['renew']);
      return view ? homeView(view) : undefined;
    }
    case 'certificate':
      return allowed.has('certificate') ? homeView('certificate') : undefined;
    case 'licence': {
      const view = first(['license', 'saleMan']);
      return view ? homeView(view) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * What was seen, from the alert's message key and values in the contract's catalogs; a watched
 * value's name (`metric`) is said in words. A key this console does not know shows the kind.
 */
export function detailText(row: Alert, t: TFunction, exists: (key: string) => boolean): string {
  if (!exists(`${CONTRACT_NS}:${row.detailKey}`)) return t(`alerts.kind.${row.kind}`);
  const metric = row.detailVars.metric;
  const vars =
    typeof metric === 'string' && (alerts.ALERT_METRICS as readonly string[]).includes(metric)
      ? { ...row.detailVars, metric: t(`alerts.metric.${metric}`) }
      : row.detailVars;
  return t(row.detailKey, { ns: CONTRACT_NS, ...vars });
}

interface ColumnOptions {
  t: TFunction;
  exists: (key: string) => boolean;
  allowed: Set<ViewName>;
  openDevice(id: number): void;
}

/** The centre's columns: severity, subject (a link), rule, what was seen, raised, acknowledged, cleared. */
export function alertColumns({ t, exists, allowed, openDevice }: ColumnOptions): TableColumnsType<Alert> {
  const subject = (row: Alert) => {
    const { name, deviceKey } = row.subject;
    const text = deviceKey && deviceKey !== name ? `${name} (${deviceKey})` : name;
    if (row.subject.type === 'device') {
      return (
        <Button
          type="link"
          size="small"
          style={{
            padding: 0,
            height: 'auto',
            whiteSpace: 'normal',
            textAlign: 'left',
            overflowWrap: 'anywhere',
          }}
          data-testid="alert-subject"
          onClick={() => openDevice(Number(row.subject.id))}
        >
          {text}
        </Button>
      );
    }
    const path = subjectPath(row.subject, allowed);
    return path ? (
      <Link to={path} data-testid="alert-subject">
        {text}
      </Link>
    ) : (
      <span data-testid="alert-subject">{text}</span>
    );
  };
  return [
    {
      title: t('alerts.column.severity'),
      dataIndex: 'severity',
      width: 110,
      render: (_, row) => (
        <Space direction="vertical" size={2}>
          <Tag color={SEVERITY_COLORS[row.severity]} data-testid="alert-severity">
            {t(`alerts.severity.${row.severity}`)}
          </Tag>
          <Tag color={STATE_COLORS[row.state]} data-testid="alert-state" data-state={row.state}>
            {t(`alerts.state.${row.state}`)}
          </Tag>
        </Space>
      ),
    },
    {
      title: t('alerts.column.subject'),
      key: 'subject',
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          {subject(row)}
          <Typography.Text type="secondary">{row.companyName}</Typography.Text>
        </Space>
      ),
    },
    { title: t('alerts.column.rule'), dataIndex: 'ruleName', ellipsis: true },
    {
      title: t('alerts.column.detail'),
      key: 'detail',
      render: (_, row) => <span data-testid="alert-detail">{detailText(row, t, exists)}</span>,
    },
    {
      title: t('alerts.column.raisedAt'),
      dataIndex: 'raisedAt',
      width: 170,
      render: (_, row) => formatDateTime(row.raisedAt),
    },
    {
      title: t('alerts.column.acknowledged'),
      key: 'acknowledged',
      render: (_, row) =>
        row.acknowledgedAt === null ? (
          ''
        ) : (
          <Space direction="vertical" size={0}>
            <span data-testid="alert-acknowledged-by">{row.acknowledgedBy}</span>
            <Typography.Text type="secondary">{formatDateTime(row.acknowledgedAt)}</Typography.Text>
            {row.note && (
              <Tooltip title={row.note}>
                <Typography.Text ellipsis style={{ maxWidth: 180 }} data-testid="alert-note">
                  {row.note}
                </Typography.Text>
              </Tooltip>
            )}
          </Space>
        ),
    },
    {
      title: t('alerts.column.cleared'),
      key: 'cleared',
      width: 170,
      render: (_, row) =>
        row.clearedAt === null ? (
          ''
        ) : (
          <Space direction="vertical" size={0}>
            <span>{formatDateTime(row.clearedAt)}</span>
            <Typography.Text type="secondary">
              {row.clearedBy ?? t('alerts.clearedAutomatically')}
            </Typography.Text>
          </Space>
        ),
    },
  ];
}
