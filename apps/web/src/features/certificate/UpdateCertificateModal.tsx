import { useState } from 'react';
import { Button, Form, Input, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { certificate, device } from '@panelfleet/contract';
import { call } from '../../api/client';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { schemaRule } from '../../forms/schemaRule';

interface Values {
  certificateName: string;
  certificate: string;
}

interface UpdateCertificateModalProps {
  open: boolean;
  onClose(): void;
  onSaved(): void;
}

/** Update: a name and a PEM file (read in the browser, sent as text; the server checks it). */
export function UpdateCertificateModal({ open, onClose, onSaved }: UpdateCertificateModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<{ name: string; size: number }>();

  const read = async (chosen: File) => {
    if (chosen.size > device.CERTIFICATE_MAX_CHARS) {
      form.setFields([{ name: 'certificate', value: '', errors: [t('certificatePage.fileTooLarge')] }]);
      setFile(undefined);
      return;
    }
    const text = await chosen.text();
    setFile({ name: chosen.name, size: chosen.size });
    form.setFieldsValue({ certificate: text });
    if (!form.getFieldValue('certificateName')) form.setFieldsValue({ certificateName: chosen.name });
    void form.validateFields(['certificate']);
  };

  return (
    <FormModal<Values>
      title={t('certificatePage.updateTitle')}
      open={open}
      form={form}
      width={620}
      testId="certificate-modal"
      submit={(values) => call(certificate.updateCertificate, values)}
      onClose={() => {
        setFile(undefined);
        onClose();
      }}
      onSaved={onSaved}
    >
      <Form.Item
        name="certificateName"
        label={t('certificatePage.name')}
        required
        rules={[
          schemaRule(certificate.updateCertificate.params.shape.certificateName, (key) =>
            t(key, { ns: CONTRACT_NS }),
          ),
        ]}
      >
        <Input data-testid="certificate-name" maxLength={64} />
      </Form.Item>
      <Form.Item label={t('certificatePage.file')} extra={t('certificatePage.fileHint')} required>
        <Upload
          accept=".pem,.crt,.cer,.txt"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(chosen) => {
            void read(chosen);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid="certificate-file">
            {t('certificatePage.chooseFile')}
          </Button>
        </Upload>
        {file && (
          <Typography.Text type="secondary" style={{ marginLeft: 8 }} data-testid="certificate-chosen">
            {t('certificatePage.chosenFile', { name: file.name, size: file.size })}
          </Typography.Text>
        )}
        <Form.Item
          name="certificate"
          noStyle
          rules={[{ required: true, message: t('certificate.empty', { ns: CONTRACT_NS }) }]}
        >
          <Input type="hidden" />
        </Form.Item>
      </Form.Item>
    </FormModal>
  );
}
