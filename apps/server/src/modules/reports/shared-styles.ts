import type ExcelJS from 'exceljs';

/**
 * One style object per column and kind of value, shared by every cell of that column. exceljs
 * gives each new cell a style object of its own, and when it writes the cell, it renders that
 * object to XML to find its style number. For a style object it has seen before, it looks the
 * number up by identity instead (a WeakMap). That rendering was a third of exceljs's work per
 * row. The cells and their styles in the file are the same.
 */
export function sharedStyles(sheet: ExcelJS.Worksheet) {
  const shared = new Map<string, Partial<ExcelJS.Style>>();
  return (column: number, value: ExcelJS.CellValue): Partial<ExcelJS.Style> => {
    // exceljs picks a default number format by value type, so dates and numbers need their own.
    const key = `${column}:${value instanceof Date ? 'date' : typeof value}`;
    let style = shared.get(key);
    if (!style) {
      style = { ...sheet.getColumn(column).style };
      shared.set(key, style);
    }
    return style;
  };
}
