/**
 * Orders two version strings part by part: runs of digits as numbers, other runs as text
 * ("1.10" after "1.9", "2.0-rc1" before "2.0-rc2"); equal parts then the shorter first.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.match(/\d+|[^\d]+/g) ?? [];
  const pb = b.match(/\d+|[^\d]+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    if (nx && ny) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return Math.sign(pa.length - pb.length);
}
