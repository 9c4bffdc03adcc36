import { useRef, useState, type ChangeEvent } from 'react';
import {
  App,
  Button,
  Form,
  Input,
  InputNumber,
  Progress,
  Select,
  Space,
  Typography,
  type FormListFieldData,
} from 'antd';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  GlobalOutlined,
  PictureOutlined,
  PlusOutlined,
  SoundOutlined,
  UploadOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { materials, type Language } from '@panelfleet/contract';
import * as programs from '@panelfleet/contract/programs';
import { alreadyReported, ApiError, call, uploadWithProgress } from '../../api/client';
import {
  startUpload,
  UploadCancelled,
  type RunningUpload,
  type UploadProgress,
} from '../../uploads/resumableUpload';
import { UploadProgressModal } from '../../uploads/UploadProgressModal';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import { testHook } from '../../lists/FormModal';
import { materialsKey, thumbnailUrl, useMaterials } from './useMaterials';

// The program editor's playlist: its rows, the material pickers and uploads (ProgramEditorModal.tsx).

export type ItemType = programs.ItemType;

export interface EditorItem {
  type: ItemType;
  materialId?: number;
  url?: string;
  duration: number;
}

export interface EditorValues {
  name: string;
  playTime: number;
  items: EditorItem[];
}

const DEFAULT_DURATION: Record<ItemType, number> = { image: 10, video: 30, audio: 30, web: 30 };
const FILE_TYPES = { image: 1, video: 3, audio: 2 } as const;
const TYPE_ICONS: Record<ItemType, React.ReactNode> = {
  image: <PictureOutlined />,
  video: <VideoCameraOutlined />,
  audio: <SoundOutlined />,
  web: <GlobalOutlined />,
};
const ACCEPT = {
  image: 'image/png,image/jpeg,image/gif,image/webp',
  video: 'video/mp4,video/webm,video/x-matroska,video/x-msvideo,video/quicktime,.mkv,.avi,.mov',
};

/** New program or edit (program role "0"): name, play time (default 3600 s) and an ordered playlist. */

export function Playlist({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const items = Form.useWatch('items', form) ?? [];
  const seconds = items.reduce((sum, item) => sum + (Number(item?.duration) || 0), 0);
  return (
    <Form.List
      name="items"
      rules={[
        {
          validator: async (_, value: EditorItem[] | undefined) => {
            if (!value?.length) throw new Error(t('program.itemsEmpty', { ns: CONTRACT_NS }));
          },
        },
      ]}
    >
      {(fields, { add, remove, move }, { errors }) => (
        <div data-testid="program-playlist">
          {fields.length === 0 && (
            <Typography.Paragraph type="secondary">{t('programs.editor.empty')}</Typography.Paragraph>
          )}
          {fields.map((field, index) => (
            <ItemRow
              key={field.key}
              field={field}
              index={index}
              count={fields.length}
              open={open}
              onMove={(to) => move(index, to)}
              onRemove={() => remove(index)}
            />
          ))}
          <Form.ErrorList errors={errors} />
          <Space wrap style={{ marginTop: 8 }}>
            {programs.ITEM_TYPES.map((type) => (
              <Button
                key={type}
                icon={<PlusOutlined />}
                data-testid={`program-add-${type}`}
                onClick={() => add({ type, duration: DEFAULT_DURATION[type] } satisfies EditorItem)}
              >
                {t('programs.editor.add', { type: t(`programs.types.${type}`) })}
              </Button>
            ))}
            <UploadButton
              kind="image"
              onUploaded={(id) => add({ type: 'image', materialId: id, duration: 10 })}
            />
            <UploadButton
              kind="video"
              onUploaded={(id) => add({ type: 'video', materialId: id, duration: 30 })}
            />
          </Space>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t('programs.editor.total', { count: fields.length, seconds })}
          </Typography.Paragraph>
        </div>
      )}
    </Form.List>
  );
}

interface ItemRowProps {
  field: FormListFieldData;
  index: number;
  count: number;
  open: boolean;
  onMove(to: number): void;
  onRemove(): void;
}

function ItemRow({ field, index, count, open, onMove, onRemove }: ItemRowProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const type = Form.useWatch(['items', field.name, 'type'], form) as ItemType | undefined;
  return (
    <Space align="start" style={{ display: 'flex', marginBottom: 4 }} data-testid={`program-item-${index}`}>
      <Typography.Text style={{ display: 'inline-block', width: 96, lineHeight: '32px' }}>
        {type && TYPE_ICONS[type]} {index + 1}. {type && t(`programs.types.${type}`)}
      </Typography.Text>
      <Form.Item name={[field.name, 'type']} hidden>
        <Input />
      </Form.Item>
      {type === 'web' ? (
        <Form.Item
          name={[field.name, 'url']}
          style={{ width: 380, marginBottom: 8 }}
          rules={[
            { required: true, message: t('program.urlInvalid', { ns: CONTRACT_NS }) },
            { pattern: /^https?:\/\/\S+$/i, message: t('program.urlInvalid', { ns: CONTRACT_NS }) },
          ]}
        >
          <Input
            placeholder="https://"
            aria-label={t('programs.editor.url')}
            data-testid="program-item-url"
          />
        </Form.Item>
      ) : (
        type && (
          <Form.Item
            name={[field.name, 'materialId']}
            style={{ width: 380, marginBottom: 8 }}
            rules={[{ required: true, message: t('programs.editor.chooseMaterial') }]}
          >
            <MaterialSelect kind={type} open={open} />
          </Form.Item>
        )
      )}
      <Form.Item
        name={[field.name, 'duration']}
        style={{ marginBottom: 8 }}
        rules={[{ required: true, message: t('program.durationInvalid', { ns: CONTRACT_NS }) }]}
      >
        <InputNumber
          min={1}
          max={programs.ITEM_DURATION_MAX}
          precision={0}
          addonAfter={t('programs.editor.duration')}
          style={{ width: 130 }}
          data-testid="program-item-duration"
        />
      </Form.Item>
      <Button
        icon={<ArrowUpOutlined />}
        title={t('programs.editor.moveUp')}
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      />
      <Button
        icon={<ArrowDownOutlined />}
        title={t('programs.editor.moveDown')}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      />
      <Button danger icon={<DeleteOutlined />} title={t('programs.editor.remove')} onClick={onRemove} />
    </Space>
  );
}

