/** Any unknown path (spec §2): 'Oops! Page not found', a link home, and the path reported to the server log. */
import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { api } from '../../api.ts';

export default function NotFoundPage() {
  const location = useLocation();
  useEffect(() => {
    console.warn('404: user attempted to access a non-existent route:', location.pathname);
    api('POST', '/api/client-events/not-found', { path: location.pathname }).catch(() => {});
  }, [location.pathname]);
  return (
    <main>
      <Center mih="80vh">
        <Stack align="center">
          <Title order={1}>404</Title>
          <Text size="xl">Oops! Page not found</Text>
          <Anchor component={Link} to="/">
            Return to Home
          </Anchor>
        </Stack>
      </Center>
    </main>
  );
}
