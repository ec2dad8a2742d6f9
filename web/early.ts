/**
 * The build's second entry (decision 033): the HTML loads it before the app's entry (web/main.tsx),
 * and it imports only web/early-reads.ts and web/api.ts, so it runs a few kB in, while the app's
 * code is still downloading, and starts the session check and the opened page's first reads.
 */
import { startEarlyReads } from './early-reads.ts';

startEarlyReads(window.location.pathname);
