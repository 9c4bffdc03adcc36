import { useEffect, useRef } from 'react';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A field's error is text in the language it was shown in: after a language switch, the fields
 * that show one are checked again, so the message reappears in the new language. Fields without
 * an error are left alone (an untouched form does not light up).
 */
export function useRevalidateOnLanguageChange(form: FormInstance) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const shown = useRef(language);
  useEffect(() => {
    if (shown.current === language) return;
    shown.current = language;
    const withErrors = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => field.name);
    if (!withErrors.length) return;
    // The promise rejects when a field is still wrong: the form shows that error, nothing else to do.
    form.validateFields(withErrors).catch(() => undefined);
  }, [form, language]);
}
