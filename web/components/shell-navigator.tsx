/**
 * The section navigator's two places in the app shell (issue 17): the side list from Mantine's `sm`
 * breakpoint, the drawer below it. Only section screens show it, so it is its own chunk (with
 * Mantine's ScrollArea and Drawer), loaded by web/components/app-shell.tsx when a section screen
 * opens, not with /dashboard or /admin (decision 033).
 */
import { AppShell, Drawer, ScrollArea } from '@mantine/core';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { SectionNavigator } from './section-navigator.tsx';

/** The landmark's name of both lists. */
const NAVIGATOR_LABEL = 'Application sections';

export interface ShellNavigatorProps {
  /** The application and the section screen shown now. */
  navigator: { sectionKey: SectionKey; applicationId: string };
  /** The phone menu (the drawer) is open. */
  opened: boolean;
  close: () => void;
}

/** The side list (from `sm`) and the phone drawer of the section navigator. */
export default function ShellNavigator({ navigator, opened, close }: ShellNavigatorProps) {
  return (
    <>
      {/* Not rendered below `sm` (display: none, not only moved off screen): the drawer holds the list there. */}
      <AppShell.Navbar aria-label={NAVIGATOR_LABEL} visibleFrom="sm">
        <ScrollArea h="100%" p="xs">
          <SectionNavigator applicationId={navigator.applicationId} currentKey={navigator.sectionKey} />
        </ScrollArea>
      </AppShell.Navbar>
      <Drawer
        opened={opened}
        onClose={close}
        hiddenFrom="sm"
        size="xs"
        title="Sections"
        closeButtonProps={{ 'aria-label': 'Close the section menu' }}
      >
        <nav aria-label={NAVIGATOR_LABEL}>
          <SectionNavigator
            applicationId={navigator.applicationId}
            currentKey={navigator.sectionKey}
            onNavigate={close}
          />
        </nav>
      </Drawer>
    </>
  );
}
