import { useState } from 'react';
import { App, Button, Empty, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import {
  BulbOutlined,
  PoweroffOutlined,
  RedoOutlined,
  SoundOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { useFilteredList } from '../../lists/usePagedList';
import { LabelChips } from '../devices/list/LabelChips';
import { labelCommandKeys } from './commandKeys';
import { useOnlineState } from '../devices/list/useOnlineState';
import { LabelPicker } from './LabelPicker';
import { LevelModal } from './LevelModal';
import { useLabels } from './useLabels';

type LabelDevice = device.LabelDeviceRow;

/** Spec 2 section 9: default brightness 80, volume 60. */
export const DEFAULT_BRIGHTNESS = 80;
export const DEFAULT_VOLUME = 60;

const NO_DEVICES = { listObject: [] as LabelDevice[], totalRecords: 0 };

/**
 * Labels page (view Labels, spec 2 section 2): tick labels (coloured chips, select all), see
 * their devices, and power off, restart, start up, or set brightness or volume of all of them.
 * Each command carries an idempotency key (commandKeys.ts), so a retry never sends it twice.
 */
export function LabelsPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirmAction();
  const { labels, loaded } = useLabels();
  const [ticked, setTicked] = useState<number[]>([]);
  const [level, setLevel] = useState<'brightness' | 'volume'>();
  const list = useFilteredList<LabelDevice, number[]>('labelDevices', (start, size, tags) =>
    tags?.length
      ? call(device.selectByTag, { tags: tags.join(','), start, size })
      : Promise.resolve(NO_DEVICES),
  );
  const onlineOf = useOnlineState(list.rows.map((r) => r.deviceKey));

  const tick = (next: number[]) => {
    setTicked(next);
    list.filter(next.length ? [...next].sort((x, y) => x - y) : undefined);
  };
  const contract = (key: string) => t(key, { ns: 'contract' });
  /** The rule "tick at least one label" (label.chooseDevice; upgrade.noLabel when there are none). */
  const needLabels = () => {
    if (ticked.length) return false;
    void message.warning(contract(labels.length ? 'label.chooseDevice' : 'upgrade.noLabel'), NOTICE_SECONDS);
    return true;
  };
  const tagIds = () => ticked.join(',');
  const order = (name: string, send: () => Promise<{ hhtMsg?: string }>) => {
    if (needLabels()) return;
    confirm(
      t('labels.confirm', {
        action: name,
        labels: labels
          .filter((l) => ticked.includes(l.groupId))
          .map((l) => l.groupName)
          .join(', '),
      }),
      send,
      list.reload,
    );
  };
  const sendLevel = async (value: number) => {
    try {
      const reply = await labelCommandKeys.send(device.sendCommandByTagIds, {
        tagIds: tagIds(),
        order: level === 'brightness' ? '00' : '01',
        value: String(value),
      });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      setLevel(undefined);
    } catch (error) {
      alreadyReported(error);
    }
  };

  const columns: TableColumnsType<LabelDevice> = [
    { title: t('devices.name'), dataIndex: 'deviceName' },
    { title: t('devices.machineType'), dataIndex: 'machineType' },
    { title: t('devices.serial'), dataIndex: 'deviceKey' },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      render: (_, row) => {
        const online = onlineOf(row.deviceKey, row.isOnline) === '1';
        return (
          <Tooltip title={online ? t('lists.online') : t('lists.offline')}>
            <span data-testid="label-device-online" data-online={online ? '1' : '0'}>
              <ThunderboltOutlined style={{ color: online ? '#52c41a' : '#bfbfbf', fontSize: 16 }} />
            </span>
          </Tooltip>
        );
      },
    },
    { title: t('devices.labels'), dataIndex: 'tag', render: (_, row) => <LabelChips tag={row.tag} /> },
  ];

  return (
    <div data-testid="labels-page">
      <Space wrap style={{ marginBottom: 12 }} data-testid="label-chips">
        <LabelPicker
          labels={labels}
          ticked={ticked}
          onChange={tick}
          selectAllText={t('labels.selectAll')}
          selectAllTestId="labels-select-all"
          chipTestId="label-chip"
        />
        {loaded && !labels.length && (
          <Typography.Text type="secondary">{contract('upgrade.noLabel')}</Typography.Text>
        )}
      </Space>
      <Space wrap style={{ marginBottom: 16, display: 'flex' }}>
        <Button
          danger
          icon={<PoweroffOutlined />}
          data-testid="labels-power-off"
          onClick={() =>
            order(t('labels.powerOff'), () =>
              labelCommandKeys.send(device.sendCommandByTagIds, { tagIds: tagIds(), order: '02' }),
            )
          }
        >
          {t('labels.powerOff')}
        </Button>
        <Button
          icon={<RedoOutlined />}
          data-testid="labels-restart"
          onClick={() =>
            order(t('labels.restart'), () =>
              labelCommandKeys.send(device.sendCommandByTagIds, { tagIds: tagIds(), order: '03' }),
            )
          }
        >
          {t('labels.restart')}
        </Button>
        <Button
          icon={<ThunderboltOutlined />}
          data-testid="labels-start-up"
          onClick={() =>
            order(t('labels.startUp'), () =>
              labelCommandKeys.send(device.sendPowerUpByTagIds, { tagIds: tagIds() }),
            )
          }
        >
          {t('labels.startUp')}
        </Button>
        <Button
          icon={<BulbOutlined />}
          data-testid="labels-brightness"
          onClick={() => !needLabels() && setLevel('brightness')}
        >
          {t('labels.brightness')}
        </Button>
        <Button
          icon={<SoundOutlined />}
          data-testid="labels-volume"
          onClick={() => !needLabels() && setLevel('volume')}
        >
          {t('labels.volume')}
        </Button>
      </Space>
      <Table<LabelDevice>
        rowKey="deviceId"
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={ticked.length ? t('labels.noDevices') : contract('label.chooseDevice')}
            />
          ),
        }}
      />
      <LevelModal
        title={level === 'volume' ? t('labels.volume') : t('labels.brightness')}
        open={level !== undefined}
        initial={level === 'volume' ? DEFAULT_VOLUME : DEFAULT_BRIGHTNESS}
        testId="labels-level"
        onSend={sendLevel}
        onClose={() => setLevel(undefined)}
      />
    </div>
  );
}
