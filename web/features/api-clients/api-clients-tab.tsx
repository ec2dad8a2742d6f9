/**
 * The 'API Clients' tab of /admin (issue 33 item 4), for administrators: the machine clients that
 * read the FHIR API and the rosters, newest first, revoked ones included. 'Register API Client' asks
 * for a name and the scopes; the answer shows the `client_id` and `client_secret` once, with copy
 * buttons (only the secret's hash is kept: it can never be shown again). 'Rotate Secret' asks
 * first, then shows the new secret once; the old one keeps working 24 hours (issue 52). 'Revoke' asks
 * first; every token of the client is refused from then on. Contract: domain/api/api-clients.ts.
 */
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type ApiClientCreateBody,
  type ApiClientCreated,
  type ApiClientList,
  type ApiClientSummary,
  apiClientCreateBodySchema,
} from '../../../domain/api/api-clients.ts';
import {
  API_CLIENT_NAME_MAX_LENGTH,
  type ApiClientScope,
  apiClientScopeLabel,
  apiClientScopes,
  checkPublicJwks,
} from '../../../domain/api-clients.ts';
import { ApiError, api } from '../../api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';

const clientsKey = ['admin', 'api-clients'] as const;
const CLIENTS_PATH = '/api/admin/api-clients';

export function ApiClientsTab({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: clientsKey,
    enabled,
    queryFn: () => api<ApiClientList>('GET', CLIENTS_PATH),
  });
  const revoke = useMutation({
    mutationFn: (client: ApiClientSummary) =>
      api<ApiClientSummary>('POST', `${CLIENTS_PATH}/${encodeURIComponent(client.id)}/revoke`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientsKey }),
  });
  const rotate = useMutation({
    mutationFn: (client: ApiClientSummary) =>
      api<ApiClientCreated>('POST', `${CLIENTS_PATH}/${encodeURIComponent(client.id)}/rotate-secret`, {}),
  });
  const [registering, setRegistering] = useState(false);
  const [revoking, setRevoking] = useState<ApiClientSummary | null>(null);
  const [rotating, setRotating] = useState<ApiClientSummary | null>(null);
  const [rotated, setRotated] = useState<ApiClientCreated | null>(null);

  const columns: TableColumn<ApiClientSummary>[] = [
    {
      header: 'Name',
      render: (c) => (
        <Text size="sm" fw={600}>
          {c.name}
        </Text>
      ),
    },
    { header: 'Client ID', render: (c) => <Code>{c.clientId}</Code> },
    { header: 'Scopes', render: (c) => c.scopes.join(' ') },
    {
      header: 'Public keys',
      render: (c) => (c.jwksKeyIds.length ? c.jwksKeyIds.join(', ') : 'None (secret only)'),
    },
    { header: 'Registered', render: (c) => formatDate(c.createdAt), noWrap: true },
    { header: 'Last used', render: (c) => (c.lastUsedAt ? formatDate(c.lastUsedAt) : 'Never'), noWrap: true },
    {
      header: 'Status',
      render: (c) =>
        c.revokedAt ? (
          <Badge color={badgeColor.gray} autoContrast>
            Revoked {formatDate(c.revokedAt)}
          </Badge>
        ) : (
          <Badge color={badgeColor.green} autoContrast>
            Active
          </Badge>
        ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Machine clients of the FHIR API and the roster downloads. Each gets 5-minute tokens at POST
          /oauth/token.
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setRegistering(true)}>
          Register API Client
        </Button>
      </Group>
      {list.isLoading && <InlineLoader label="Loading the API clients..." />}
      {list.isError && (
        <Alert color="red" variant="light" role="alert" title="The API clients could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{list.error.message}</Text>
            <Button size="xs" variant="default" onClick={() => list.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
      {list.data && list.data.clients.length === 0 && (
        <Text size="sm">
          No API client is registered yet. Register one for each system that reads the directory.
        </Text>
      )}
      {list.data && list.data.clients.length > 0 && (
        <ResponsiveTable
          label="API clients, newest first"
          caption
          rows={list.data.clients}
          columns={columns}
          rowKey={(c) => c.id}
          actions={(c) =>
            c.revokedAt ? null : (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setRotating(c)}>
                  Rotate Secret
                </Button>
                <Button size="xs" variant="default" color="red.9" onClick={() => setRevoking(c)}>
                  Revoke
                </Button>
              </Group>
            )
          }
        />
      )}
      <RegisterDialog
        opened={registering}
        onClose={() => setRegistering(false)}
        onRegistered={() => queryClient.invalidateQueries({ queryKey: clientsKey })}
      />
      <ConfirmDialog
        opened={rotating !== null}
        title="Rotate Secret"
        confirmLabel="Rotate Secret"
        busy={rotate.isPending}
        onCancel={() => setRotating(null)}
        onConfirm={() =>
          rotating &&
          rotate.mutate(rotating, {
            onSuccess: (answer) => {
              setRotating(null);
              setRotated(answer);
            },
            onError: (error) =>
              notifyError(
                'Secret not rotated',
                error instanceof ApiError ? error.message : 'The secret could not be rotated. Try again.',
              ),
          })
        }
      >
        <Text size="sm">
          {rotating?.name} gets a new client secret, shown once. The current secret keeps working for 24 hours
          so its system can switch over; then only the new one works.
        </Text>
      </ConfirmDialog>
      <Modal
        opened={rotated !== null}
        onClose={() => setRotated(null)}
        title="New client secret"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {rotated && (
          <Stack>
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle aria-hidden="true" />}
              title={
                <Text fw={700} size="sm" c="gray.9">
                  Copy the client secret now
                </Text>
              }
            >
              It is shown this once: only its hash is kept. The old secret stops working in 24 hours.
            </Alert>
            <Credential label="client_id" value={rotated.client.clientId} />
            <Credential label="client_secret" value={rotated.clientSecret} />
            <Group justify="flex-end">
              <Button onClick={() => setRotated(null)}>Done</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke API Client"
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking, {
            onSuccess: () => {
              notifySuccess('API client revoked', `${revoking.name} can no longer read the directory.`);
              setRevoking(null);
            },
            onError: (error) =>
              notifyError(
                'API client not revoked',
                error instanceof ApiError ? error.message : 'The client could not be revoked. Try again.',
              ),
          })
        }
      >
        <Text size="sm">
          {revoking?.name} stops at once: its tokens are refused and it cannot get new ones. This cannot be
          undone; register a new client to restore access.
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}

/** 'Register API Client': name and scopes, then the credentials shown once. */
function RegisterDialog({
  opened,
  onClose,
  onRegistered,
}: {
  opened: boolean;
  onClose: () => void;
  onRegistered: () => void;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiClientScope[]>([]);
  const [jwksText, setJwksText] = useState('');
  const [issues, setIssues] = useState<{ name?: string; scopes?: string; jwks?: string }>({});
  const register = useMutation({
    mutationFn: (body: ApiClientCreateBody) => api<ApiClientCreated>('POST', CLIENTS_PATH, body),
    onSuccess: onRegistered,
  });
  const close = () => {
    setName('');
    setScopes([]);
    setJwksText('');
    setIssues({});
    register.reset();
    onClose();
  };
  const submit = () => {
    // The optional key set: JSON text, checked with the contract's rules before sending.
    let jwks: unknown;
    if (jwksText.trim()) {
      try {
        jwks = JSON.parse(jwksText);
      } catch {
        setIssues({ jwks: 'Paste the key set as JSON: { "keys": [ ... ] }' });
        return;
      }
      const checked = checkPublicJwks(jwks);
      if (!checked.ok) {
        setIssues({ jwks: checked.message });
        return;
      }
    }
    const parsed = apiClientCreateBodySchema.safeParse({ name, scopes, ...(jwks ? { jwks } : {}) });
    if (!parsed.success) {
      const issueOf = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message;
      setIssues({ name: issueOf('name'), scopes: issueOf('scopes'), jwks: issueOf('jwks') });
      return;
    }
    setIssues({});
    register.mutate(parsed.data);
  };
  const created = register.data;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Register API Client"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {created ? (
        <Stack>
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden="true" />}
            title={
              <Text fw={700} size="sm" c="gray.9">
                Copy the client secret now
              </Text>
            }
          >
            It is shown this once: only its hash is kept. Store it in the client system's secret store.
          </Alert>
          <Credential label="client_id" value={created.client.clientId} />
          <Credential label="client_secret" value={created.clientSecret} />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <TextInput
            label="Name"
            description="The system that will read the directory, e.g. 'Payer directory'."
            value={name}
            maxLength={API_CLIENT_NAME_MAX_LENGTH}
            onChange={(event) => setName(event.currentTarget.value)}
            error={issues.name}
            required
          />
          <Checkbox.Group
            label="Scopes"
            value={scopes}
            onChange={(value) => setScopes(value as ApiClientScope[])}
            error={issues.scopes}
            required
          >
            <Stack gap="xs" mt="xs">
              {apiClientScopes.map((scope) => (
                <Checkbox key={scope} value={scope} label={`${scope}: ${apiClientScopeLabel[scope]}`} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Textarea
            label="Public keys (JWKS, optional)"
            description="For SMART Backend Services' signed assertions (private_key_jwt): the client's public RS384 or ES384 keys, each with a kid. Leave empty to use the client secret only."
            placeholder='{ "keys": [ { "kty": "EC", "crv": "P-384", "kid": "...", "x": "...", "y": "..." } ] }'
            autosize
            minRows={3}
            maxRows={10}
            value={jwksText}
            onChange={(event) => setJwksText(event.currentTarget.value)}
            error={issues.jwks}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          {register.isError && (
            <Alert color="red" variant="light" role="alert" title="The client was not registered">
              {register.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={register.isPending} onClick={submit}>
              Register
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function Credential({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ wordBreak: 'break-all' }} aria-label={label}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy} aria-label={`Copy ${label}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
