/**
 * `/auth`: tabs 'Sign In' (default) and 'Sign Up' (spec §2 /auth, §5, §8; `?tab=sign-up` opens
 * 'Sign Up', issue 28). Sign-up always ends in 'Registration Successful' for a new or an existing
 * email (the server does not reveal accounts). Sign-in asks for the second factor after the password
 * when the account has one (issue 16); its toasts replace each other (issue 28).
 * Issue 17: sign-up ends on a 'Check your email' panel with a resend; an invalid email is a message on
 * the field; a new attempt removes the previous 'Registration Failed' toast; signing in before
 * confirming says so and that a new link was sent; every confirmation link lands here with
 * `?confirmed=1` (domain/email-confirmation.ts), a broken one with `error=` and a plain message.
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
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { signInFormSchema, signUpFormSchema } from '../../../domain/account.ts';
import { EMAIL_CONFIRMED_PARAM, EMAIL_CONFIRMED_PATH } from '../../../domain/email-confirmation.ts';
import { PASSWORD_MIN_LENGTH } from '../../../domain/password-policy.ts';
import { sessionEndNotice, sessionEndReasonOf } from '../../../domain/session-end.ts';
import { ApiError, api, isEmailNotVerified } from '../../api.ts';
import { useHydrated, useHydratedHere } from '../../app/hydration.ts';
import { AUTH_TAB_PARAM, type AuthTab, homePathOf } from '../../app/paths.ts';
import { meQueryKey, usePrerenderedPageSession } from '../../app/session.ts';
import { forgetOpenSession } from '../../app/session-end.ts';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { dismissToast, notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { PasswordReasons } from './password-reasons.tsx';
import { TwoFactorStep } from './two-factor-step.tsx';

/** The answer of POST /api/auth/sign-in/email: a session, or the second factor still to come (issue 16). */
interface SignInAnswer {
  twoFactorRedirect?: boolean;
}

/** Sign-in's toasts share one slot: each replaces the one before (web/notify.ts). */
const SIGN_IN_TOAST = { slot: 'sign-in' } as const;

/** After the server opened the session: the welcome toast, then the caller's home (by role). */
function useFinishSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: meQueryKey });
    // Replaces a 'Sign In Failed' from an earlier attempt (issue 28): one sign-in toast at a time.
    notifySuccess('Welcome back!', 'You have been signed in successfully.', SIGN_IN_TOAST);
    navigate('/dashboard');
  };
}

/** Sign-in before the address is confirmed (issue 17): the server has just mailed a new link. */
const NOT_CONFIRMED_MESSAGE =
  'Your email address is not confirmed yet. We have sent you a new confirmation email: open the link in it, then sign in.';

/**
 * Issue 51 item 6: the prerendered forms (decision 033) have no submit handler until React hydrates
 * them, and a browser would submit them as bare HTML (a GET of `/auth?` that reloads the page and
 * drops what was typed: a fast click on a slow phone). Until then their submit button is disabled,
 * which also stops implicit submission (Enter in a field: HTML's "default button" rule).
 */
function useSubmittable(busy: boolean): boolean {
  return useHydratedHere() && !busy;
}

