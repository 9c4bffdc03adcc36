import { useState, type ReactNode } from 'react';
import { App, Form, Modal, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { alreadyReported } from '../api/client';
import { NOTICE_SECONDS } from '../api/ReplyEffects';
import { useRevalidateOnLanguageChange } from '../forms/useRevalidateOnLanguageChange';

interface FormModalProps<Values> {
  title: string;
  open: boolean;
  form: FormInstance<Values>;
  initialValues?: Partial<Values>;
  /** Sends the form; a rejection (fail reply) keeps the dialog open. */
  submit(values: Values): Promise<{ hhtMsg?: string }>;
  onClose(): void;
  /** After a success: the dialog has closed; reload what it changed. */
  onSaved(): void;
  testId: string;
  children: ReactNode;
  width?: number;
  /** Shows the values without a way to save them (the caller may read but not change them). */
  readOnly?: boolean;
}

/** data-* attributes for props objects that do not declare them. */
export const testHook = (id: string): Record<string, string> => ({ 'data-testid': id });

/** An add or edit dialog: stays open on a fail reply, closes and reports success otherwise. */
export function FormModal<Values>({
  title,
  open,
  form,
  initialValues,
  submit,
  onClose,
  onSaved,
  testId,
  children,
  width,
  readOnly = false,
}: FormModalProps<Values>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  useRevalidateOnLanguageChange(form as FormInstance);

  const finish = async (values: Values) => {
    setSaving(true);
    try {
      const reply = await submit(values);
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onClose();
      onSaved();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      width={width}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={readOnly ? t('common.close') : t('common.cancel')}
      okButtonProps={{
        htmlType: 'submit',
        loading: saving,
        style: readOnly ? { display: 'none' } : undefined,
        ...testHook(`${testId}-ok`),
      }}
      destroyOnHidden
      modalRender={(node) => (
        <Form<Values>
          form={form}
          layout="horizontal"
          labelCol={{ span: 7 }}
          wrapperCol={{ span: 16 }}
          initialValues={initialValues}
          clearOnDestroy
          onFinish={finish}
        >
          <div data-testid={testId}>{node}</div>
        </Form>
      )}
    >
      {children}
    </Modal>
  );
}
