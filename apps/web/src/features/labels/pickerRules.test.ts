import { describe, expect, it } from 'vitest';
import { chosenAfterTick, everyChoosableChosen, pickerSelection, selectionParams } from './pickerRules';

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

describe('"all N matching" in a label picker', () => {
  const rows = [panel(1), panel(2, 'oem'), panel(3), panel(4)];

  it('is offered once every listed panel that can take it is chosen, not before, not for an empty list', () => {
    expect(everyChoosableChosen(rows, [1, 3], otherSeries)).toBe(false);
    expect(everyChoosableChosen(rows, [1, 3, 4], otherSeries)).toBe(true);
    // Without a rule every listed panel must be chosen.
    expect(everyChoosableChosen(rows, [1, 3, 4])).toBe(false);
    expect(everyChoosableChosen([], [], otherSeries)).toBe(false);
    expect(everyChoosableChosen([panel(2, 'oem')], [], otherSeries)).toBe(false);
  });

  it('sends the ticked labels as a filter once chosen, never the ids listed in the browser', () => {
    const selection = pickerSelection({ all: true, ticked: [7, 9], chosen: [1, 3, 4], rows });
    expect(selection).toEqual({ matching: { deviceName: '', tagIds: [7, 9] } });
    expect(selectionParams(selection)).toEqual({ matching: { deviceName: '', tagIds: [7, 9] } });
  });

  it('sends the chosen panels still listed otherwise, as the calls take ids', () => {
    const selection = pickerSelection({ all: false, ticked: [7], chosen: [1, 4, 99], rows });
    expect(selection).toEqual({ deviceIds: [1, 4] });
    expect(selectionParams(selection)).toEqual({ deviceIds: '1,4' });
    // "All" with no label ticked names nothing as a filter: the ids are sent.
    expect(pickerSelection({ all: true, ticked: [], chosen: [3], rows })).toEqual({ deviceIds: [3] });
  });
});
