import { useCallback, useState } from 'react';
import { App, Button, Form, Input, Modal, Space, Switch, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auth, identity } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { SESSION_QUERY_KEY, USER_TYPE_QUERY_KEY } from '../../app/queryClient';
import { EnrolSteps } from './EnrolSteps';

const FACTOR_KEY = [...SESSION_QUERY_KEY, 'secondFactor'] as const;
const POLICY_KEY = [...SESSION_QUERY_KEY, 'secondFactorPolicy'] as const;
/** The user types that set their own organisation's requirement: the platform, a distributor, a company account. */
const POLICY_SETTERS = new Set(['0', '1', '2']);

/** The user's second factor: on or off, set up (QR code, key, recovery codes), turn off with a code; and the organisation's requirement for those who set it. */
export function SecondFactorCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [enrolling, setEnrolling] = useState(false);
  const [removing, setRemoving] = useState(false);
  const state = useQuery({ queryKey: FACTOR_KEY, queryFn: () => call(identity.getSecondFactor, {}) });
  const who = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const setsPolicy = who.data ? POLICY_SETTERS.has(who.data.userType) : false;
  const policy = useQuery({
    queryKey: POLICY_KEY,
    queryFn: () => call(identity.getSecondFactorPolicy, {}),
    enabled: setsPolicy,
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey: FACTOR_KEY });
  const start = useCallback(async () => (await call(identity.startSecondFactor, {})).dataObject, []);
  const confirm = useCallback(
    async (code: string) => (await call(identity.confirmSecondFactor, { code })).dataObject.recoveryCodes,
    [],
  );

  const info = state.data?.dataObject;
  return (
    <Space orientation="vertical" data-testid="second-factor-card">
      {info && (
        <Space wrap>
          <Tag color={info.enrolled ? 'green' : 'default'} data-testid="second-factor-state">
            {t(info.enrolled ? 'identity.factor.on' : 'identity.factor.off')}
          </Tag>
          {info.required === 1 && <Tag color="orange">{t('identity.factor.required')}</Tag>}
          {info.enrolled === 1 && (
            <Typography.Text type="secondary">
              {t('identity.factor.recoveryLeft', { count: info.recoveryLeft })}
            </Typography.Text>
          )}
          {info.enrolled === 0 ? (
            <Button type="primary" onClick={() => setEnrolling(true)} data-testid="second-factor-setup">
              {t('identity.factor.setUp')}
            </Button>
          ) : (
            info.required === 0 && (
              <Button danger onClick={() => setRemoving(true)} data-testid="second-factor-remove">
                {t('identity.factor.turnOff')}
              </Button>
            )
          )}
        </Space>
      )}
      {setsPolicy && policy.data && (
        <Space>
          <Switch
            checked={policy.data.dataObject.required === 1}
            data-testid="second-factor-policy"
            onChange={(on) =>
              call(identity.setSecondFactorPolicy, { required: on ? 1 : 0 }).then((reply) => {
                void message.success(reply.hhtMsg ?? '', NOTICE_SECONDS);
                void queryClient.invalidateQueries({ queryKey: POLICY_KEY });
                reload();
              }, alreadyReported)
            }
          />
          {t('identity.admin.policy')}
        </Space>
      )}
      <Modal
        open={enrolling}
        title={t('identity.step.enrolTitle')}
        footer={null}
        destroyOnHidden
        onCancel={() => {
          setEnrolling(false);
          reload();
        }}
      >
        <EnrolSteps
          start={start}
          confirm={confirm}
          onDone={() => {
            setEnrolling(false);
            reload();
          }}
        />
      </Modal>
      <Modal
        open={removing}
        title={t('identity.factor.turnOff')}
        footer={null}
        destroyOnHidden
        onCancel={() => setRemoving(false)}
      >
        <p>{t('identity.factor.turnOffPrompt')}</p>
        <Form
          layout="inline"
          onFinish={({ code }: { code: string }) =>
            call(identity.removeSecondFactor, { code: code.trim() }).then((reply) => {
              void message.success(reply.hhtMsg ?? '', NOTICE_SECONDS);
              setRemoving(false);
              reload();
            }, alreadyReported)
          }
        >
          <Form.Item name="code" rules={[{ required: true, message: t('identity.step.code') }]}>
            <Input placeholder={t('identity.step.code')} maxLength={16} autoComplete="one-time-code" />
          </Form.Item>
          <Button danger htmlType="submit">
            {t('identity.factor.turnOff')}
          </Button>
        </Form>
      </Modal>
    </Space>
  );
}
