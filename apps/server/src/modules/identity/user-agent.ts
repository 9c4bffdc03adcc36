/** A user agent as a person names it: "Chrome 120 on Windows", "Safari 17 on iOS"; an unknown one as "unknown". */
export function browserOf(userAgent: string): string {
  if (!userAgent) return 'unknown';
  const browsers: Array<[string, RegExp]> = [
    ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
    ['Opera', /OPR\/(\d+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
    ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
    ['Safari', /Version\/(\d+).*Safari\//],
    ['curl', /curl\/(\d+)/],
  ];
  const systems: Array<[string, RegExp]> = [
    ['Android', /Android/],
    ['iOS', /iPhone|iPad|iPod/],
    ['Windows', /Windows/],
    ['macOS', /Mac OS X|Macintosh/],
    ['Linux', /Linux|X11/],
  ];
  const browser = browsers.find(([, re]) => re.test(userAgent));
  const system = systems.find(([, re]) => re.test(userAgent));
  const name = browser
    ? `${browser[0]} ${browser[1].exec(userAgent)?.[1] ?? ''}`.trim()
    : userAgent.slice(0, 40);
  return system ? `${name} on ${system[0]}` : name;
}
