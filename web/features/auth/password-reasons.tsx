/**
 * Why the server refused a password (code `weak_password`, spec §5): the reasons it returned, as a
 * list the form shows under the password field. Renders nothing when there are none.
 */
import { Alert, List } from '@mantine/core';

export function PasswordReasons({ reasons }: { reasons: readonly string[] }) {
  if (reasons.length === 0) return null;
  return (
    <Alert color="red" title="Choose a stronger password" role="alert">
      <List size="sm">
        {reasons.map((reason) => (
          <List.Item key={reason}>{reason}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
