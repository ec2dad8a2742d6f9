/**
 * `/`: the landing page (spec §1, §2). A signed-in user goes to /dashboard. Below the spec's title,
 * tagline and buttons: how it works, the documents to have at hand and how data is protected (issue 17).
 * 'Get Started' and 'Start Application' open the Sign Up tab, 'Sign In' and 'Provider Login' the Sign
 * In tab; the footer's year is the visitor's current year (issue 28).
 * The page shows while the session check is under way, not a loader: a visitor's first paint does
 * not wait for that round trip, and a signed-in user sees it for that moment only (decision 016).
 */
import { Anchor, Box, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { Link, Navigate } from 'react-router';
import { SIGN_UP_PATH } from '../../app/paths.ts';
import { usePrerenderedPageSession } from '../../app/session.ts';

// The steps, documents and protection panels (issue 17): they read the domain registry, which brings
// zod, so they are a lazy chunk and the first paint stays as light as before (decision 016).
const LandingDetails = lazy(() => import('./landing-details.tsx'));
/** Room kept for the panels while their chunk loads (px), so the footer does not jump. */
const DETAILS_MIN_HEIGHT = 420;

/** Nothing to subscribe to: the year is read at each render. */
const noSubscription = () => () => {};

/**
 * The visitor's current year. The prerendered page (decision 033) shows the build's year; hydration
 * renders that too (React reads the server snapshot then), and React renders again at once with the
 * visitor's year if it differs, instead of a hydration mismatch.
 */
function useCurrentYear(): number {
  return useSyncExternalStore(
    noSubscription,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}

export default function LandingPage() {
  const year = useCurrentYear();
  const me = usePrerenderedPageSession();
  if (me) return <Navigate to="/dashboard" replace />;
  return (
    <>
      <header>
        <Container size="lg" py="md">
          <Group justify="space-between">
            <Text fw={700}>Healthcare Provider Credentialing System</Text>
            <Group gap="sm">
              <Button component={Link} to="/auth" variant="default">
                Sign In
              </Button>
              <Button component={Link} to={SIGN_UP_PATH}>
                Get Started
              </Button>
            </Group>
          </Group>
        </Container>
      </header>
      <main>
        <Container size="lg" py={80}>
          <Stack align="center" gap="lg" ta="center">
            <Title order={1}>Healthcare Provider Credentialing System</Title>
            <Text size="xl" c="dimmed">
              Secure healthcare onboarding platform
            </Text>
            <Group justify="center">
              <Button component={Link} to={SIGN_UP_PATH} size="lg">
                Start Application
              </Button>
              <Button component={Link} to="/auth" size="lg" variant="outline">
                Provider Login
              </Button>
            </Group>
          </Stack>
          {/* Below the spec's texts: loaded after first paint, its height kept meanwhile. */}
          <Suspense fallback={<Box mih={DETAILS_MIN_HEIGHT} />}>
            <LandingDetails />
          </Suspense>
        </Container>
      </main>
      <footer>
        <Container size="lg" py="md">
          <Text size="sm" c="dimmed" ta="center">
            © {year} Healthcare Provider Credentialing System. All rights reserved.{' '}
            <Anchor component={Link} to="/auth" size="sm" underline="always">
              Sign In
            </Anchor>
          </Text>
        </Container>
      </footer>
    </>
  );
}
