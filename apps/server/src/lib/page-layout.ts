import { escapeHtml } from './html';

export const productName = 'InSilico Workspace';

/** The look of the app (Nunito, the same palette) for the pages the server renders itself (issuer, maintenance). */
const styles = `
@font-face { font-family: Nunito; font-weight: 400; font-display: swap; src: url(/_fonts/nunito-400.woff2) format('woff2'); }
@font-face { font-family: Nunito; font-weight: 700; font-display: swap; src: url(/_fonts/nunito-700.woff2) format('woff2'); }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; background: #f4f6fa;
  font-family: Nunito, system-ui, sans-serif; font-size: 14px; color: #1c2433; }
main { width: 100%; max-width: 420px; margin: 24px; background: #fff; border-radius: 12px; padding: 32px;
  box-shadow: 0 1px 3px rgba(16,24,40,.08), 0 8px 24px rgba(16,24,40,.06); }
.brand { font-weight: 700; font-size: 16px; color: #1f4fd1; margin-bottom: 24px; letter-spacing: .2px; }
h1 { font-size: 24px; margin: 0 0 8px; }
p { line-height: 1.5; margin: 0 0 16px; color: #4a5568; }
label { display: block; font-weight: 700; font-size: 12px; margin: 16px 0 6px; }
input { width: 100%; padding: 10px 12px; font: inherit; font-size: 16px; border: 1px solid #c9d1de; border-radius: 8px; }
input:focus { outline: 2px solid #1f4fd1; outline-offset: 1px; border-color: #1f4fd1; }
input[aria-invalid=true] { border-color: #c62828; }
button { margin-top: 24px; width: 100%; padding: 12px; font: inherit; font-weight: 700; font-size: 16px; color: #fff;
  background: #1f4fd1; border: 0; border-radius: 8px; cursor: pointer; }
button:hover { background: #1a43b3; } button:focus-visible { outline: 3px solid #9db5f5; }
.hint { font-size: 12px; color: #5b6578; margin-top: 6px; }
.error { color: #c62828; font-size: 12px; margin: 6px 0 0; }
.alert { background: #fdecea; color: #8a1c1c; border-radius: 8px; padding: 10px 12px; margin: 0 0 8px; }
.ok { background: #e8f5e9; color: #1b5e20; border-radius: 8px; padding: 10px 12px; margin: 0 0 8px; }
.switch { margin-top: 20px; text-align: center; } a { color: #1f4fd1; font-weight: 700; }
`;

export interface PageOptions {
  title: string;
  body: string;
  /** Nonce of the one inline script a page may carry (CSP). */
  scriptNonce?: string;
  script?: string;
}

export function page({ title, body, scriptNonce, script }: PageOptions): string {
  const scriptTag = script && scriptNonce ? `<script nonce="${escapeHtml(scriptNonce)}">${script}</script>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${productName}</title><style>${styles}</style></head>
<body><main><div class="brand">${productName}</div>${body}</main>${scriptTag}</body></html>`;
}
