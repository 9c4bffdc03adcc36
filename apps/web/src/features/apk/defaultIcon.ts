/** The picture shown when an application has no icon or its icon fails to load (an Android-like robot head). */
export const DEFAULT_ICON =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="10" fill="#e6f4ea"/>' +
      '<path d="M12 30a12 12 0 0 1 24 0z" fill="#3ddc84"/><circle cx="19" cy="25" r="1.6" fill="#fff"/>' +
      '<circle cx="29" cy="25" r="1.6" fill="#fff"/><path d="M15 16l3 4M33 16l-3 4" stroke="#3ddc84" stroke-width="2" stroke-linecap="round"/>' +
      '<rect x="12" y="31" width="24" height="8" rx="2" fill="#3ddc84"/></svg>',
  );
