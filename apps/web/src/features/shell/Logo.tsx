/** The PanelFleet mark: a panel on a stand. */
export function Logo({ size = 32, color = 'currentColor' }: { size?: number; color?: string }) {
  return (
    <svg data-testid="logo" width={size} height={size} viewBox="0 0 32 32" role="img" aria-label="PanelFleet">
      <rect x="3" y="5" width="26" height="18" rx="3" fill={color} />
      <rect x="6" y="8" width="20" height="12" rx="1" fill="#fff" opacity="0.9" />
      <rect x="13" y="23" width="6" height="3" fill={color} />
      <rect x="9" y="26" width="14" height="2" rx="1" fill={color} />
    </svg>
  );
}
