import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { NetSpeedFrame } from './NetSpeedFrame';

export default function NetSpeedView() {
  const { t } = useTranslation();
  return (
    <Card title={t('views.netSpeed')} styles={{ body: { padding: 0 } }}>
      <NetSpeedFrame height="calc(100vh - 220px)" />
    </Card>
  );
}
