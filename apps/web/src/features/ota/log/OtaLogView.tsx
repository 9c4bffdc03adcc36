import { Card, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../../paths';
import AbnormalLogView, { AbnormalLogPanel } from '../../logs/AbnormalLogView';
import { useOtaAccess } from '../manage/useOtaAccess';
import { OtaLogPanel } from './OtaLogPanel';

/**
 * Views `otaLog` and `abnormalLog` (spec 3 section 2.8): the OTA log, with the abnormal log as
 * a second tab unless the role flag is "1". A user whose menu has the abnormal log but not the
 * OTA log (type 3) gets the abnormal log alone.
 */
export default function OtaLogView({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { allowed } = useOtaAccess();
  if (!allowed.has('otaLog')) return <AbnormalLogView />;
  const abnormal = allowed.has('abnormalLog');
  return (
    <Card title={t('views.otaLog')}>
      <Tabs
        activeKey={view === 'abnormalLog' && abnormal ? 'abnormalLog' : 'otaLog'}
        onChange={(key) => void navigate(homeView(key))}
        destroyOnHidden
        items={[
          {
            key: 'otaLog',
            label: <span data-testid="tab-ota-log">{t('views.otaLog')}</span>,
            children: <OtaLogPanel />,
          },
          ...(abnormal
            ? [
                {
                  key: 'abnormalLog',
                  label: <span data-testid="tab-abnormal-log">{t('views.abnormalLog')}</span>,
                  children: <AbnormalLogPanel />,
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
