/**
 * The panels chosen after the ticked labels changed: those still listed stay as they were (a panel
 * unticked by hand stays unticked), and every panel of a newly ticked label that can take what
 * is sent is chosen; panels no ticked label holds any more drop out.
 */
export function chosenAfterTick<Row extends { deviceId: number }>(
  before: readonly number[],
  listed: readonly Row[],
  ofNewLabels: readonly Row[],
  unavailable?: (row: Row) => string | undefined,
): number[] {
  const still = new Set(listed.map((r) => r.deviceId));
  const take = ofNewLabels.filter((r) => unavailable?.(r) === undefined).map((r) => r.deviceId);
  return [...new Set([...before.filter((id) => still.has(id)), ...take])];
}

/**
 * Whether every listed panel that can take what is sent is chosen (and at least one): the picker
 * then offers "all N matching", the labels themselves as the selection.
 */
export function everyChoosableChosen<Row extends { deviceId: number }>(
  rows: readonly Row[],
  chosen: readonly number[],
  unavailable?: (row: Row) => string | undefined,
): boolean {
  const picked = new Set(chosen);
  const choosable = rows.filter((r) => unavailable?.(r) === undefined);
  return choosable.length > 0 && choosable.every((r) => picked.has(r.deviceId));
}

/**
 * What a picker's call sends: once "all matching" is chosen, the ticked labels as a filter the
 * server resolves when the call runs (never the ids listed in the browser); otherwise the chosen
 * panels that are still listed.
 */
export function pickerSelection<Row extends { deviceId: number }>(state: {
  all: boolean;
  ticked: readonly number[];
  chosen: readonly number[];
  rows: readonly Row[];
}): { deviceIds: number[] } | { matching: { deviceName: string; tagIds: number[] } } {
  if (state.all && state.ticked.length) return { matching: { deviceName: '', tagIds: [...state.ticked] } };
  const listed = new Set(state.rows.map((r) => r.deviceId));
  return { deviceIds: state.chosen.filter((id) => listed.has(id)) };
}

/** A selection as the calls take it: the filter (JSON body), or the ids comma-separated. */
export function selectionParams(
  selection: { deviceIds: number[] } | { matching: { deviceName: string; tagIds?: number[] | undefined } },
) {
  return 'matching' in selection
    ? { matching: selection.matching }
    : { deviceIds: selection.deviceIds.join(',') };
}
