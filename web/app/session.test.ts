/**
 * Sign-out's clearing of the cache (web/app/session.ts `removeOnceUnobserved`): the signed-out
 * caller's data leaves at once where nothing shows it, and where a page still shows it, as soon as
 * that page stops (not before: its observer would make the query again and read it signed out).
 */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { removeOnceUnobserved } from './session.ts';

describe('removeOnceUnobserved', () => {
  it('removes unobserved queries now and observed ones when their last observer leaves', () => {
    const client = new QueryClient();
    client.setQueryData(['me'], { user: 'ana' });
    client.setQueryData(['applications'], ['a1']);
    client.setQueryData(['profile'], { firstName: 'Ana' });
    client.setQueryData(['admin', 'providers'], ['p1']);
    const shown = (key: string[]) => {
      const observer = new QueryObserver(client, { queryKey: key, queryFn: () => null, staleTime: Infinity });
      return observer.subscribe(() => {});
    };
    const stopApplications = shown(['applications']);
    const stopProfileOne = shown(['profile']);
    const stopProfileTwo = shown(['profile']);

    removeOnceUnobserved(client, (query) => query.queryKey[0] !== 'me');
    const keys = () =>
      client
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey[0]);
    expect(keys().sort()).toEqual(['applications', 'me', 'profile']);

    stopApplications();
    expect(keys().sort()).toEqual(['me', 'profile']);
    stopProfileOne();
    expect(keys().sort()).toEqual(['me', 'profile']);
    stopProfileTwo();
    expect(keys()).toEqual(['me']);
    // A query made afterwards (the next caller's) is not removed.
    client.setQueryData(['applications'], ['b1']);
    shown(['applications'])();
    expect(keys().sort()).toEqual(['applications', 'me']);
  });
});
