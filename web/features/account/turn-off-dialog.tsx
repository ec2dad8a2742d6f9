/**
 * 'Turn off' for a provider's second factor (issue 16): a dialog that says what changes and asks for
 * the password; the server refuses administrators (403) whatever the web shows.
 */
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { twoFactorPasswordBodySchema } from '../../../domain/two-factor.ts';
import { twoFactorErrorMessage } from '../../app/two-factor.ts';
import { zodValidate } from '../../forms/zod-form.ts';
import { notifySuccess } from '../../notify.ts';
import { useTurnOffTwoFactor } from './two-factor-api.ts';

/** The confirmation dialog; `onClose` runs on 'Cancel', Escape, and after the factor is off. */
export function TurnOffDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const turnOff = useTurnOffTwoFactor();
  const form = useForm({
    initialValues: { password: '' },
    validate: zodValidate(twoFactorPasswordBodySchema),
  });
  const close = () => {
    form.reset();
    turnOff.reset();
    onClose();
  };
  const submit = form.onSubmit(({ password }) =>
    turnOff.mutate(password, {
      onSuccess: () => {
        notifySuccess('Two-factor authentication is off', 'Sign-in now asks for your password only.');
        close();
      },
      onError: (error) => form.setFieldError('password', twoFactorErrorMessage(error, 'password')),
    }),
  );
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Turn off two-factor authentication?"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Turn off two-factor authentication">
        <Stack>
          <Text size="sm">
            Sign-in will ask for your password only, and your backup codes will stop working. Enter your
            password to confirm.
          </Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            data-autofocus
            errorProps={{ role: 'alert' }}
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={turnOff.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="red.9" loading={turnOff.isPending}>
              Turn off
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
