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
