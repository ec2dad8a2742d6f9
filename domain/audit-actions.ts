/**
 * The audit log's vocabulary (HIPAA 164.312(b) audit controls; issue 6): every action the server
 * writes to `audit_log.action`. Read by the server (what it may record) and by the admin API
 * contract (the audit log's action filter, domain/api/admin.ts). Extend here so the log stays a
 * small, queryable vocabulary.
 */
export const auditActions = [
  'auth.sign_up',
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.password_changed',
  'auth.name_changed',
  'auth.email_verified',
  'auth.role_changed',
  'auth.two_factor_enabled',
  'auth.two_factor_disabled',
  'auth.two_factor_reset',
  'auth.two_factor_failed',
  'auth.sign_in_two_factor',
  'auth.backup_code_used',
  'auth.backup_codes_regenerated',
  'admin.view_provider',
  'document.upload',
  'document.download',
  'document.delete',
  'notification.sent',
  'notification.resend',
] as const;
export type AuditAction = (typeof auditActions)[number];
