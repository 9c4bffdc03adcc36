import { Badge, Button } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { homeView } from '../../paths';
import { useAlertAccess } from './useAlertAccess';
import { useAlertCounts } from './useAlertCounts';
import { bellColor } from './bellColor';

/**
 * The header's bell (issue 26): the number of active alerts of the user's scope, coloured by the
 * most urgent of them, kept current by the live stream; a click opens the notification centre.
 */
export default function AlertBell({ color }: { color: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { allowed } = useAlertAccess();
  const shown = allowed.has('alerts');
  const counts = useAlertCounts(shown);
  if (!shown) return null;
  const active = counts.data?.active ?? 0;
  const label = t('shell.alertBell', { count: active });
  return (
    <Badge
      count={active}
      overflowCount={999}
      size="small"
      offset={[-6, 10]}
      color={bellColor(counts.data?.bySeverity ?? {})}
    >
      <Button
        type="text"
        data-testid="alert-bell"
        data-count={active}
        title={label}
        aria-label={label}
        icon={<BellOutlined />}
        onClick={() => void navigate(homeView('alerts'))}
        style={{ color }}
      />
    </Badge>
  );
}
