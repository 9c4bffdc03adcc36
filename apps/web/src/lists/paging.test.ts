import { describe, expect, it } from 'vitest';
import { changePage, FIRST_PAGE, PAGE_SIZE_OPTIONS, pageWithin } from './paging';

describe('paging', () => {
  it('starts at page 1 with 5 rows and offers 5/10/20/30/50', () => {
    expect(FIRST_PAGE).toEqual({ page: 1, size: 5 });
    expect(PAGE_SIZE_OPTIONS).toEqual(['5', '10', '20', '30', '50']);
  });

  it('steps back when the page lies past the end', () => {
    expect(pageWithin({ page: 3, size: 5 }, 10)).toEqual({ page: 2, size: 5 });
    expect(pageWithin({ page: 2, size: 5 }, 0)).toEqual({ page: 1, size: 5 });
    expect(pageWithin({ page: 2, size: 5 }, 6)).toEqual({ page: 2, size: 5 });
  });

  it('goes back to the first page when the size changes', () => {
    expect(changePage({ page: 3, size: 5 }, 3, 10)).toEqual({ page: 1, size: 10 });
    expect(changePage({ page: 1, size: 5 }, 4, 5)).toEqual({ page: 4, size: 5 });
  });
});
