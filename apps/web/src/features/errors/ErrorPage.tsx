import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../paths';

export type ErrorKind = 'page' | 'service' | 'net';

const STATUS = { page: '404', service: '500', net: 'warning' } as const;

export default function ErrorPage({ kind }: { kind: ErrorKind }) {
  const { t } = useTranslation();
  // A full load, so that a console that could not reach the server starts over cleanly.
  const backToLogin = () => window.location.assign(PATHS.login);
  return (
    <div
      data-error={kind}
      style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Result
        status={STATUS[kind]}
        title={t(`errors.${kind}.title`)}
        subTitle={t(`errors.${kind}.hint`)}
        extra={
          <Button type="primary" data-testid="back-to-login" onClick={backToLogin}>
            {t('common.backToLogin')}
          </Button>
        }
      />
    </div>
  );
}
