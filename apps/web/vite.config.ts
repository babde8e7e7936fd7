import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In development the API, its event stream and the embedded sign-in issuer live on the server
// (port 3000); proxying keeps every call same-origin, as it is in production.
const server = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
    sourcemap: true,
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
