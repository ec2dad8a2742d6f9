/**
 * The second step of a sign-in (issue 16): after a right password for an account with a second
 * factor, the 6-digit 'Authentication code' from the authenticator app, or a 'Backup code' instead.
 * No 'Trust this device': every sign-in asks again. The codes live in this form's state only.
 */
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { verifyBackupCodeBodySchema, verifyTotpBodySchema } from '../../../domain/two-factor.ts';
import { api } from '../../api.ts';
import { challengeOverMessage, twoFactorErrorMessage } from '../../app/two-factor.ts';
import { zodValidate } from '../../forms/zod-form.ts';

type Method = 'totp' | 'backup';

const METHODS = {
  totp: {
    path: '/api/auth/two-factor/verify-totp',
    schema: verifyTotpBodySchema,
    field: 'code',
    label: 'Authentication code',
    help: 'Open your authenticator app and enter the 6-digit code it shows for this account.',
  },
  backup: {
    path: '/api/auth/two-factor/verify-backup-code',
    schema: verifyBackupCodeBodySchema,
    field: 'backupCode',
    label: 'Backup code',
    help: 'Enter one of the backup codes you saved when you set up two-factor authentication. Each works once.',
  },
} as const;

/**
 * The code step. `onSignedIn` runs after the server opened the session; `onRestart(message)` when the
 * challenge is over (expired after 10 minutes, or too many wrong codes) and the password is needed again.
 */
export function TwoFactorStep(props: {
  onSignedIn: () => Promise<void>;
  onRestart: (message: string) => void;
}) {
  const [method, setMethod] = useState<Method>('totp');
  return (
    <Stack>
      <Title order={2} size="h3" id="two-factor-title">
        Two-factor authentication
      </Title>
      {/* A new form per method: its own schema, an empty field, and the focus on it. */}
      <CodeForm key={method} method={method} {...props} />
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => setMethod(method === 'totp' ? 'backup' : 'totp')}
      >
        {method === 'totp' ? 'Use a backup code instead' : 'Use your authenticator app instead'}
      </Anchor>
    </Stack>
  );
}

function CodeForm({
  method,
  onSignedIn,
  onRestart,
}: {
  method: Method;
  onSignedIn: () => Promise<void>;
  onRestart: (message: string) => void;
}) {
  const current = METHODS[method];
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const form = useForm({
    initialValues: { code: '' },
    validate: zodValidate(current.schema),
  });
  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = form.onSubmit(async ({ code }) => {
    setBusy(true);
    try {
      await api('POST', current.path, current.schema.parse({ code }));
      await onSignedIn();
    } catch (error) {
      const over = challengeOverMessage(error);
      if (over) return onRestart(over);
      form.setFieldError('code', twoFactorErrorMessage(error, current.field));
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="two-factor-title">
      <Stack>
        <Text size="sm" id="two-factor-help">
          {current.help}
        </Text>
        <TextInput
          ref={input}
          label={current.label}
          required
          autoComplete="one-time-code"
          inputMode={method === 'totp' ? 'numeric' : 'text'}
          spellCheck={false}
          autoCapitalize="off"
          maxLength={method === 'totp' ? 9 : 32}
          errorProps={{ role: 'alert' }}
          {...form.getInputProps('code')}
        />
        <Button type="submit" loading={busy} fullWidth>
          Verify
        </Button>
      </Stack>
    </form>
  );
}
