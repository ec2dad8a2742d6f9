/**
 * Password recovery (issue 2; the spec's product lacked it): `/forgot-password` asks for the email
 * and always answers the same way (no account enumeration); `/reset-password?token=…` sets a new
 * password, which ends every session of the account on the server.
 */
import {
  Alert,
  Anchor,
  Button,
  Center,
  Container,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../domain/password-policy.ts';
import { ApiError, api } from '../../api.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { PasswordReasons } from './password-reasons.tsx';

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main>
      <Center mih="100vh" py="xl">
        <Container size={460} w="100%">
          <Paper withBorder p="lg">
            <Stack>
              <Title order={1} size="h2">
                {title}
              </Title>
              {children}
              <Anchor component={Link} to="/auth" size="sm">
                Back to Sign In
              </Anchor>
            </Stack>
          </Paper>
        </Container>
      </Center>
    </main>
  );
}

export function ForgotPasswordPage() {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (v) => (v.trim() ? null : 'Email is required') },
  });
  const submit = form.onSubmit(async ({ email }) => {
    setBusy(true);
    try {
      await api('POST', '/api/auth/request-password-reset', {
        email: email.trim(),
        redirectTo: '/reset-password',
      });
      setSent(true);
    } catch (error) {
      notifyError('Error', error instanceof Error ? error.message : 'Failed to request a password reset');
    } finally {
      setBusy(false);
    }
  });
  return (
    <Frame title="Reset your password">
      {sent ? (
        <Alert color="green" title="Check your email" role="status">
          If an account exists for that address, we sent a link to choose a new password. The link expires in
          one hour.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Request a password reset">
          <Stack>
            <Text size="sm">
              Enter the email address of your account. We will send you a link to choose a new password.
            </Text>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              {...form.getInputProps('email')}
            />
            <Button type="submit" disabled={busy}>
              {busy ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </Stack>
        </form>
      )}
    </Frame>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [busy, setBusy] = useState(false);
  const [reasons, setReasons] = useState<string[]>([]);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (v) => (v ? null : 'Password is required'),
      confirm: (v, values) => (v === values.password ? null : 'The passwords do not match'),
    },
  });
  const submit = form.onSubmit(async ({ password }) => {
    setBusy(true);
    setReasons([]);
    try {
      await api('POST', '/api/auth/reset-password', { newPassword: password, token });
      notifySuccess('Password changed', 'Sign in with your new password.');
      navigate('/auth');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'weak_password') setReasons(error.reasons);
      notifyError('Error', error instanceof Error ? error.message : 'Failed to reset the password');
    } finally {
      setBusy(false);
    }
  });
  if (!token || params.get('error')) {
    return (
      <Frame title="Reset your password">
        <Alert color="red" title="The link did not work">
          This reset link is invalid or has expired.{' '}
          <Anchor component={Link} to="/forgot-password">
            Request a new one
          </Anchor>
          .
        </Alert>
      </Frame>
    );
  }
  return (
    <Frame title="Choose a new password">
      <form onSubmit={submit} noValidate aria-label="Choose a new password">
        <Stack>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
          />
          <PasswordReasons reasons={reasons} />
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Set New Password'}
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}
