import { useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { useFilteredList } from '../../lists/usePagedList';
import { useOnlineState } from '../devices/list/useOnlineState';
import { useLabels } from './useLabels';

export type LabelDevice = device.LabelDeviceRow;

const NO_DEVICES = { listObject: [] as LabelDevice[], totalRecords: 0 };

/**
 * Ticked labels and the paged devices they hold (spec 2: the Labels page and the Broadcast tab),
 * with the rule that a label send needs a ticked label (label.chooseDevice; upgrade.noLabel when
 * the company has none).
 */
export function useLabelDevices(listKey: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { labels, loaded } = useLabels();
  const [ticked, setTicked] = useState<number[]>([]);
  const list = useFilteredList<LabelDevice, number[]>(listKey, (start, size, tags) =>
    tags?.length
      ? call(device.selectByTag, { tags: tags.join(','), start, size })
      : Promise.resolve(NO_DEVICES),
  );
  const onlineOf = useOnlineState(list.rows.map((r) => r.deviceKey));

  const tick = (next: number[]) => {
    setTicked(next);
    list.filter(next.length ? [...next].sort((x, y) => x - y) : undefined);
  };
  /** True (and says why) when nothing is ticked. */
  const needLabels = () => {
    if (ticked.length) return false;
    void message.warning(
      t(labels.length ? 'label.chooseDevice' : 'upgrade.noLabel', { ns: 'contract' }),
      NOTICE_SECONDS,
    );
    return true;
  };
  const tickedNames = () =>
    labels
      .filter((l) => ticked.includes(l.groupId))
      .map((l) => l.groupName)
      .join(', ');
  return { labels, loaded, ticked, tick, list, onlineOf, needLabels, tickedNames };
}