function SignInForm({ email, onSecondFactor }: { email: string; onSecondFactor: (email: string) => void }) {
  const finishSignIn = useFinishSignIn();
  const [busy, setBusy] = useState(false);
  const submittable = useSubmittable(busy);
  const [notConfirmed, setNotConfirmed] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email, password: '' },
    validate: zodValidate(signInFormSchema),
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setNotConfirmed(null);
    try {
      const answer = await api<SignInAnswer | undefined>('POST', '/api/auth/sign-in/email', {
        email: values.email.trim(),
        password: values.password,
      });
      if (answer?.twoFactorRedirect) return onSecondFactor(values.email);
      await finishSignIn();
    } catch (error) {
      if (isEmailNotVerified(error)) {
        setNotConfirmed(values.email.trim());
        notifyError('Sign In Failed', NOT_CONFIRMED_MESSAGE, SIGN_IN_TOAST);
      } else if (error instanceof ApiError && error.issues.length > 0) {
        form.setErrors(issuesToFormErrors(error.issues));
        notifyError('Sign In Failed', error.message, SIGN_IN_TOAST);
      } else {
        notifyError(
          'Sign In Failed',
          error instanceof Error ? error.message : 'Sign in failed.',
          SIGN_IN_TOAST,
        );
      }
    } finally {
      setBusy(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <Stack>
        {notConfirmed && (
          <Alert color="orange.9" title="Confirm your email address" role="alert">
            {NOT_CONFIRMED_MESSAGE} It was sent to <strong>{notConfirmed}</strong>.
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={false} disabled={!submittable} fullWidth>
          {busy ? 'Signing In...' : 'Sign In'}
        </Button>
        <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
          Forgot your password?
        </Anchor>
      </Stack>
    </form>
  );
}

function SignUpForm() {
  const [busy, setBusy] = useState(false);
  const submittable = useSubmittable(busy);
  const [reasons, setReasons] = useState<string[]>([]);
  /** The address of a successful sign-up: the 'Check your email' panel replaces the form (issue 17). */
  const [registered, setRegistered] = useState<string | null>(null);
  const failureToast = useRef<string | null>(null);
  const form = useForm({
    initialValues: { firstName: '', lastName: '', email: '', password: '' },
    validate: zodValidate(signUpFormSchema),
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setReasons([]);
    // A new attempt: the previous failure's toast is stale (issue 17).
    if (failureToast.current) dismissToast(failureToast.current);
    failureToast.current = null;
    const firstName = values.firstName.trim();
    const lastName = values.lastName.trim();
    try {
      await api('POST', '/api/auth/sign-up/email', {
        email: values.email.trim(),
        password: values.password,
        name: `${firstName} ${lastName}`,
        firstName,
        lastName,
        // The server writes the landing into every link anyway (domain/email-confirmation.ts).
        callbackURL: EMAIL_CONFIRMED_PATH,
      });
      notifySuccess('Registration Successful', 'Please check your email to confirm your account.');
      setRegistered(values.email.trim());
      form.reset();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'weak_password') {
        setReasons(error.reasons);
        form.setFieldError('password', error.message);
      } else if (error instanceof ApiError && error.issues.length > 0) {
        form.setErrors(issuesToFormErrors(error.issues));
      }
      failureToast.current = notifyError(
        'Registration Failed',
        error instanceof Error ? error.message : 'Registration failed.',
      );
    } finally {
      setBusy(false);
    }
  });
  if (registered) return <CheckYourEmail email={registered} onBack={() => setRegistered(null)} />;
  return (
    <form onSubmit={submit} noValidate aria-label="Sign up">
      <Stack>
        <TextInput
          label="First Name"
          autoComplete="given-name"
          required
          {...form.getInputProps('firstName')}
        />
        <TextInput
          label="Last Name"
          autoComplete="family-name"
          required
          {...form.getInputProps('lastName')}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          required
          description={`At least ${PASSWORD_MIN_LENGTH} characters. A passphrase of several unrelated words works well.`}
          {...form.getInputProps('password')}
        />
        <PasswordReasons reasons={reasons} />
        <Button type="submit" disabled={!submittable} fullWidth>
          {busy ? 'Creating Account...' : 'Create Account'}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * After 'Registration Successful' (issue 17): names the address and offers to send the link again
 * (POST /api/auth/send-verification-email, rate-limited per address by the server). The answer is the
 * same whether or not an account exists, so the panel says the same either way.
 */
function CheckYourEmail({ email, onBack }: { email: string; onBack: () => void }) {
  const [busy, setBusy] = useState(false);
  const [resent, setResent] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const resend = async () => {
    setBusy(true);
    setResent(false);
    try {
      await api('POST', '/api/auth/send-verification-email', { email, callbackURL: EMAIL_CONFIRMED_PATH });
      setResent(true);
    } catch (error) {
      notifyError('Error', error instanceof Error ? error.message : 'The email could not be sent.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Title order={2} size="h3" ref={heading} tabIndex={-1}>
        Check your email
      </Title>
      <Text>
        We sent a confirmation link to <strong>{email}</strong>. Open it to confirm your account, then sign
        in.
      </Text>
      <Text size="sm" c="dimmed">
        No email after a few minutes? Look in your spam folder, or send the link again.
      </Text>
      <div role="status">{resent && <Text size="sm">A new confirmation email is on its way.</Text>}</div>
      <Button onClick={resend} disabled={busy} fullWidth>
        {busy ? 'Sending...' : 'Resend confirmation email'}
      </Button>
      <Button variant="subtle" onClick={onBack} fullWidth>
        Use a different email address
      </Button>
    </Stack>
  );
}

/**
 * The 'Sign In' panel: the password step, then, for an account with a second factor, the code step.
 * An expired code step comes back to the password with the email kept and a message saying why.
 */
function SignInPanel() {
  const finishSignIn = useFinishSignIn();
  const [email, setEmail] = useState('');
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [restartMessage, setRestartMessage] = useState<string>();
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (restartMessage) title.current?.focus();
  }, [restartMessage]);
  if (step === 'code') {
    return (
      <TwoFactorStep
        onSignedIn={finishSignIn}
        onRestart={(message) => {
          setRestartMessage(message);
          setStep('password');
        }}
      />
    );
  }
  return (
    <Stack>
      {restartMessage && (
        <Alert color="yellow" title="Sign in again" role="alert" ref={title} tabIndex={-1}>
          {restartMessage}
        </Alert>
      )}
      <SignInForm
        email={email}
        onSecondFactor={(entered) => {
          setEmail(entered);
          setRestartMessage(undefined);
          setStep('code');
        }}
      />
    </Stack>
  );
}

export default function AuthPage() {
  // The form shows while the session check is under way (as the landing page does, decision 016):
  // the prerendered page (decision 033) is that first render, and a signed-in caller is sent home
  // once the check answers.
  const me = usePrerenderedPageSession();
  const hydrated = useHydrated();
  const [params, setParams] = useSearchParams();
  // The open tab is in the URL (issue 28): 'Get Started' links to the Sign Up tab (SIGN_UP_PATH).
  const tab: AuthTab = params.get(AUTH_TAB_PARAM) === 'sign-up' ? 'sign-up' : 'sign-in';
  // Why the last session ended, when it ended without 'Sign Out' (issue 51 item 6).
  const endReason = sessionEndReasonOf(params);
  // On the sign-in page no session is open: a later signed-out answer is not an ended session.
  useEffect(() => forgetOpenSession(), []);
  const openTab = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'sign-up') next.set(AUTH_TAB_PARAM, value);
        else next.delete(AUTH_TAB_PARAM);
        return next;
      },
      { replace: true },
    );
  if (me) return <Navigate to={homePathOf(me)} replace />;
  return (
    <main>
      <Center mih="100vh" py="xl">
        <Container size={460} w="100%">
          <Stack>
            <Title order={1} ta="center" size="h2">
              Healthcare Provider Credentialing System
            </Title>
            <Text ta="center" c="dimmed">
              Secure healthcare onboarding platform
            </Text>
            {params.get(EMAIL_CONFIRMED_PARAM) && !params.get('error') && (
              <Alert color={badgeColor.green} title="Email confirmed">
                Your email address is confirmed. You can sign in now.
              </Alert>
            )}
            {/* Shown once hydrated: the prerendered page (decision 033) has no query to read. */}
            {hydrated && endReason && (
              <Alert color="yellow" title={sessionEndNotice[endReason].title}>
                {sessionEndNotice[endReason].message}
              </Alert>
            )}
            {params.get('error') && (
              <Alert color="red.9" title="The link did not work">
                The confirmation link is invalid or has expired. Sign in to receive a new one.
              </Alert>
            )}
            <Paper withBorder p="lg">
              <Tabs value={tab} onChange={openTab}>
                <Tabs.List grow mb="md">
                  {/* Marked unavailable until hydrated (decision 033): the prerendered tabs have no
                      handler yet, and a click then does nothing; assistive technology says so, and
                      automated clients (the e2e suite) wait for them instead of clicking into nothing. */}
                  <Tabs.Tab value="sign-in" aria-disabled={hydrated ? undefined : true}>
                    Sign In
                  </Tabs.Tab>
                  <Tabs.Tab value="sign-up" aria-disabled={hydrated ? undefined : true}>
                    Sign Up
                  </Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="sign-in">
                  <SignInPanel />
                </Tabs.Panel>
                <Tabs.Panel value="sign-up">
                  <SignUpForm />
                </Tabs.Panel>
              </Tabs>
            </Paper>
          </Stack>
        </Container>
      </Center>
    </main>
  );
}
