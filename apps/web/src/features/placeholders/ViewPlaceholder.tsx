import { Button, Card, Divider, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../paths';

/** A screen still to come; the built screens it will host as tabs are reachable from here meanwhile. */
export default function ViewPlaceholder({
  view,
  subViews = [],
}: {
  view: ViewName;
  subViews?: readonly ViewName[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card title={t(`views.${view}`)}>
      <Typography.Text type="secondary">{t('shell.laterRelease')}</Typography.Text>
      {subViews.length > 0 && (
        <>
          <Divider titlePlacement="start" plain>
            {t('subViews.title')}
          </Divider>
          <Space wrap data-testid="placeholder-sub-views">
            {subViews.map((sub) => (
              <Button key={sub} data-testid={`sub-view-${sub}`} onClick={() => void navigate(homeView(sub))}>
                {t(`views.${sub}`)}
              </Button>
            ))}
          </Space>
        </>
      )}
    </Card>
  );
}
