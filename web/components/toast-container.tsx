/**
 * Mantine's toast container and its stylesheet, loaded by `Toasts` when the first toast is shown.
 *
 * Where toasts sit (issue 17): at the top right they covered Sign Out on a desktop and the page heading
 * on a phone. From the `sm` breakpoint (48em) up: top right, below the header (the app shell's header
 * is 56 px; the offset clears it and the landing page's), beside the left-aligned page heading and
 * away from the forms' Save buttons at the bottom (a bottom-right toast covered 'Save & Continue' just
 * after a failed save). Below `sm` (issue 28): top centre, below the header; at the bottom they covered
 * the Save and Add buttons a provider presses next. A toast may cover the page heading for its few
 * seconds there: text, not a control, and Sign Out in the header stays clear.
 */
import '@mantine/notifications/styles.css';
import '../styles/toasts.css';
import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';

/** Below Mantine's `sm` breakpoint (48em), as `hiddenFrom="sm"` reads it. */
const PHONE_QUERY = `(max-width: ${em(767.9)})`;

export default function ToastContainer() {
  // Read at once (not in an effect): the container mounts with the first toast, which must not jump.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  // The offset below the header is in web/styles/toasts.css.
  return <Notifications position={phone ? 'top-center' : 'top-right'} limit={3} />;
}
