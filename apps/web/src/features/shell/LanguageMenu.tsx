import { useState, type ReactElement } from 'react';
import { Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@panelfleet/contract';
import { usePreferences } from '../../app/Preferences';

/**
 * The language menu around the switch's button. A chunk of its own (with antd's Dropdown and
 * Menu), loaded when the pointer or the focus first reaches the button, so the sign-in page does
 * not wait for it; it opens at once then, since the hover that loaded it is already over.
 */
export default function LanguageMenu({ button, open: openFirst }: { button: ReactElement; open: boolean }) {
  const { t } = useTranslation();
  const { language, setLanguage } = usePreferences();
  const [open, setOpen] = useState(openFirst);
  const items = LANGUAGES.map((lang) => ({
    key: lang,
    label: <span data-lang={lang}>{t(`languages.${lang}`)}</span>,
  }));
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      menu={{
        items,
        selectable: true,
        selectedKeys: [language],
        onClick: ({ key }) => {
          setOpen(false);
          setLanguage(key as Language);
        },
      }}
      placement="bottomRight"
    >
      {button}
    </Dropdown>
  );
}
