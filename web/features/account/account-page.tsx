/**
 * `/account` (issue 16): the signed-in user's security settings. 'Two-factor authentication: On/Off'
 * with 'Set up' (the set-up page) and, for providers with it on, 'Turn off'. Administrators must
 * keep it on: they see no 'Turn off' (and the server refuses it). 'Sign Out' is in the app shell (issue 17).
 */
import { Anchor, Badge, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { isStaff } from '../../../domain/roles.ts';
import { roleHomePath, TWO_FACTOR_SETUP_PATH } from '../../app/paths.ts';
import type { Me } from '../../app/session.ts';
import { badgeColor } from '../../theme.ts';
import { LegalNameCard } from './legal-name-card.tsx';
import { TurnOffDialog } from './turn-off-dialog.tsx';

/** The account page for `me`. */
export default function AccountPage({ me }: { me: Me }) {
  const [turningOff, setTurningOff] = useState(false);
  const on = me.user.twoFactorEnabled;
  // Staff (administrators and every staff role of issue 32) must keep the second factor.
  const isStaffMember = isStaff(me.roles);
  return (
    <>
      <main>
        <Container size="sm" pb="xl">
          <Stack>
            <Title order={1} size="h3" pt="md">
              Account
            </Title>
            <Anchor component={Link} to={roleHomePath(me.roles)} size="sm">
              {isStaffMember ? 'Back to the admin dashboard' : 'Back to your dashboard'}
            </Anchor>
            <Text style={{ overflowWrap: 'anywhere' }}>
              Signed in as <strong>{me.user.email}</strong>
            </Text>
            {!isStaffMember && <LegalNameCard />}
            <Card withBorder padding="lg" component="section" aria-labelledby="security-title">
              <Stack>
                <Title order={2} size="h4" id="security-title">
                  Security
                </Title>
                <Group justify="space-between" wrap="wrap">
                  <Text fw={600} id="two-factor-status">
                    Two-factor authentication:{' '}
                    <Badge color={on ? badgeColor.green : badgeColor.gray} component="span">
                      {on ? 'On' : 'Off'}
                    </Badge>
                  </Text>
                  {!on && (
                    <Button component={Link} to={TWO_FACTOR_SETUP_PATH}>
                      Set up
                    </Button>
                  )}
                  {on && !isStaffMember && (
                    <Button variant="default" color="red.9" onClick={() => setTurningOff(true)}>
                      Turn off
                    </Button>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {on
                    ? 'Sign-in asks for a code from your authenticator app (or a backup code) after your password.'
                    : 'Add a code from an authenticator app to your sign-in, so a stolen password is not enough.'}
                </Text>
                {on && isStaffMember && (
                  <Text size="sm">
                    Staff must keep two-factor authentication on. If you lose your authenticator and your
                    backup codes, ask an administrator to reset it.
                  </Text>
                )}
              </Stack>
            </Card>
          </Stack>
        </Container>
      </main>
      <TurnOffDialog opened={turningOff} onClose={() => setTurningOff(false)} />
    </>
  );
}
