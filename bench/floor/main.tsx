/**
 * The floor of `npm run bench:web` (issue 35 goal 3): React 19 and Mantine, at the project's own
 * versions, rendering only a bare sign-in form, client-side, with nothing else. What the app's pages
 * are measured against in the same run: no page can be expected to paint sooner than this.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import {
  Button,
  Container,
  createTheme,
  MantineProvider,
  PasswordInput,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** Mantine's default blue at shade 6 gives white text 3.5:1; shade 8 passes WCAG AA, as the app's theme does. */
const theme = createTheme({ primaryShade: 8 });

function SignInForm() {
  return (
    <main>
      <Container size={460} py="xl">
        <form aria-label="Sign in" noValidate onSubmit={(event) => event.preventDefault()}>
          <Stack>
            <Title order={1} size="h2" ta="center">
              Sign In
            </Title>
            <TextInput label="Email" type="email" autoComplete="email" required />
            <PasswordInput label="Password" autoComplete="current-password" required />
            <Button type="submit" fullWidth>
              Sign In
            </Button>
          </Stack>
        </form>
      </Container>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <SignInForm />
    </MantineProvider>
  </StrictMode>,
);
