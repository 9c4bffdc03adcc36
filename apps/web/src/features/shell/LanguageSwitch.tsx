import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@panelfleet/contract';
import { usePreferences } from '../../app/Preferences';

export function LanguageSwitch({ color }: { color?: string }) {
  const { t } = useTranslation();
  const { language, setLanguage } = usePreferences();
  const items = LANGUAGES.map((lang) => ({
    key: lang,
    label: <span data-lang={lang}>{t(`languages.${lang}`)}</span>,
  }));
  return (
    <Dropdown
      menu={{
        items,
        selectable: true,
        selectedKeys: [language],
        onClick: ({ key }) => setLanguage(key as Language),
      }}
      placement="bottomRight"
    >
      <Button
        type="text"
        data-testid="lang-switch"
        icon={<GlobalOutlined />}
        style={{ color }}
        title={t('shell.language')}
      >
        {t(`languages.${language}`)}
      </Button>
    </Dropdown>
  );
}