interface MaterialSelectProps {
  kind: Exclude<ItemType, 'web'>;
  open: boolean;
  value?: number;
  onChange?: (value: number) => void;
}

/** Materials of the item's kind; images and videos show their thumbnail or poster frame, the rest a type icon. */
function MaterialSelect({ kind, open, value, onChange }: MaterialSelectProps) {
  const { t } = useTranslation();
  const list = useMaterials(FILE_TYPES[kind], open);
  return (
    <Select<number>
      value={value}
      onChange={onChange}
      loading={list.isFetching}
      placeholder={t('programs.editor.chooseMaterial')}
      showSearch
      optionFilterProp="title"
      data-testid={`program-material-${kind}`}
      options={(list.data ?? []).map((m) => ({
        value: m.materialId,
        title: m.fileName,
        label: (
          <Space>
            {m.hasThumbnail ? (
              <img
                src={thumbnailUrl(m.materialId)}
                alt=""
                data-testid="program-material-thumbnail"
                style={{ width: 32, height: 20, objectFit: 'cover' }}
              />
            ) : (
              TYPE_ICONS[kind]
            )}
            {m.fileName}
          </Space>
        ),
      }))}
    />
  );
}

/**
 * Uploads an image or a video to the materials library and adds it to the playlist. A video goes
 * through the resumable upload (tus) with the progress dialog (MB sent / MB total, Cancel): a cut
 * resumes when the same file is chosen again, and only a finished upload becomes a material.
 */
function UploadButton({ kind, onUploaded }: { kind: 'image' | 'video'; onUploaded(id: number): void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<{ name: string; percent: number }>();
  const [resumable, setResumable] = useState<{ name: string; stage: 'uploading' | 'checking' }>();
  const [progress, setProgress] = useState<UploadProgress>({ sent: 0, total: 0 });
  const running = useRef<RunningUpload>(undefined);

  const stored = async (reply: { hhtMsg?: string; dataObject: materials.Material }) => {
    void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
    await queryClient.invalidateQueries({ queryKey: materialsKey(materials.MATERIAL_FILE_TYPES[kind]) });
    onUploaded(reply.dataObject.materialId);
  };

  const uploadVideo = async (file: File) => {
    setProgress({ sent: 0, total: file.size });
    setResumable({ name: file.name, stage: 'uploading' });
    const upload = startUpload(file, 'video', i18n.language as Language, setProgress);
    running.current = upload;
    try {
      const uploadId = await upload.done;
      setResumable({ name: file.name, stage: 'checking' });
      await stored(await call(materials.insertVideo, { uploadId }));
    } catch (error) {
      if (error instanceof UploadCancelled) void message.info(t('common.cancelled'), NOTICE_SECONDS);
      // A refused video was told by the call (its hhtMsg); a refusal of tus itself is told here.
      else if (error instanceof ApiError) alreadyReported(error);
      else void message.error((error as Error).message || t('programs.editor.uploadFailed'), NOTICE_SECONDS);
    } finally {
      running.current = undefined;
      setResumable(undefined);
    }
  };

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!materials.fitsKind(kind, file.name)) {
      void message.error(
        t(kind === 'image' ? 'material.imageFormat' : 'material.videoFormat', { ns: CONTRACT_NS }),
        NOTICE_SECONDS,
      );
      return;
    }
    if (file.size > materials.MAX_BYTES_OF[kind]) {
      void message.error(
        t(kind === 'image' ? 'deviceManage.FileSize' : 'material.videoTooLarge', { ns: CONTRACT_NS }),
        NOTICE_SECONDS,
      );
      return;
    }
    if (kind === 'video') return uploadVideo(file);
    setUploading({ name: file.name, percent: 0 });
    try {
      const body = new FormData();
      body.append('fileType', String(materials.MATERIAL_FILE_TYPES[kind]));
      body.append('uiFile', file, file.name);
      const reply = await uploadWithProgress(materials.insertMaterial, body, (sent) =>
        setUploading({ name: file.name, percent: Math.floor(sent * 100) }),
      );
      await stored(reply);
    } catch (error) {
      alreadyReported(error);
    } finally {
      setUploading(undefined);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT[kind]}
        style={{ display: 'none' }}
        onChange={(event) => void pick(event)}
        {...testHook(`program-upload-${kind}-input`)}
      />
      <Button
        icon={<UploadOutlined />}
        loading={uploading !== undefined || resumable !== undefined}
        onClick={() => input.current?.click()}
      >
        {t('programs.editor.upload', { type: t(`programs.types.${kind}`) })}
      </Button>
      {uploading && (
        <span style={{ width: 160, display: 'inline-block' }}>
          <Progress percent={uploading.percent} size="small" />
        </span>
      )}
      <UploadProgressModal
        open={resumable !== undefined}
        title={t('programs.editor.uploadingVideo')}
        fileName={resumable?.name ?? ''}
        progress={progress}
        stage={resumable?.stage ?? 'uploading'}
        checkingText={t('programs.editor.checkingVideo')}
        testIdPrefix="program-video"
        onCancel={() => void running.current?.cancel()}
      />
    </>
  );
}
