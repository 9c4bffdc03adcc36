import { useRef, useState, type ChangeEvent } from 'react';
import { App, Button, Modal, Progress, Space, Table, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { materials } from '@panelfleet/contract';
import { alreadyReported, call, uploadWithProgress } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { formatDateTime } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { testHook } from '../../lists/FormModal';
import { operationsColumn, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { AUDIO_ACCEPT, audioFileProblem, formatFileSize } from './audioFile';
import { AudioPreviewModal } from './AudioPreviewModal';
import { AUDIO_MATERIALS_KEY, useAudioMaterials } from './useAudioMaterials';

type Material = materials.Material;

interface AudioListModalProps {
  open: boolean;
  chosenId: number | undefined;
  onChoose(material: Material): void;
  /** The chosen audio was deleted. */
  onChosenDeleted(): void;
  onClose(): void;
}

interface Uploading {
  name: string;
  percent: number;
}

/** The company's audio materials: upload (checked here, then by content on the server), preview, delete, choose one. */
export function AudioListModal({ open, chosenId, onChoose, onChosenDeleted, onClose }: AudioListModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirmAction();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const list = useAudioMaterials(open);
  const [selected, setSelected] = useState<number | undefined>(chosenId);
  const [uploading, setUploading] = useState<Uploading>();
  const [previewing, setPreviewing] = useState<Material>();
  const reload = () => queryClient.invalidateQueries({ queryKey: AUDIO_MATERIALS_KEY });

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = audioFileProblem(file);
    if (problem) {
      void message.error(t(problem, { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    setUploading({ name: file.name, percent: 0 });
    try {
      const body = new FormData();
      body.append('fileType', String(materials.MATERIAL_FILE_TYPES.audio));
      body.append('uiFile', file, file.name);
      const reply = await uploadWithProgress(materials.insertMaterial, body, (sent) =>
        setUploading({ name: file.name, percent: Math.floor(sent * 100) }),
      );
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      setSelected(reply.dataObject.materialId);
      await reload();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setUploading(undefined);
    }
  };

  const remove = (row: Material) =>
    confirm(
      t('notice.deleteAudioConfirm', { name: row.fileName }),
      () => call(materials.deleteMaterial, { materialId: row.materialId }),
      () => {
        if (selected === row.materialId) setSelected(undefined);
        if (chosenId === row.materialId) onChosenDeleted();
        void reload();
      },
    );

  const choose = () => {
    const material = list.data?.find((m) => m.materialId === selected);
    if (!material) {
      void message.warning(t('notice.chooseAudio', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    onChoose(material);
    onClose();
  };

  const columns: TableColumnsType<Material> = [
    { title: t('notice.fileName'), dataIndex: 'fileName', ellipsis: true },
    {
      title: t('notice.format'),
      dataIndex: 'format',
      width: 80,
      render: (_, row) => row.format.toUpperCase(),
    },
    {
      title: t('notice.fileSize'),
      dataIndex: 'fileSize',
      width: 100,
      render: (_, row) => formatFileSize(row.fileSize),
    },
    {
      title: t('notice.uploadTime'),
      dataIndex: 'createTime',
      width: 170,
      render: (_, row) => formatDateTime(row.createTime),
    },
    operationsColumn(t('lists.operations'), (row) => (
      <>
        <RowAction
          label={t('notice.preview')}
          testId="audio-preview-open"
          onClick={() => setPreviewing(row)}
        />
        <RowAction label={t('lists.delete')} testId="audio-delete" danger onClick={() => remove(row)} />
      </>
    )),
  ];

  return (
    <Modal
      title={t('notice.audioListTitle')}
      open={open}
      width={760}
      onCancel={onClose}
      onOk={choose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={testHook('audio-list-ok')}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => <div data-testid="audio-list">{node}</div>}
    >
      <input
        ref={input}
        type="file"
        accept={AUDIO_ACCEPT}
        hidden
        onChange={(event) => void pick(event)}
        data-testid="audio-file"
      />
      <Space style={{ marginBottom: 12 }} wrap>
        <Button
          icon={<UploadOutlined />}
          onClick={() => input.current?.click()}
          loading={uploading !== undefined}
          data-testid="audio-upload"
        >
          {t('notice.upload')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          {t('lists.refresh')}
        </Button>
        <Typography.Text type="secondary">
          {t('notice.uploadHint', { types: materials.AUDIO_FORMATS.join(', ') })}
        </Typography.Text>
      </Space>
      {uploading && (
        <div data-testid="audio-upload-progress" style={{ marginBottom: 12 }}>
          <Typography.Text ellipsis>{uploading.name}</Typography.Text>
          <Progress percent={uploading.percent} size="small" status="active" />
        </div>
      )}
      <Table<Material>
        rowKey="materialId"
        size="small"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: selected === undefined ? [] : [selected],
          onChange: (keys) => setSelected(keys[0] === undefined ? undefined : Number(keys[0])),
        }}
        onRow={(row) => ({ onClick: () => setSelected(row.materialId) })}
      />
      <AudioPreviewModal material={previewing} onClose={() => setPreviewing(undefined)} />
    </Modal>
  );
}
