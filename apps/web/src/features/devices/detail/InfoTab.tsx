import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { deviceDetail } from '@panelfleet/contract';
import { formatDateTime } from '../../../format/dateTime';
import { LabelChips } from '../list/LabelChips';
import { formatUtcOffset } from './format';

const orDash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/** Tab 1: what the panel reports about itself (spec 2 section 2, device info). */
export function InfoTab({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  const position =
    detail.latitude !== null && detail.longitude !== null
      ? `${detail.latitude.toFixed(4)}, ${detail.longitude.toFixed(4)}`
      : '—';
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      data-testid="detail-info"
      styles={{ label: { width: 170 } }}
    >
      <Descriptions.Item label={t('deviceDetail.publicIp')}>{orDash(detail.publicIp)}</Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.localIp')}>{orDash(detail.localIp)}</Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.mac')}>
        <span data-testid="detail-mac">{orDash(detail.mac)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.netmask')}>
        <span data-testid="detail-netmask">{orDash(detail.netmask)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.model')}>{orDash(detail.model)}</Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.machineType')}>
        {orDash(detail.machineType)}
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.version')}>{orDash(detail.otaVersion)}</Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.position')}>{position}</Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.serial')}>{detail.deviceKey}</Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.location')}>
        <span data-testid="detail-location">{orDash(detail.location)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.networkIntensity')}>
        {detail.netWorkIntensity === null ? '—' : `${detail.netWorkIntensity}%`}
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.networkState')}>
        {detail.netWorkState ? t(`deviceDetail.network.${detail.netWorkState}`) : '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.cpuTemperature')}>
        {detail.cpuTemperature === null ? '—' : `${detail.cpuTemperature} °C`}
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.timeZone')}>
        <span data-testid="detail-time-zone">
          {detail.utcOffset === null
            ? '—'
            : t('deviceDetail.timeZoneValue', { zone: formatUtcOffset(detail.utcOffset) })}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.lastSeen')}>
        {detail.lastSeenAt === null ? '—' : formatDateTime(detail.lastSeenAt)}
      </Descriptions.Item>
      <Descriptions.Item label={t('deviceDetail.tags')}>
        {detail.tag ? <LabelChips tag={detail.tag} /> : '—'}
      </Descriptions.Item>
    </Descriptions>
  );
}
