import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { identity } from '@panelfleet/contract';
import type { z } from 'zod';

type Enrolment = z.infer<typeof identity.enrolment>;

/**
 * Enrolment of an authenticator app: the QR code (made by the server) and the key as text, a
 * code to confirm, then the ten recovery codes shown once. The caller supplies the two calls
 * (personal centre, or the sign-in that requires it).
 */
export function EnrolSteps({
  start,
  confirm,
  onDone,
}: {
  start: () => Promise<Enrolment>;
  confirm: (code: string) => Promise<string[]>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [codes, setCodes] = useState<string[]>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    start().then(setEnrolment, () => undefined);
  }, [start]);

  if (codes)
    return (
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="recovery-codes">
        <Alert
          type="warning"
          showIcon
          title={t('identity.enrol.codesTitle')}
          description={t('identity.enrol.codesPrompt')}
        />
        <pre style={{ columns: 2, fontSize: 15, margin: 0 }}>{codes.join('\n')}</pre>
        <Button type="primary" block onClick={onDone} data-testid="recovery-codes-done">
          {t('identity.enrol.codesDone')}
        </Button>
      </Space>
    );
  if (!enrolment) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} align="center">
      <img
        src={enrolment.qrCode}
        alt={t('identity.enrol.qrAlt')}
        width={200}
        height={200}
        data-testid="enrol-qr"
      />
      <Typography.Text>
        {t('identity.enrol.secret')}:{' '}
        <Typography.Text code copyable data-testid="enrol-secret">
          {enrolment.secret}
        </Typography.Text>
      </Typography.Text>
      <Form
        layout="inline"
        onFinish={({ code }: { code: string }) => {
          setBusy(true);
          confirm(code.trim())
            .then(setCodes, () => undefined)
            .finally(() => setBusy(false));
        }}
      >
        <Form.Item name="code" rules={[{ required: true, message: t('identity.step.code') }]}>
          <Input
            placeholder={t('identity.step.code')}
            maxLength={16}
            autoComplete="one-time-code"
            data-testid="enrol-code"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="enrol-confirm">
          {t('identity.enrol.confirm')}
        </Button>
      </Form>
    </Space>
  );
}
