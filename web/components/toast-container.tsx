/**
 * Mantine's toast container and its stylesheet, loaded by `Toasts` when the first toast is shown.
 */
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

export default function ToastContainer() {
  return <Notifications position="top-right" limit={3} />;
}
