import { lazy, Suspense, useState } from 'react';
import { Button, Layout } from 'antd';
import { BgColorsOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../../app/Preferences';
import { FullscreenToggle } from './FullscreenToggle';
import { LanguageSwitch } from './LanguageSwitch';
import { SkinModal } from './SkinModal';
import { UserMenu } from './UserMenu';

// The bell and its live subscription load after the first screen (issue 26).
const AlertBell = lazy(() => import('../alerts/AlertBell'));

const ON_ACCENT = '#fff';

export function AppHeader({
  collapsed,
  onToggle,
  userName,
}: {
  collapsed: boolean;
  onToggle: () => void;
  userName: string;
}) {
  const { t } = useTranslation();
  const { skin } = usePreferences();
  const [skinOpen, setSkinOpen] = useState(false);
  return (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '0 16px',
        height: 56,
        lineHeight: '56px',
        background: skin.color,
      }}
    >
      <Button
        type="text"
        data-testid="collapse-toggle"
        aria-expanded={!collapsed}
        title={t(collapsed ? 'shell.expand' : 'shell.collapse')}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
        style={{ color: ON_ACCENT, fontSize: 18 }}
      />
      <div style={{ flex: 1 }} />
      <Suspense fallback={null}>
        <AlertBell color={ON_ACCENT} />
      </Suspense>
      <FullscreenToggle color={ON_ACCENT} />
      <LanguageSwitch color={ON_ACCENT} />
      <Button
        type="text"
        data-testid="skin-button"
        title={t('shell.skin')}
        icon={<BgColorsOutlined />}
        onClick={() => setSkinOpen(true)}
        style={{ color: ON_ACCENT }}
      />
      <UserMenu userName={userName} color={ON_ACCENT} />
      <SkinModal open={skinOpen} onClose={() => setSkinOpen(false)} />
    </Layout.Header>
  );
}
