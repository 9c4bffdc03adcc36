import { useState } from 'react';
import { App, Button, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiTokens, auth, device, mayCall, type apiTokens as contract } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { USER_TYPE_QUERY_KEY } from '../../../app/queryClient';
import { useRuntimeConfig } from '../../../app/RuntimeConfig';
import { formatDateTime } from '../../../format/dateTime';
import { CreateTokenModal } from './CreateTokenModal';
import { useApiTokens } from './useApiTokens';

const STATE_COLOR: Record<contract.ApiTokenView['state'], string> = {
  active: 'green',
  expired: 'default',
  revoked: 'red',
  ended: 'orange',
};

/** The personal centre's API tokens: list, make (shown once), revoke. */
export function ApiTokensSection() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { tokens, loading, reload } = useApiTokens();
  const [creating, setCreating] = useState(false);
  const config = useRuntimeConfig();
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const user = session.data;
  // Labels are offered to whoever the contract lets read them (the company's operators).
  const withLabels =
    user !== undefined &&
    mayCall(
      device.listGroups.access,
      { userType: user.userType, activated: user.state, programRole: 0 },
      config.roleFlag === 1,
    );

  const revoke = async (id: number) => {
    try {
      const reply = await call(apiTokens.revokeToken, { id });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      void reload();
    } catch (error) {
      alreadyReported(error);
    }
  };

  return (
    <div data-testid="api-tokens">
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Text type="secondary">{t('apiTokens.intro')}</Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="api-token-new"
        >
          {t('apiTokens.new')}
        </Button>
        <Typography.Link
          href="/api-reference"
          target="_blank"
          rel="noopener"
          data-testid="api-reference-link"
        >
          {t('apiTokens.reference')}
        </Typography.Link>
      </Space>
      <Table<contract.ApiTokenView>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={tokens}
        pagination={false}
        locale={{ emptyText: t('apiTokens.none') }}
        columns={[
          {
            title: t('apiTokens.name'),
            dataIndex: 'name',
            render: (name: string, row) => (
              <Space>
                <KeyOutlined />
                <span data-testid="api-token-row-name">{name}</span>
                <Typography.Text type="secondary" code>{`${row.hint}…`}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('apiTokens.scope'),
            dataIndex: 'scope',
            render: (s: string) => t(`apiTokens.scopes.${s}`),
          },
          {
            title: t('apiTokens.labels'),
            dataIndex: 'labelNames',
            render: (names: string[]) =>
              names.length ? names.map((n) => <Tag key={n}>{n}</Tag>) : t('apiTokens.allPanels'),
          },
          {
            title: t('apiTokens.expiry'),
            dataIndex: 'expiresAt',
            render: (at: number | null) => (at ? formatDateTime(at) : t('apiTokens.never')),
          },
          {
            title: t('apiTokens.lastUsed'),
            render: (_, row) =>
              row.lastUsedAt
                ? `${formatDateTime(row.lastUsedAt)} (${row.lastUsedIp ?? ''})`
                : t('apiTokens.unused'),
          },
          {
            title: t('apiTokens.state'),
            dataIndex: 'state',
            render: (state: contract.ApiTokenView['state']) => (
              <Tag color={STATE_COLOR[state]} data-testid="api-token-state">
                {t(`apiTokens.states.${state}`)}
              </Tag>
            ),
          },
          {
            title: t('apiTokens.actions'),
            render: (_, row) =>
              row.state === 'revoked' ? null : (
                <Popconfirm
                  title={t('apiTokens.revokeConfirm', { name: row.name })}
                  onConfirm={() => revoke(row.id)}
                  okButtonProps={{ 'data-testid': 'api-token-revoke-ok' } as never}
                >
                  <Button size="small" danger data-testid="api-token-revoke">
                    {t('apiTokens.revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <CreateTokenModal
        open={creating}
        withLabels={withLabels}
        onClose={() => setCreating(false)}
        onMade={() => void reload()}
      />
    </div>
  );
}
