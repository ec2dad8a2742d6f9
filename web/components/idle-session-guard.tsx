/**
 * Automatic logoff in the browser (HIPAA 164.312(a)(2)(iii); issue 7). The server ends a session
 * after `idleTimeoutSeconds` without requests; this guard mirrors it for the person at the screen:
 * user activity keeps the server session alive (at most one ping a minute), a dialog warns before the
 * timeout, and at the timeout the user is signed out and sent to /auth.
 */
import { Button, Group, Modal, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api.ts';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
const PING_EVERY_MS = 60_000;
const CHECK_EVERY_MS = 1_000;

/** Seconds of warning before the timeout: two minutes, or a quarter of a short timeout. */
export function warningLeadSeconds(idleTimeoutSeconds: number): number {
  return Math.min(120, Math.floor(idleTimeoutSeconds / 4));
}

export function IdleSessionGuard({ idleTimeoutSeconds }: { idleTimeoutSeconds: number }) {
  const lastActivity = useRef(Date.now());
  const lastPing = useRef(Date.now());
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const lead = warningLeadSeconds(idleTimeoutSeconds);

  const keepAlive = useCallback(() => {
    lastActivity.current = Date.now();
    setSecondsLeft(null);
    if (Date.now() - lastPing.current >= PING_EVERY_MS) {
      lastPing.current = Date.now();
      // Any authenticated request renews the server session.
      api('GET', '/api/me').catch(() => {});
    }
  }, []);

  useEffect(() => {
    const onActivity = () => {
      // While the warning is open, only the explicit button extends the session.
      if (secondsLeft === null) keepAlive();
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
    };
  }, [keepAlive, secondsLeft]);

  useEffect(() => {
    const timer = window.setInterval(() => {
      const idleSeconds = (Date.now() - lastActivity.current) / 1000;
      const left = Math.ceil(idleTimeoutSeconds - idleSeconds);
      if (left <= 0) {
        window.clearInterval(timer);
        api('POST', '/api/auth/sign-out', {})
          .catch(() => {})
          .finally(() => {
            // A full page load: drops every in-memory copy of the provider's data with the session.
            window.location.replace('/auth?timeout=1');
          });
      } else if (left <= lead) {
        setSecondsLeft(left);
      }
    }, CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [idleTimeoutSeconds, lead]);

  const minutes = secondsLeft === null ? 0 : Math.floor(secondsLeft / 60);
  const seconds = secondsLeft === null ? 0 : secondsLeft % 60;
  return (
    <Modal
      opened={secondsLeft !== null}
      onClose={() => {
        lastPing.current = 0;
        keepAlive();
      }}
      title="Are you still there?"
      centered
      closeOnClickOutside={false}
    >
      <Text role="timer" aria-live="polite">
        For your security you will be signed out in {minutes > 0 ? `${minutes} min ` : ''}
        {seconds} s because of inactivity.
      </Text>
      <Group justify="flex-end" mt="md">
        <Button
          onClick={() => {
            lastPing.current = 0;
            keepAlive();
          }}
        >
          Stay signed in
        </Button>
      </Group>
    </Modal>
  );
}
