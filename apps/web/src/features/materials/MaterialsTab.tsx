import { useState } from 'react';
import { Image, Segmented, Typography, type TableColumnsType } from 'antd';
import { AudioOutlined, FileImageOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { materials } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { formatFileSize } from '../../format/fileSize';
import { FilterToolbar, SearchText } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction, textColumn } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { useFilteredList } from '../../lists/usePagedList';

type Material = materials.Material;
type FileType = 0 | 1 | 2 | 3;
interface Filter {
  fileType: FileType;
  fileName?: string;
}

const KIND_ICONS = {
  image: <FileImageOutlined />,
  audio: <AudioOutlined />,
  video: <VideoCameraOutlined />,
} as const;

const fileUrl = (id: number) => `${materials.materialFile.path}?materialId=${id}`;
const thumbnailUrl = (id: number) => `${materials.materialThumbnail.path}?materialId=${id}`;

/** A material's picture: its thumbnail or poster frame, else its type's icon. */
function Preview({ row }: { row: Material }) {
  const kind = materials.MATERIAL_KIND_OF[row.fileType] ?? 'image';
  if (row.hasThumbnail)
    return (
      <Image
        width={64}
        height={40}
        style={{ objectFit: 'cover' }}
        src={thumbnailUrl(row.materialId)}
        preview={kind === 'image' ? { src: fileUrl(row.materialId) } : false}
        data-testid="material-thumbnail"
      />
    );
  return (
    <span style={{ fontSize: 24, color: '#8c8c8c' }} data-testid="material-type-icon">
      {KIND_ICONS[kind]}
    </span>
  );
}

/**
 * Tab materials of the Broadcast page (?tab=materials): the company's images, videos and audio,
 * paged on the server, by type and name; open a file, delete one that no program plays.
 */
export default function MaterialsTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const [fileType, setFileType] = useState<FileType>(0);
  const [name, setName] = useState('');
  const list = useFilteredList<Material, Filter>('materials', (start, size, filter) =>
    call(materials.pageMaterials, {
      start,
      size,
      fileType: filter?.fileType ?? 0,
      fileName: filter?.fileName,
    }),
  );
  const search = (type = fileType) => list.filter({ fileType: type, fileName: name.trim() || undefined });

  const remove = (row: Material) =>
    confirm(
      t('materials.deleteConfirm', { name: row.fileName }),
      () => call(materials.deleteMaterial, { materialId: row.materialId }),
      list.reload,
    );

  const columns: TableColumnsType<Material> = [
    { title: t('materials.preview'), key: 'preview', width: 90, render: (_, row) => <Preview row={row} /> },
    textColumn(t('materials.name'), 'fileName'),
    {
      title: t('materials.type'),
      dataIndex: 'fileType',
      width: 90,
      render: (_, row) => t(`materials.kind.${materials.MATERIAL_KIND_OF[row.fileType] ?? 'image'}`),
    },
    {
      title: t('materials.format'),
      dataIndex: 'format',
      width: 80,
      render: (_, row) => row.format.toUpperCase(),
    },
    {
      title: t('materials.size'),
      dataIndex: 'fileSize',
      width: 100,
      render: (_, row) => formatFileSize(row.fileSize),
    },
    {
      title: t('materials.uploaded'),
      dataIndex: 'createTime',
      width: 170,
      render: (_, row) => formatDateTime(row.createTime),
    },
    operationsColumn(t('lists.operations'), (row) => (
      <>
        <Typography.Link href={fileUrl(row.materialId)} target="_blank" data-testid="material-open">
          {t('materials.open')}
        </Typography.Link>
        <RowAction label={t('lists.delete')} testId="material-delete" danger onClick={() => remove(row)} />
      </>
    )),
  ];

  return (
    <div data-testid="materials-tab">
      <FilterToolbar
        onSearch={() => search()}
        onRefresh={() => {
          setFileType(0);
          setName('');
          list.refresh();
        }}
      >
        <Segmented<FileType>
          data-testid="materials-type"
          value={fileType}
          onChange={(value) => {
            setFileType(value);
            search(value);
          }}
          options={[
            { value: 0, label: t('materials.kinds.all') },
            { value: 1, label: t('materials.kinds.image') },
            { value: 3, label: t('materials.kinds.video') },
            { value: 2, label: t('materials.kinds.audio') },
          ]}
        />
        <SearchText
          placeholder={t('materials.searchPlaceholder')}
          value={name}
          onChange={setName}
          onSearch={() => search()}
        />
      </FilterToolbar>
      <PagedTable rowKey="materialId" columns={columns} list={list} />
    </div>
  );
}
