import { Card, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../paths';
import type { PlaceholderPage } from './pages';

export default function PagePlaceholder({ page }: { page: PlaceholderPage }) {
  const { t } = useTranslation();
  return (
    <div data-page={page} style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5' }}>
      <Card title={t(`pages.${page}`)} style={{ width: 480 }}>
        <Typography.Paragraph>{t('shell.laterRelease')}</Typography.Paragraph>
        <Link to={PATHS.login}>{t('common.backToLogin')}</Link>
      </Card>
    </div>
  );
}
