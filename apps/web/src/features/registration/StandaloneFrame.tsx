import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../../app/Preferences';
import { PATHS } from '../../paths';
import { LanguageSwitch } from '../shell/LanguageSwitch';
import { Logo } from '../shell/Logo';

interface StandaloneFrameProps {
  page: string;
  title: string;
  width?: number;
  children: ReactNode;
}

/** The frame of the pages outside the shell: the sign-in background, language switch and a card. */
export function StandaloneFrame({ page, title, width = 480, children }: StandaloneFrameProps) {
  const { skin } = usePreferences();
  return (
    <div
      data-page={page}
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: `linear-gradient(135deg, ${skin.color} 0%, #0b1a33 100%)`,
      }}
    >
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: '12px 24px' }}>
        <LanguageSwitch color="#fff" />
      </div>
      <div
        style={{
          flex: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          padding: '0 16px 48px',
        }}
      >
        <Card style={{ width, maxWidth: '100%' }}>
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 12,
              marginBottom: 24,
            }}
          >
            <Logo size={32} color={skin.color} />
            <Typography.Title level={4} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
          </div>
          {children}
        </Card>
      </div>
    </div>
  );
}

export function SignInLink() {
  const { t } = useTranslation();
  return (
    <Link to={PATHS.login} data-testid="sign-in-link">
      {t('common.backToLogin')}
    </Link>
  );
}
