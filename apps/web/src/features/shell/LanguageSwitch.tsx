import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../../app/Preferences';

const LanguageMenu = lazy(() => import('./LanguageMenu'));

/** The language switch: a button whose menu (LanguageMenu) loads when the user first reaches for it. */
export function LanguageSwitch({ color }: { color?: string }) {
  const { t } = useTranslation();
  const { language } = usePreferences();
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  const button = (
    <Button
      type="text"
      data-testid="lang-switch"
      icon={<GlobalOutlined />}
      style={{ color }}
      title={t('shell.language')}
      onMouseEnter={want}
      onFocus={want}
      onClick={want}
    >
      {t(`languages.${language}`)}
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu button={button} open />
    </Suspense>
  );
}
