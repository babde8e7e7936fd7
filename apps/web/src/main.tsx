import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Nunito is bundled with the app: no request to an external font service.
import '@fontsource/nunito/400.css';
import '@fontsource/nunito/600.css';
import '@fontsource/nunito/700.css';
import '@fontsource/nunito/800.css';
import { App } from './app/App';
import { showNoticeIfInMaintenance } from './lib/maintenance';

// Vite reports a chunk (or its CSS) that failed to preload; during maintenance the server answers 503 for the file,
// and the user belongs on the maintenance notice. Other failures still reach the route's error page.
window.addEventListener('vite:preloadError', () => void showNoticeIfInMaintenance());

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
