import { createTheme } from '@mui/material/styles';

/** Spec §9: the only font sizes the product uses, in px. */
export const fontSizes = [8, 10, 12, 14, 16, 18, 20, 24, 28] as const;
export type FontSize = (typeof fontSizes)[number];

const px = (size: FontSize): string => `${size / 16}rem`;

const fontFamily = [
  'Nunito',
  'system-ui',
  '-apple-system',
  'Segoe UI',
  'Roboto',
  'Helvetica Neue',
  'Arial',
  'sans-serif',
].join(',');

export const theme = createTheme({
  // Spec §2: breakpoints 600 / 960 / 1280 / 1920 px.
  breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920 } },
  palette: {
    mode: 'light',
    primary: { main: '#0b4f8a', light: '#3d78b0', dark: '#073661', contrastText: '#ffffff' },
    secondary: { main: '#0f8a7e', contrastText: '#ffffff' },
    error: { main: '#c62828' },
    warning: { main: '#b26a00' },
    success: { main: '#2e7d32' },
    background: { default: '#f4f6f9', paper: '#ffffff' },
    text: { primary: '#1b2533', secondary: '#566275' },
    divider: '#e2e7ee',
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily,
    htmlFontSize: 16,
    fontSize: 14,
    h1: { fontSize: px(28), fontWeight: 800, lineHeight: 1.25 },
    h2: { fontSize: px(24), fontWeight: 800, lineHeight: 1.3 },
    h3: { fontSize: px(20), fontWeight: 700, lineHeight: 1.35 },
    h4: { fontSize: px(18), fontWeight: 700, lineHeight: 1.4 },
    h5: { fontSize: px(16), fontWeight: 700, lineHeight: 1.4 },
    h6: { fontSize: px(14), fontWeight: 700, lineHeight: 1.4 },
    subtitle1: { fontSize: px(16), fontWeight: 600 },
    subtitle2: { fontSize: px(14), fontWeight: 700 },
    body1: { fontSize: px(16), lineHeight: 1.55 },
    body2: { fontSize: px(14), lineHeight: 1.5 },
    button: { fontSize: px(14), fontWeight: 700, textTransform: 'none' },
    caption: { fontSize: px(12), lineHeight: 1.45 },
    overline: { fontSize: px(10), fontWeight: 800, letterSpacing: '0.08em', lineHeight: 1.6 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        'html, body, #root': { minHeight: '100%' },
        body: { WebkitFontSmoothing: 'antialiased' },
      },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiPaper: { defaultProps: { elevation: 0 } },
    MuiBadge: { styleOverrides: { dot: { height: 10, minWidth: 10, borderRadius: 5, border: '2px solid #ffffff' } } },
    MuiTooltip: { styleOverrides: { tooltip: { fontSize: px(12) } } },
    MuiChip: { styleOverrides: { label: { fontWeight: 700 } } },
  },
});
