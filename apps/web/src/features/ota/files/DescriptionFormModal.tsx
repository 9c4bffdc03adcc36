import { useMemo } from 'react';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_LANGUAGES, ota, type DescriptionLanguage } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';
import { reminderLanguageLabel } from '../../tips/languages';

type Description = ReturnType<typeof ota.otaDescription.parse>;

interface DescriptionValues {
  language: DescriptionLanguage;
  textContent: string;
  remindText?: string;
}

/** Which dialog: add (`null` description), edit, or the reminder alone. */
export type DescriptionEdit = { fileId: number; description: Description | null; remindOnly?: boolean };

/** Add or edit a description in one of the 36 languages of spec 3 section 9, with its reminder text. */
export function DescriptionFormModal({
  edit,
  taken,
  onClose,
  onSaved,
}: {
  edit: DescriptionEdit | undefined;
  /** Languages the file already has (not offered when adding). */
  taken: string[];
  onClose(): void;
  onSaved(): void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<DescriptionValues>();
  const description = edit?.description ?? null;
  const remindOnly = edit?.remindOnly === true && description !== null;
  const options = useMemo(
    () =>
      DESCRIPTION_LANGUAGES.map((value) => ({
        value,
        label: reminderLanguageLabel(value, i18n.language),
        disabled: value !== description?.language && taken.includes(value),
      })),
    [i18n.language, description, taken],
  );
  const submit = (v: DescriptionValues) => {
    if (remindOnly) return call(ota.updateOtaRemind, { id: description.id, remindText: v.remindText ?? '' });
    const values = { language: v.language, textContent: v.textContent, remindText: v.remindText ?? '' };
    return description
      ? call(ota.updateOtaDescription, { id: description.id, ...values })
      : call(ota.addOtaDescription, { otaFileId: edit!.fileId, ...values });
  };
  const required = (key: string) => [
    { required: true, whitespace: true, message: t(key, { ns: CONTRACT_NS }) },
  ];
  return (
    <FormModal<DescriptionValues>
      title={t(
        remindOnly
          ? 'ota.description.remindTitle'
          : description
            ? 'ota.description.editTitle'
            : 'ota.description.addTitle',
      )}
      open={edit !== undefined}
      form={form}
      width={600}
      initialValues={
        description
          ? {
              language: description.language,
              textContent: description.textContent,
              remindText: description.remindText,
            }
          : {}
      }
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="ota-description-form"
    >
      {!remindOnly && (
        <>
          <Form.Item
            name="language"
            label={t('ota.description.language')}
            rules={required('ota.languageInvalid')}
            required
          >
            <Select
              data-testid="ota-description-language"
              showSearch
              optionFilterProp="label"
              options={options}
            />
          </Form.Item>
          <Form.Item
            name="textContent"
            label={t('ota.description.textContent')}
            rules={required('ota.descriptionNull')}
            required
          >
            <Input.TextArea
              data-testid="ota-description-text"
              rows={5}
              maxLength={ota.DESCRIPTION_MAX}
              showCount
            />
          </Form.Item>
        </>
      )}
      <Form.Item
        name="remindText"
        label={t('ota.description.remindText')}
        extra={t('ota.description.remindHint')}
      >
        <Input.TextArea data-testid="ota-description-remind" rows={3} maxLength={ota.REMIND_MAX} showCount />
      </Form.Item>
    </FormModal>
  );
}
