import { Checkbox, Empty, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE } from '@panelfleet/contract';
import { CONTRACT_NS } from '../../i18n';
import { PAGE_SIZE_OPTIONS } from '../../lists/paging';
import { OnlineTag } from '../../lists/StatusTags';
import { LabelChips } from '../devices/list/LabelChips';
import { MatchingAlert } from '../devices/list/MatchingAlert';
import { LabelPicker } from './LabelPicker';
import type { PanelPickerState, PickerPanel } from './usePanelPicker';

/**
 * The header box of a panel table: it chooses every panel the table holds, on every page, not
 * only the page in view (the table's own box would); panels that cannot take it stay out.
 */
export function ChooseAllBox<Row extends { deviceId: number }>({
  rows,
  chosen,
  onChange,
  unavailable,
  testId,
}: {
  rows: readonly Row[];
  chosen: readonly number[];
  onChange(ids: number[]): void;
  unavailable?(row: Row): string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const choosable = rows.filter((r) => unavailable?.(r) === undefined).map((r) => r.deviceId);
  const picked = new Set(chosen);
  const all = choosable.length > 0 && choosable.every((id) => picked.has(id));
  return (
    <Tooltip title={t('panelPicker.allPages', { count: choosable.length })}>
      <Checkbox
        data-testid={testId}
        aria-label={t('panelPicker.allPages', { count: choosable.length })}
        checked={all}
        indeterminate={!all && chosen.length > 0}
        disabled={!choosable.length}
        onChange={(event) => onChange(event.target.checked ? choosable : [])}
      />
    </Tooltip>
  );
}

/** "4 panels in Classrooms", and what is left out and why, before anything is sent. */
export function PickedCount({
  count,
  of,
  labels,
  unavailable = 0,
  unfit = 0,
  testId,
}: {
  count: number;
  /** The panels listed; more than `count` when some were unticked. */
  of: number;
  labels?: string;
  unavailable?: number;
  unfit?: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const head = labels
    ? t(count === of ? 'panelPicker.inLabels' : 'panelPicker.someInLabels', { count, of, labels })
    : t(count === of ? 'panelPicker.chosen' : 'panelPicker.someChosen', { count, of });
  const notes = [
    unavailable ? t('panelPicker.unavailable', { count: unavailable }) : '',
    unfit ? t('panelPicker.unfit', { count: unfit }) : '',
  ].filter(Boolean);
  return (
    <Typography.Text
      strong
      data-testid={testId}
      data-count={count}
      data-unavailable={unavailable}
      data-unfit={unfit}
    >
      {[head, ...notes].join(t('panelPicker.separator'))}
    </Typography.Text>
  );
}

/**
 * Labels (coloured chips with select all), then every panel they hold. With `choose` each panel
 * can be unticked by itself and the header box means every page; without it (a send by labels)
 * every listed panel is what is sent. Settings push, clone, program publish, force upgrade and
 * the APK install by label all pick panels with this.
 */
export function PanelPicker({
  picker,
  choose,
  testIdPrefix,
  pageSize = DEFAULT_PAGE_SIZE,
}: {
  picker: PanelPickerState;
  choose: boolean;
  testIdPrefix: string;
  pageSize?: number;
}) {
  const { t } = useTranslation();
  const { labels, loaded, ticked, tick, tickedNames, rows, chosen, setChosen, unfit, loading, unavailable } =
    picker;
  const unavailableCount = unavailable ? rows.filter((r) => unavailable(r) !== undefined).length : 0;
  const { matching } = picker;
  const columns: TableColumnsType<PickerPanel> = [
    { title: t('deviceDetail.deviceName'), dataIndex: 'deviceName', ellipsis: true },
    { title: t('deviceDetail.serial'), dataIndex: 'deviceKey', width: 130 },
    { title: t('deviceDetail.machineType'), dataIndex: 'machineType', width: 110 },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      width: 90,
      render: (_, row) => <OnlineTag online={row.isOnline === '1' ? 1 : 0} />,
    },
    { title: t('deviceDetail.tags'), dataIndex: 'tag', render: (_, row) => <LabelChips tag={row.tag} /> },
  ];
  return (
    <div data-testid={`${testIdPrefix}-picker`}>
      <Space wrap style={{ marginBottom: 12 }}>
        <LabelPicker
          labels={labels}
          ticked={ticked}
          onChange={tick}
          selectAllText={t('deviceDetail.selectAllLabels')}
          selectAllTestId={`${testIdPrefix}-select-all`}
          chipTestId={`${testIdPrefix}-label`}
        />
        {loaded && !labels.length && (
          <Typography.Text type="secondary">{t('upgrade.noLabel', { ns: CONTRACT_NS })}</Typography.Text>
        )}
      </Space>
      {choose && (
        <MatchingAlert
          state={matching}
          filter={undefined}
          labels={tickedNames}
          pageCount={chosen.length}
          pageChosen={matching.pageChosen}
          onClear={() => setChosen([])}
          testId={`${testIdPrefix}-all-matching`}
        />
      )}
      <Table<PickerPanel>
        size="small"
        rowKey="deviceId"
        columns={columns}
        dataSource={rows}
        loading={loading}
        data-testid={`${testIdPrefix}-devices`}
        onRow={(row) => ({ 'data-device-key': row.deviceKey }) as object}
        pagination={{
          defaultPageSize: pageSize,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS,
          showTotal: (count) => t('lists.total', { count }),
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t(ticked.length ? 'deviceDetail.noLabelDevices' : 'label.chooseDevice', {
                ns: ticked.length ? undefined : CONTRACT_NS,
              })}
            />
          ),
        }}
        rowSelection={
          choose
            ? {
                selectedRowKeys: chosen,
                columnTitle: (
                  <ChooseAllBox
                    rows={rows}
                    chosen={chosen}
                    onChange={setChosen}
                    unavailable={unavailable}
                    testId={`${testIdPrefix}-all-panels`}
                  />
                ),
                onChange: (keys) => setChosen(keys.map(Number)),
                getCheckboxProps: (row) => ({ disabled: unavailable?.(row) !== undefined }),
                renderCell: (_checked, row, _index, node) => {
                  const why = unavailable?.(row);
                  return why ? <Tooltip title={why}>{node}</Tooltip> : node;
                },
              }
            : undefined
        }
      />
      {ticked.length > 0 && !loading && (
        <PickedCount
          count={choose ? chosen.length : rows.length}
          of={rows.length - unavailableCount}
          labels={tickedNames}
          unavailable={unavailableCount}
          unfit={unfit}
          testId={`${testIdPrefix}-count`}
        />
      )}
    </div>
  );
}
