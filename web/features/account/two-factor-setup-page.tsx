/**
 * `/account/two-factor` (issue 16): set up the second factor. Step 1 asks for the password again,
 * step 2 shows the QR code and the key and takes a first 'Authentication code', step 3 shows the ten
 * backup codes once. Administrators are sent here until they finish (the guards and every admin API
 * answer `two_factor_required` until then); providers come here from their account page. 'Sign Out'
 * is in the app shell (issue 17).
 */
import { Alert, Anchor, Button, Card, Container, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { twoFactorPasswordBodySchema } from '../../../domain/two-factor.ts';
import { ACCOUNT_PATH, roleHomePath } from '../../app/paths.ts';
import type { Me } from '../../app/session.ts';
import { twoFactorErrorMessage } from '../../app/two-factor.ts';
import { zodValidate } from '../../forms/zod-form.ts';
import { BackupCodesStep, ScanStep } from './enrolment-steps.tsx';
import { StepHeading } from './step-heading.tsx';
import { type Enrolment, useStartEnrolment } from './two-factor-api.ts';

/** Step 1: the account password, asked again before the second factor changes. */
function PasswordStep({ onStarted }: { onStarted: (enrolment: Enrolment) => void }) {
  const start = useStartEnrolment();
  const form = useForm({
    initialValues: { password: '' },
    validate: zodValidate(twoFactorPasswordBodySchema),
  });
  const submit = form.onSubmit(({ password }) =>
    start.mutate(password, {
      onSuccess: onStarted,
      onError: (error) => form.setFieldError('password', twoFactorErrorMessage(error, 'password')),
    }),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Confirm your password">
      <Stack>
        <StepHeading step={1} of={3} title="Confirm your password" />
        <Text>Enter your password again before changing how you sign in.</Text>
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          errorProps={{ role: 'alert' }}
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={start.isPending}>
          Continue
        </Button>
      </Stack>
    </form>
  );
}

/** The set-up page for the signed-in caller `me` (any role). */
export default function TwoFactorSetupPage({ me }: { me: Me }) {
  const navigate = useNavigate();
  // Read once: confirming the first code turns `twoFactorEnabled` on while step 3 is still showing.
  const [alreadyOn] = useState(me.user.twoFactorEnabled);
  const [forced] = useState(me.twoFactorRequired);
  const [step, setStep] = useState<'password' | 'scan' | 'codes'>('password');
  // The key and the backup codes live here only, and go when the page does.
  const [enrolment, setEnrolment] = useState<Enrolment>();

  return (
    <main>
      <Container size="sm" pb="xl">
        <Title order={1} size="h3" py="md">
          Two-factor authentication
        </Title>
        <Card withBorder padding="lg">
          {alreadyOn ? (
            <Stack>
              <Text>Two-factor authentication is already on for this account.</Text>
              <Anchor component={Link} to={ACCOUNT_PATH}>
                Back to your account
              </Anchor>
            </Stack>
          ) : (
            <Stack>
              {forced && step === 'password' && (
                <Alert color="blue" title="Set up two-factor authentication to continue">
                  Administrators sign in with a password and a code from an authenticator app. Set it up now:
                  it takes about two minutes.
                </Alert>
              )}
              {step === 'password' && (
                <PasswordStep
                  onStarted={(started) => {
                    setEnrolment(started);
                    setStep('scan');
                  }}
                />
              )}
              {step === 'scan' && enrolment && (
                <ScanStep totpURI={enrolment.totpURI} onConfirmed={() => setStep('codes')} />
              )}
              {step === 'codes' && enrolment && (
                <BackupCodesStep
                  codes={enrolment.backupCodes}
                  email={me.user.email}
                  onDone={() => {
                    setEnrolment(undefined);
                    navigate(roleHomePath(me.roles));
                  }}
                />
              )}
              {!forced && step !== 'codes' && (
                <Anchor component={Link} to={ACCOUNT_PATH} size="sm">
                  Cancel and go back to your account
                </Anchor>
              )}
            </Stack>
          )}
        </Card>
      </Container>
    </main>
  );
}
