/**
 * Steps 2 and 3 of the second factor's set-up (issue 16): scan the QR code (or type the key shown as
 * text) and confirm with a first 'Authentication code'; then the ten backup codes, shown once.
 */
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { verifyTotpBodySchema } from '../../../domain/two-factor.ts';
import { twoFactorErrorMessage } from '../../app/two-factor.ts';
import { zodValidate } from '../../forms/zod-form.ts';
import { badgeColor } from '../../theme.ts';
import { StepHeading } from './step-heading.tsx';
import {
  backupCodesFileText,
  downloadTextFile,
  groupInFours,
  secretOfTotpUri,
  useConfirmEnrolment,
} from './two-factor-api.ts';

const QR_ALT = 'QR code to add this account to your authenticator app; the key is also shown below as text';

/** The QR code of `uri` as a PNG data URL (drawn in the browser: the key never leaves the page). */
function useQrCode(uri: string): string | undefined {
  const [dataUrl, setDataUrl] = useState<string>();
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(uri, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
      .then((url) => {
        if (current) setDataUrl(url);
      })
      .catch(() => {
        if (current) setDataUrl(undefined);
      });
    return () => {
      current = false;
    };
  }, [uri]);
  return dataUrl;
}

/** Step 2: the QR code, the key as copyable text, and the first code that turns the factor on. */
export function ScanStep({ totpURI, onConfirmed }: { totpURI: string; onConfirmed: () => void }) {
  const qrCode = useQrCode(totpURI);
  const secret = secretOfTotpUri(totpURI);
  const confirm = useConfirmEnrolment();
  const form = useForm({ initialValues: { code: '' }, validate: zodValidate(verifyTotpBodySchema) });
  const submit = form.onSubmit(({ code }) =>
    confirm.mutate(verifyTotpBodySchema.parse({ code }).code, {
      onSuccess: onConfirmed,
      onError: (error) => form.setFieldError('code', twoFactorErrorMessage(error, 'code')),
    }),
  );
  return (
    <Stack>
      <StepHeading step={2} of={3} title="Scan the QR code" />
      <Text>
        Open an authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password) and
        add an account by scanning this QR code.
      </Text>
      <Group justify="center">
        {qrCode ? (
          <Image src={qrCode} alt={QR_ALT} w={200} h={200} />
        ) : (
          <div style={{ width: 200, height: 200 }} />
        )}
      </Group>
      <section aria-labelledby="setup-key-label">
        <Text id="setup-key-label" fw={600} size="sm">
          Setup key
        </Text>
        <Text size="sm" c="dimmed" mb={4}>
          If you cannot scan, enter this key in the app instead (time-based, 6 digits).
        </Text>
        <Stack gap="xs" align="flex-start">
          <Code fz="md" display="block" p="xs" w="100%" style={{ wordSpacing: '0.25em' }}>
            {groupInFours(secret)}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                size="xs"
                onClick={copy}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                aria-label={copied ? 'Setup key copied' : 'Copy setup key'}
              >
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
        </Stack>
      </section>
      <form onSubmit={submit} noValidate aria-label="Confirm two-factor authentication">
        <Stack>
          <TextInput
            label="Authentication code"
            description="The 6-digit code the app now shows for this account."
            required
            autoComplete="one-time-code"
            inputMode="numeric"
            spellCheck={false}
            maxLength={9}
            errorProps={{ role: 'alert' }}
            {...form.getInputProps('code')}
          />
          <Button type="submit" loading={confirm.isPending}>
            Confirm
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

/** Step 3: the ten backup codes, shown this once, with 'Download' and 'Copy'; then 'Continue'. */
export function BackupCodesStep({
  codes,
  email,
  onDone,
}: {
  codes: readonly string[];
  email: string;
  onDone: () => void;
}) {
  const text = codes.join('\n');
  return (
    <Stack>
      <StepHeading step={3} of={3} title="Save your backup codes" />
      <Alert color={badgeColor.green} title="Two-factor authentication is on">
        From now on, sign-in asks for a code from your authenticator app after your password.
      </Alert>
      <Text>
        If you lose your phone, sign in with one of these backup codes instead. Each code works once. Save
        them now: they will not be shown again.
      </Text>
      <SimpleGrid
        cols={2}
        component="ul"
        aria-label="Backup codes"
        spacing="xs"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md">{code}</Code>
          </li>
        ))}
      </SimpleGrid>
      <Group>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() =>
            downloadTextFile('credentialing-backup-codes.txt', backupCodesFileText(codes, email))
          }
        >
          Download
        </Button>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              aria-label={copied ? 'Backup codes copied' : 'Copy backup codes'}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        Keep them somewhere safe, away from this device: a password manager works well.
      </Text>
      <Button onClick={onDone}>Continue</Button>
    </Stack>
  );
}
