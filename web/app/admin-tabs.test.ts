/** Which admin tabs each role sees (issue 32), the 'Reports' tab (issue 34) included. */
import { describe, expect, it } from 'vitest';
import { adminTabOf, visibleAdminTabs } from './admin-tabs.ts';

const labels = (roles: Parameters<typeof visibleAdminTabs>[0]) => visibleAdminTabs(roles).map((t) => t.label);

describe("the 'Reports' tab (issue 34)", () => {
  it('is shown to the roles holding read:report:any: administrators, the medical director, auditors', () => {
    expect(labels(['admin'])).toContain('Reports');
    expect(labels(['medical_director'])).toContain('Reports');
    expect(labels(['auditor'])).toContain('Reports');
  });

  it('is not shown to specialists, committee members or providers', () => {
    expect(labels(['specialist'])).not.toContain('Reports');
    expect(labels(['committee'])).toEqual(['Committee']);
    expect(labels(['user'])).toEqual([]);
  });

  it("comes after 'Expiring' and is opened by ?tab=reports", () => {
    const auditor = labels(['auditor']);
    expect(auditor.slice(-2)).toEqual(['Expiring', 'Reports']);
    expect(adminTabOf('reports')).toBe('reports');
  });
});
