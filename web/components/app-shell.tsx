/**
 * The app shell of every signed-in screen (issue 17): a header with the product's name (a link to the
 * caller's home), the user's name, 'Account' (issue 16) and 'Sign Out' (spec §2 /dashboard, /admin);
 * on section screens and /documents/:applicationId, the section navigator: a side list from 768 px
 * (Mantine's `sm`), a 'Sections' menu button opening a drawer below it. A layout route in
 * web/router.tsx renders it around the signed-in pages; it is a lazy chunk, so the landing and
 * sign-in pages never load it (decision 016). The pages keep their own `main` landmark and h1.
 *
 * Which screen is a section screen comes from the route's title handle (web/app/page-titles.ts):
 * `{ sectionKey }` plus the `:applicationId` parameter.
 */
import { Anchor, AppShell, Box, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useDeferredValue } from 'react';
import { Link, Outlet, useMatches, useParams } from 'react-router';
import { isStaff } from '../../domain/roles.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { PRODUCT_NAME } from '../app/page-titles.ts';
import { ACCOUNT_PATH, homePathOf } from '../app/paths.ts';
import { type Me, useSession } from '../app/session.ts';
import { FullPageLoader } from './full-page-loader.tsx';
import { SignOutButton } from './sign-out-button.tsx';

// The section navigator (side list and drawer): section screens only, so a chunk of its own (decision 033).
const ShellNavigator = lazy(() => import('./shell-navigator.tsx'));

/** Height of the header, in px. */
const HEADER_HEIGHT = 56;
/** Width of the section navigator's side list, in px. */
const NAVBAR_WIDTH = 260;
/** The short name shown instead of the product's name on a phone. */
const SHORT_PRODUCT_NAME = 'Credentialing';

/** The section key of the deepest matched route, when it is a section screen. */
function useCurrentSectionKey(): SectionKey | undefined {
  const matches = useMatches();
  for (const match of [...matches].reverse()) {
    const handle = match.handle as { sectionKey?: SectionKey } | undefined;
    if (handle?.sectionKey) return handle.sectionKey;
  }
  return undefined;
}

/** The name the header shows: the profile's first and last name, else the account's email. */
export function displayName(me: Me): string {
  const name = [me.profile?.firstName, me.profile?.lastName].filter(Boolean).join(' ').trim();
  return name || me.user.email;
}

function ShellHeader({ me, menu }: { me: Me; menu?: { opened: boolean; toggle: () => void } }) {
  return (
    <AppShell.Header>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
        <Group wrap="nowrap" gap="xs" miw={0}>
          {menu && (
            <Burger
              hiddenFrom="sm"
              size="sm"
              opened={menu.opened}
              onClick={menu.toggle}
              aria-label="Sections"
              aria-expanded={menu.opened}
            />
          )}
          <Anchor component={Link} to={homePathOf(me)} fw={700} c="inherit" underline="never" truncate>
            <Box component="span" visibleFrom="md">
              {PRODUCT_NAME}
            </Box>
            <Box component="span" hiddenFrom="md">
              {SHORT_PRODUCT_NAME}
            </Box>
          </Anchor>
        </Group>
        <Group wrap="nowrap" gap="sm">
          <Text size="sm" visibleFrom="sm" truncate maw={240} data-testid="shell-user-name">
            {displayName(me)}
          </Text>
          {!me.twoFactorRequired && (
            <Anchor component={Link} to={ACCOUNT_PATH} size="sm">
              Account
            </Anchor>
          )}
          <SignOutButton />
        </Group>
      </Group>
    </AppShell.Header>
  );
}

function SignedInShell({ me }: { me: Me }) {
  const sectionKey = useCurrentSectionKey();
  const { applicationId } = useParams();
  // Providers only: an administrator on a section URL is on the way to /admin.
  const navigator =
    sectionKey && applicationId && !isStaff(me.roles) ? { sectionKey, applicationId } : undefined;
  const [opened, { toggle, close }] = useDisclosure(false);

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={navigator ? { width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } } : undefined}
      padding={0}
    >
      <ShellHeader me={me} menu={navigator ? { opened, toggle } : undefined} />
      {navigator && (
        <Suspense fallback={null}>
          <ShellNavigator navigator={navigator} opened={opened} close={close} />
        </Suspense>
      )}
      {/* The pages render their own `main` (one per page, not nested). */}
      <AppShell.Main component="div">
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The layout route's element: the shell around the matched signed-in page. Before the session is
 * known, or signed out, it renders the page alone: the page's guard shows the loader or redirects.
 */
export default function AppShellLayout() {
  // As the guards (require-role.tsx): the session's answer renders the shell as a transition.
  const me = useDeferredValue(useSession().data);
  if (!me) return <Outlet />;
  return <SignedInShell me={me} />;
}
