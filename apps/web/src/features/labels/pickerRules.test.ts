import { describe, expect, it } from 'vitest';
import { chosenAfterTick } from './pickerRules';

const panel = (deviceId: number, series = 'x9_vn') => ({ deviceId, series });
const otherSeries = (row: { series: string }) => (row.series === 'x9_vn' ? undefined : 'another series');

describe('the panels a label picker chooses', () => {
  it('chooses every panel of a ticked label that can take it, whatever page it is on', () => {
    const classrooms = [panel(1), panel(2, 'oem'), ...Array.from({ length: 30 }, (_, i) => panel(10 + i))];
    const chosen = chosenAfterTick([], classrooms, classrooms, otherSeries);
    expect(chosen).toHaveLength(31);
    expect(chosen).not.toContain(2);
  });

  it('keeps a panel unticked by hand when another label is ticked, unless that label holds it', () => {
    const library = [panel(1), panel(3)];
    const lobby = [panel(3), panel(4)];
    // Panel 3 was unticked by hand; ticking the lobby (which holds it) chooses it again, with 4.
    expect(chosenAfterTick([1], [...library, panel(4)], lobby).sort()).toEqual([1, 3, 4]);
    // Ticking a label that does not hold it leaves it out.
    expect(chosenAfterTick([1], [...library, panel(5)], [panel(5)]).sort()).toEqual([1, 5]);
  });

  it('drops the panels of a label unticked, keeping those another ticked label holds', () => {
    expect(chosenAfterTick([1, 3, 4], [panel(3), panel(4)], []).sort()).toEqual([3, 4]);
  });
});
