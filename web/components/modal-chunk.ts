/** Mantine's Modal as a chunk of its own, for `LazyModal` (web/components/lazy-modal.tsx). */
export { Modal as default } from '@mantine/core';
