import { Button, Dropdown } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';

type Format = (typeof device.DEVICE_EXPORT_FORMATS)[number];

/**
 * The device list's export: every panel the list's current search matches, as CSV or Excel. A
 * plain link, so the browser saves the file as the server streams it (no copy of a large fleet in
 * the page); the console's language goes along as `lang`, as a link sends no Accept-Language of ours.
 */
export function DeviceExportButtons({ search }: { search: string | undefined }) {
  const { t, i18n } = useTranslation();
  const download = (format: Format) => {
    const query = new URLSearchParams({
      format,
      lang: i18n.language,
      ...(search ? { deviceName: search } : {}),
    });
    const link = document.createElement('a');
    link.href = `${device.DEVICE_EXPORT_PATH}?${query}`;
    link.download = '';
    document.body.append(link);
    link.click();
    link.remove();
  };
  return (
    <Dropdown
      menu={{
        items: [
          { key: 'csv', label: <span data-testid="export-csv">{t('devices.exportCsv')}</span> },
          { key: 'xlsx', label: <span data-testid="export-xlsx">{t('devices.exportXlsx')}</span> },
        ],
        onClick: ({ key }) => download(key as Format),
      }}
    >
      <Button icon={<DownloadOutlined />} data-testid="export-devices">
        {t('devices.export')}
      </Button>
    </Dropdown>
  );
}
