/**
 * Whether a panel's installed app is signed by another certificate than `signerSha256`: Android
 * refuses such an update, so neither Renew nor an install sends it. A panel that reported no
 * signer ('') is not known to differ.
 */
export function signedByAnother(app: { signer_sha256: string }, signerSha256: string): boolean {
  return app.signer_sha256 !== '' && app.signer_sha256 !== signerSha256;
}
