/**
 * zod without its JIT (decision 016): zod probes `new Function` on first use, which the server's
 * CSP (script-src 'self', no 'unsafe-eval') refuses and Chrome reports as a CSP issue. Run first, by
 * main.tsx, before any schema parses; forms are small, so the interpreted path costs nothing visible.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
