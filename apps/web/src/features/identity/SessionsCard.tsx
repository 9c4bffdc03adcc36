import { Button, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { identity } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { useConfirmAction } from '../../lists/useConfirmAction';

const SESSIONS_KEY = [...SESSION_QUERY_KEY, 'personalSessions'] as const;

/** The user's sessions: browser, address, started, last seen, how signed in; end one or every other. */
export function SessionsCard() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => call(identity.listSessions, {}) });
  const reload = () => void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
  const rows = sessions.data?.listObject ?? [];

  const methodText = (method: string) => {
    const key = `identity.sessions.methods.${method}`;
    const text = t(key);
    return text === key ? method : text;
  };
  const columns: TableColumnsType<identity.SessionRow> = [
    {
      title: t('identity.sessions.browser'),
      dataIndex: 'browser',
      render: (_, row) => (
        <>
          {row.browser} {row.current === 1 && <Tag color="blue">{t('identity.sessions.current')}</Tag>}
        </>
      ),
    },
    { title: t('identity.sessions.ip'), dataIndex: 'ip', width: 140 },
    {
      title: t('identity.sessions.startedAt'),
      dataIndex: 'startedAt',
      width: 170,
      render: (v: number) => formatDateTime(v),
    },
    {
      title: t('identity.sessions.lastSeenAt'),
      dataIndex: 'lastSeenAt',
      width: 170,
      render: (v: number) => formatDateTime(v),
    },
    {
      title: t('identity.sessions.method'),
      dataIndex: 'method',
      width: 200,
      render: (v: string) => methodText(v),
    },
    {
      title: '',
      key: 'end',
      width: 90,
      render: (_, row) =>
        row.current === 1 ? null : (
          <Button
            size="small"
            danger
            data-testid="session-end"
            onClick={() =>
              confirm(
                t('identity.sessions.endConfirm'),
                () => call(identity.endSession, { ref: row.ref }),
                reload,
              )
            }
          >
            {t('identity.sessions.end')}
          </Button>
        ),
    },
  ];

  return (
    <div data-testid="sessions-card">
      <Table<identity.SessionRow>
        rowKey="ref"
        size="small"
        pagination={false}
        loading={sessions.isLoading}
        columns={columns}
        dataSource={rows}
      />
      <Button
        style={{ marginTop: 12 }}
        disabled={rows.length < 2}
        data-testid="sessions-end-others"
        onClick={() =>
          confirm(t('identity.sessions.endOthersConfirm'), () => call(identity.endOtherSessions, {}), reload)
        }
      >
        {t('identity.sessions.endOthers')}
      </Button>
    </div>
  );
}
