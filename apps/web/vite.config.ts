import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import {
  earlyRequestPaths,
  selectedDeviceHintKey,
  signedOutHintKey,
  startEarlyRequests,
} from './src/lib/earlyRequests.js';

// index.html's marker becomes an inline script that starts the app's first requests while its code still loads
// (src/lib/earlyRequests.ts): inline, because a script file would wait for the browser to fetch and schedule it.
// Its URLs come from the contracts' endpoints (TypeScript source in a workspace package), so this config is loaded
// through Vite's module runner: `--configLoader runner` in package.json's scripts.
const earlyRequestsMarker = '<!-- early requests (vite.config.ts) -->';
const inlineEarlyRequests: Plugin = {
  name: 'insilico-early-requests',
  transformIndexHtml(html) {
    if (!html.includes(earlyRequestsMarker)) throw new Error(`index.html lacks the marker ${earlyRequestsMarker}`);
    return html.replace(
      earlyRequestsMarker,
      `<script>(${startEarlyRequests.toString()})(window, ${JSON.stringify(earlyRequestPaths)}, ${JSON.stringify(selectedDeviceHintKey)}, ${JSON.stringify(signedOutHintKey)});</script>`,
    );
  },
};

// The Nunito files the first screen draws with (body 400, bold 700, headings 800) are preloaded: found only once the
// first render has laid out text, they would arrive after it and make the browser lay the page out again.
const firstScreenFonts = /^assets\/nunito-latin-(400|700|800)-normal-[\w-]+\.woff2$/;
const preloadFirstScreenFonts: Plugin = {
  name: 'insilico-preload-fonts',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, context) =>
      Object.keys(context.bundle ?? {})
        .filter((file) => firstScreenFonts.test(file))
        .map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: '', href: `/${file}` },
          injectTo: 'head' as const,
        })),
  },
};

// In development the API, its event stream and the embedded sign-in issuer live on the server
// (port 3000); proxying keeps every call same-origin, as it is in production.
const server = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), inlineEarlyRequests, preloadFirstScreenFonts],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: server },
      '/oidc': { target: server },
      '/maintenance.html': { target: server },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps stay in dist for reading error reports (stack traces) but are not referenced from the files, and the
    // server does not serve them (apps/server/src/app.ts): the source is not handed to every visitor.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|swr)[\\/]/ },
            // MUI's core (styles, system, emotion) only: each component lands with the pages that use it, so the
            // start-up bundle carries only what the shell draws.
            {
              name: 'mui',
              test: /node_modules[\\/](@emotion|stylis|@mui[\\/](system|styled-engine|utils|private-theming|material[\\/](styles|utils)))[\\/]/,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
});
