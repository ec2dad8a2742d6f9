/**
 * zod without its JIT (decision 016): zod probes `new Function` on first use, which the server's
 * CSP (script-src 'self', no 'unsafe-eval') refuses and Chrome reports as a CSP issue. Imported by
 * web/forms/zod-form.ts, the module every form that parses loads, so it runs before any schema parses
 * and the pages without a form (the landing page) do not load zod at all (decision 021); forms are
 * small, so the interpreted path costs nothing visible.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
