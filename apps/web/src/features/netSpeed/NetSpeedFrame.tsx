import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../app/RuntimeConfig';

/** The configured speed-test address embedded; a notice when none is configured. */
export function NetSpeedFrame({ height }: { height: string }) {
  const { t } = useTranslation();
  const { netSpeedUrl } = useRuntimeConfig();
  if (!netSpeedUrl)
    return (
      <Empty
        data-testid="net-speed-unset"
        description={t('netSpeed.notConfigured')}
        style={{ padding: 48 }}
      />
    );
  return (
    <iframe
      data-testid="net-speed-frame"
      title={t('views.netSpeed')}
      src={netSpeedUrl}
      style={{ width: '100%', height, border: 0 }}
    />
  );
}
