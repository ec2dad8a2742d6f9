/**
 * Where toasts appear (spec §8). The container's code and styles (18 kB gzip) load when the first
 * toast is shown, not with every page: until then a toast waits in Mantine's notifications store,
 * which the container reads when it mounts, a moment later (decision 016).
 */
import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

const ToastContainer = lazy(() => import('./toast-container.tsx'));

export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  // Once mounted it stays: a toast that closes animates out in the container.
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}
