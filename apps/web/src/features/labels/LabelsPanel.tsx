import { useState } from 'react';
import { App, Button } from 'antd';
import {
  AppstoreOutlined,
  EditOutlined,
  FilterOutlined,
  BulbOutlined,
  PoweroffOutlined,
  RedoOutlined,
  SoundOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { alreadyReported } from '../../api/client';
import { homeView } from '../../paths';
import { useScreenshotCatalogs } from '../screenshots/catalogs';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { labelCommandKeys } from './commandKeys';
import { LabelDevices } from './LabelDevices';
import { LevelModal } from './LevelModal';
import { useLabelDevices } from './useLabelDevices';
import { DynamicLabelModal } from './dynamic/DynamicLabelModal';

/** Spec 2 section 9: default brightness 80, volume 60. */
export const DEFAULT_BRIGHTNESS = 80;
export const DEFAULT_VOLUME = 60;

/**
 * Labels page (view Labels, spec 2 section 2): tick labels (coloured chips, select all), see
 * their devices, and power off, restart, start up, or set brightness or volume of all of them.
 * Each command carries an idempotency key (commandKeys.ts), so a retry never sends it twice.
 */
export function LabelsPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirmAction();
  const selection = useLabelDevices('labelDevices');
  const { ticked, list, needLabels } = selection;
  const [level, setLevel] = useState<'brightness' | 'volume'>();
  const [dynamic, setDynamic] = useState<{ editing?: (typeof selection.labels)[number] }>();
  // One ticked dynamic label can be edited.
  const editable =
    ticked.length === 1 ? selection.labels.find((l) => l.groupId === ticked[0] && l.dynamic) : undefined;
  const navigate = useNavigate();
  const wallReady = useScreenshotCatalogs();
  const tagIds = () => ticked.join(',');
  const order = (name: string, send: () => Promise<{ hhtMsg?: string }>) => {
    if (needLabels()) return;
    confirm(t('labels.confirm', { action: name, labels: selection.tickedNames() }), send, list.reload);
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

  return (
    <div data-testid="labels-page">
      <LabelDevices
        selection={selection}
        testIdPrefix="label"
        actions={
          <>
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
            <Button icon={<FilterOutlined />} data-testid="labels-new-dynamic" onClick={() => setDynamic({})}>
              {t('labels.dynamic.new')}
            </Button>
            {editable && (
              <Button
                icon={<EditOutlined />}
                data-testid="labels-edit-dynamic"
                onClick={() => setDynamic({ editing: editable })}
              >
                {t('labels.dynamic.edit')}
              </Button>
            )}
            {wallReady && (
              <Button
                icon={<AppstoreOutlined />}
                data-testid="labels-wall"
                onClick={() => !needLabels() && navigate(`${homeView('Labels')}?wall=${ticked[0]}`)}
              >
                {t('screenshots.wall.open')}
              </Button>
            )}
          </>
        }
      />
      <DynamicLabelModal
        open={dynamic !== undefined}
        editing={dynamic?.editing}
        onClose={() => setDynamic(undefined)}
        onSaved={() => void list.reload()}
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
