import { useCallback, useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { identity } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';
import { CONTRACT_NS } from '../../i18n';
import { EnrolSteps } from './EnrolSteps';

/**
 * The sign-in's second step, loaded only when the password step asks for it: the authenticator
 * (or a recovery) code, or the enrolment the organisation requires. The step cookie the password
 * step set names the sign-in; no session exists until this step passes.
 */
export default function SecondStep({
  step,
  onSignedIn,
  onBack,
}: {
  step: 'secondFactor' | 'enrol';
  onSignedIn: (programRole: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [programRole, setProgramRole] = useState<string>();

  const quietly = async <T,>(work: () => Promise<T>): Promise<T> => {
    setRefusal(undefined);
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'fail') setRefusal(error);
      throw error;
    }
  };
  const start = useCallback(
    () => quietly(async () => (await call(identity.signInEnrolStart, {}, { quietFail: true })).dataObject),
    [],
  );
  const confirm = useCallback(
    (code: string) =>
      quietly(async () => {
        const reply = await call(identity.signInEnrolConfirm, { code }, { quietFail: true });
        setProgramRole(reply.program_role);
        return reply.recoveryCodes;
      }),
    [],
  );

  const submitCode = ({ code }: { code: string }) => {
    setBusy(true);
    quietly(() => call(identity.signInCode, { code: code.trim() }, { quietFail: true }))
      .then(
        (reply) => onSignedIn(reply.program_role),
        () => undefined,
      )
      .finally(() => setBusy(false));
  };

  return (
    <div data-testid="second-step">
      <h4 style={{ marginTop: 0 }}>
        {t(step === 'enrol' ? 'identity.step.enrolTitle' : 'identity.step.title')}
      </h4>
      <p>{t(step === 'enrol' ? 'identity.step.enrolPrompt' : 'identity.step.codePrompt')}</p>
      {step === 'enrol' ? (
        <EnrolSteps start={start} confirm={confirm} onDone={() => onSignedIn(programRole ?? '0')} />
      ) : (
        <Form size="large" onFinish={submitCode}>
          <Form.Item name="code" rules={[{ required: true, message: t('identity.step.code') }]}>
            <Input
              placeholder={t('identity.step.code')}
              maxLength={16}
              autoComplete="one-time-code"
              autoFocus
              data-testid="second-step-code"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="second-step-submit">
            {t('identity.step.verify')}
          </Button>
        </Form>
      )}
      {refusal && (
        <Alert
          type="error"
          showIcon
          data-testid="second-step-refusal"
          style={{ marginTop: 16 }}
          title={
            refusal.catalogMessage
              ? t(refusal.catalogMessage.key, { ns: CONTRACT_NS, ...refusal.catalogMessage.vars })
              : refusal.hhtMsg
          }
        />
      )}
      <Button type="link" onClick={onBack} style={{ paddingLeft: 0, marginTop: 8 }}>
        {t('identity.step.back')}
      </Button>
    </div>
  );
}
