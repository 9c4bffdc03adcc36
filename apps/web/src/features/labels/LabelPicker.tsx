import { App, Checkbox, Space, Tag } from 'antd';
import { CheckOutlined, FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReplyOf, device } from '@panelfleet/contract';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import { labelColor } from './labelColors';

type Label = ReplyOf<typeof device.listGroups>['listObject'][number];

interface LabelPickerProps {
  labels: Label[];
  ticked: number[];
  onChange(ticked: number[]): void;
  selectAllText: string;
  /** Test hooks of the select-all box and of each chip (`data-label`, `data-ticked`). */
  selectAllTestId: string;
  chipTestId: string;
}

/** Select all and one coloured chip per label, each ticked by a click (spec 2: labels page, terminal list). */
export function LabelPicker({
  labels,
  ticked,
  onChange,
  selectAllText,
  selectAllTestId,
  chipTestId,
}: LabelPickerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const allTicked = labels.length > 0 && ticked.length === labels.length;
  return (
    <Space wrap>
      <Checkbox
        data-testid={selectAllTestId}
        checked={allTicked}
        indeterminate={ticked.length > 0 && !allTicked}
        onChange={(event) => {
          if (event.target.checked && !labels.length) {
            void message.warning(t('upgrade.noLabel', { ns: CONTRACT_NS }), NOTICE_SECONDS);
            return;
          }
          onChange(event.target.checked ? labels.map((l) => l.groupId) : []);
        }}
      >
        {selectAllText}
      </Checkbox>
      {labels.map((label) => {
        const on = ticked.includes(label.groupId);
        return (
          <Tag
            key={label.groupId}
            data-testid={chipTestId}
            data-label={label.groupName}
            data-ticked={on ? '1' : '0'}
            color={labelColor(label.groupName)}
            variant={on ? 'solid' : 'outlined'}
            icon={on ? <CheckOutlined /> : undefined}
            style={{ cursor: 'pointer', userSelect: 'none', padding: '2px 10px' }}
            onClick={() =>
              onChange(on ? ticked.filter((id) => id !== label.groupId) : [...ticked, label.groupId])
            }
          >
            {label.groupName}
            {label.dynamic && (
              <span
                data-testid={`${chipTestId}-dynamic`}
                title={t('labels.dynamic.tagHint')}
                style={{ marginInlineStart: 6, fontSize: 11, opacity: 0.85 }}
              >
                <FilterOutlined /> {t('labels.dynamic.tag')}
              </span>
            )}
          </Tag>
        );
      })}
    </Space>
  );
}
