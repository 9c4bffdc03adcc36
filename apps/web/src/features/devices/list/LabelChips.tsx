import { Space, Tag } from 'antd';
import { device } from '@panelfleet/contract';
import { labelColor } from '../../labels/labelColors';

/** A device's labels (names joined by a dash) as coloured chips, the colour of each label name. */
export function LabelChips({ tag }: { tag: string }) {
  const names = tag.split(device.TAG_SEPARATOR).filter(Boolean);
  return (
    <Space size={[0, 4]} wrap data-testid="device-labels">
      {names.map((name) => (
        <Tag key={name} color={labelColor(name)}>
          {name}
        </Tag>
      ))}
    </Space>
  );
}
