import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { FormModal } from '../../../lists/FormModal';
import { FileFields, type FileFieldValues } from './FileFields';
import { idCsv, idsOf } from './useFileOptions';

/** Edit an own file: what it fits, its policy and remark (the image and its version stay). */
export function EditFileModal({
  file,
  onClose,
  onSaved,
}: {
  file: ota.OtaFile | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FileFieldValues>();
  return (
    <FormModal<FileFieldValues>
      title={t('ota.file.editTitle')}
      open={file !== undefined}
      form={form}
      width={600}
      initialValues={
        file
          ? {
              fitMachineTypeId: idsOf(file.fitMachineTypeId),
              fitOtaVersionId: idsOf(file.fitOtaVersionId),
              otaRuleId: file.otaRuleId ?? undefined,
              remarkFileName: file.remarkFileName,
            }
          : {}
      }
      submit={(v) =>
        call(ota.updateOtaFile, {
          otaFileId: file!.id,
          fitMachineTypeId: idCsv(v.fitMachineTypeId),
          fitOtaVersionId: idCsv(v.fitOtaVersionId),
          otaRuleId: v.otaRuleId,
          remarkFileName: v.remarkFileName ?? '',
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="ota-file-edit"
    >
      <Form.Item label={t('ota.file.fileName')}>
        <Input value={file?.fileName} disabled />
      </Form.Item>
      <Form.Item label={t('ota.file.otaVersion')}>
        <Input value={file?.otaVersion} disabled />
      </Form.Item>
      <FileFields open={file !== undefined} />
    </FormModal>
  );
}
