import { useState } from 'react';
import { App, Button, Dropdown, Tooltip } from 'antd';
import { DownOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { alreadyReported } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { labelCommandKeys } from '../../labels/commandKeys';
import { DEFAULT_BRIGHTNESS, DEFAULT_VOLUME } from '../../labels/LabelsPanel';
import { LevelModal } from '../../labels/LevelModal';

type Level = 'brightness' | 'volume';

/**
 * The device list's commands to "all N matching" (the orders a label takes): power off, restart,
 * brightness and volume, sent with sendCommandToMatching, so the server makes one command per
 * panel matching the filter when sent, with the label commands' idempotency key; per-panel
 * results are in the feedback log, as for label commands.
 */
export function MatchingCommands({
  all,
  count,
  matching,
}: {
  /** "All matching" is chosen: the commands are offered. */
  all: boolean;
  count: number;
  matching: device.PanelMatching;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [level, setLevel] = useState<Level>();

  const send = async (order: device.Order, value?: string) => {
    const reply = await labelCommandKeys.send(
      device.sendCommandToMatching,
      { order, matching, ...(value === undefined ? {} : { value }) },
      { json: true },
    );
    void message.success(t('allMatching.commandSent', { count: reply.dataObject.count }), NOTICE_SECONDS);
  };
  const confirm = (order: device.Order, action: string) =>
    modal.confirm({
      title: t('common.tips'),
      content: t('allMatching.commandConfirm', { action, count }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => send(order).catch(alreadyReported),
    });
  const items = [
    { key: '02', label: t('labels.powerOff'), danger: true },
    { key: '03', label: t('labels.restart') },
    { key: 'brightness', label: t('labels.brightness') },
    { key: 'volume', label: t('labels.volume') },
  ];

  return (
    <>
      <Tooltip title={all ? undefined : t('allMatching.commandsNeedAll')}>
        <Dropdown
          disabled={!all}
          trigger={['click']}
          menu={{
            items: items.map((i) => ({ ...i, 'data-testid': `matching-command-${i.key}` })),
            onClick: ({ key }) => {
              if (key === 'brightness' || key === 'volume') setLevel(key);
              else confirm(key as device.Order, items.find((i) => i.key === key)!.label);
            },
          }}
        >
          <Button icon={<ThunderboltOutlined />} disabled={!all} data-testid="matching-commands">
            {t('allMatching.commands')} <DownOutlined />
          </Button>
        </Dropdown>
      </Tooltip>
      <LevelModal
        title={level === 'volume' ? t('labels.volume') : t('labels.brightness')}
        open={level !== undefined}
        initial={level === 'volume' ? DEFAULT_VOLUME : DEFAULT_BRIGHTNESS}
        testId="matching-level"
        onSend={async (value) => {
          try {
            await send(level === 'volume' ? '01' : '00', String(value));
            setLevel(undefined);
          } catch (error) {
            // Refused: the dialog stays open with the level chosen.
            alreadyReported(error);
          }
        }}
        onClose={() => setLevel(undefined)}
      />
    </>
  );
}
