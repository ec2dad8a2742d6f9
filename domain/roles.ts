/** Roles of spec §6. A failed or empty lookup means `user`. */
export const roles = ['user', 'admin'] as const;
export type Role = (typeof roles)[number];
