import { Badge, type CSSVariablesResolver, createTheme, Notification } from '@mantine/core';
import type { ExpiryUrgency } from '../domain/credentials/expiring-credentials.ts';

/**
 * Theme: indigo at shade 7/8 and autoContrast keep text on filled colours at WCAG AA
 * (stock indigo 6 and filled yellow/green/red badges fail; stack.md). Transitions (toasts, modals)
 * are switched off for users whose system asks for reduced motion (WCAG 2.3.3).
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  respectReducedMotion: true,
  primaryShade: { light: 7, dark: 8 },
  autoContrast: true,
  defaultRadius: 'md',
  components: {
    // Badges read as the spec writes them ('Draft', 'Under Review', 'Admin'), not upper-cased, and are
    // never squeezed by a long neighbour in a row ('Administr...'; issue 17).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0 }, label: { textTransform: 'none' } } }),
    // Toasts: a named close button and a description dark enough for AA.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-8)' } },
    }),
  },
});

/**
 * Badge fills that pass AA with their (auto-contrast) text: red at 9 per stack.md; green darker than
 * Mantine's green.9 (#2b8a3e gives white text only 4.4:1; #1e6b30 gives 6.6:1).
 */
export const badgeColor = {
  yellow: 'yellow.3',
  blue: 'blue.8',
  // Under Review: Mantine's orange.9 (#d9480f) gives white text 4.1:1; #a63c06 gives 6.4:1.
  orange: '#a63c06',
  green: '#1e6b30',
  red: 'red.9',
  gray: 'gray.7',
} as const;

/**
 * Badge colours of an expiry's urgency (issue 14, decision 023): red expired or within 7 days, orange
 * within 30, yellow within 60, grey within 90. The admin 'Expiring' tab reads it; the dashboard card
 * keeps the same table.
 */
export const expiryUrgencyColor: Record<ExpiryUrgency, string> = {
  expired: badgeColor.red,
  within_7: badgeColor.red,
  within_30: badgeColor.orange,
  within_60: badgeColor.yellow,
  within_90: badgeColor.gray,
};

/** Dimmed text at gray.7 (stock dimmed gray.6 fails AA contrast on white). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Error text under inputs at red.9: stock red.6 fails AA for small text.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
