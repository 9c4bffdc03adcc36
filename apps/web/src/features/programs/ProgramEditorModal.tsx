import { Alert, Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import * as programs from '@panelfleet/contract/programs';
import { call } from '../../api/client';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { Playlist, type EditorValues } from './ProgramPlaylist';

interface ProgramEditorModalProps {
  /** null: a new program; a program: edit it; undefined: closed. */
  program: programs.Program | null | undefined;
  onClose(): void;
  onSaved(): void;
}

export function ProgramEditorModal({ program, onClose, onSaved }: ProgramEditorModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditorValues>();
  const open = program !== undefined;
  const initial: EditorValues = program
    ? { name: program.name, playTime: program.playTime, items: program.items }
    : { name: '', playTime: programs.DEFAULT_PLAY_TIME, items: [] };

  const submit = (values: EditorValues) => {
    const content = JSON.stringify(
      (values.items ?? []).map((item) =>
        item.type === 'web'
          ? { type: 'web', url: item.url ?? '', duration: item.duration }
          : { type: item.type, materialId: item.materialId, duration: item.duration },
      ),
    );
    const fields = { name: values.name, playTime: String(values.playTime ?? ''), content };
    return program
      ? call(programs.updateProgram, { ...fields, programId: program.programId })
      : call(programs.insertProgram, fields);
  };

  return (
    <FormModal<EditorValues>
      key={program ? `edit-${program.programId}-${program.updateTime}` : open ? 'new' : 'closed'}
      title={program ? t('programs.editor.titleEdit') : t('programs.editor.titleAdd')}
      open={open}
      form={form}
      initialValues={initial}
      testId="program-editor"
      width={900}
      onClose={onClose}
      onSaved={onSaved}
      submit={submit}
    >
      {program?.status === 'approval2' && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('programs.editor.approvedNote')}
        />
      )}
      <Form.Item
        name="name"
        label={t('programs.name')}
        rules={[
          { required: true, whitespace: true, message: t('program.nameNull', { ns: CONTRACT_NS }) },
          { max: programs.NAME_MAX, message: t('program.nameTooLong', { ns: CONTRACT_NS }) },
        ]}
      >
        <Input maxLength={programs.NAME_MAX} data-testid="program-name" />
      </Form.Item>
      <Form.Item
        name="playTime"
        label={t('programs.playTime')}
        rules={[{ required: true, message: t('program.playTimeNull', { ns: CONTRACT_NS }) }]}
      >
        <InputNumber min={1} max={programs.PLAY_TIME_MAX} precision={0} data-testid="program-play-time" />
      </Form.Item>
      {/* The playlist takes the dialog's whole width: a row holds a material, seconds and buttons. */}
      <Form.Item
        label={t('programs.editor.playlist')}
        required
        labelCol={{ span: 24 }}
        wrapperCol={{ span: 24 }}
      >
        <Playlist open={open} />
      </Form.Item>
    </FormModal>
  );
}
