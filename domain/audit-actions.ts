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
  /** The 'Expiring' tab's CSV export (issue 14): details carry the window and kind, no names. */
  'admin.export_expiring_credentials',
  /**
   * The 'Audit Log' tab's CSV export (issue 34): details carry the filter's shape, no names: the
   * action, the date range, and whether a subject or an actor filter was set.
   */
  'admin.export_audit_log',
  /** A new draft pre-filled from the provider's previous application (issue 14): details carry fromApplicationId and counts. */
  'application.copied_forward',
  /** A draft withdrawn by its provider ('Withdraw', issue 29 item 2); the credential is untouched. */
  'application.withdrawn',
  /** An application closed by an administrator without a decision (issue 29 item 2): details carry the reason's length, not the text. */
  'application.closed_without_decision',
  /** A copied section confirmed with 'Review and Confirm' (issue 29 item 6): details carry the section key. */
  'application.section_confirmed',
  /**
   * A provider saved a section (issue 51 item 5; HIPAA 164.312(b)): details carry the section key, the
   * change ('saved', 'row_added', 'rows_saved', 'row_deleted') and how many rows; never the values.
   */
  'application.section_saved',
  /**
   * Staff read a file's review page or one of its versions (issue 51 item 5): details carry `what`
   * ('review' or 'version') and the version; a committee member's read is 'committee.file_viewed'.
   */
  'review.file_viewed',
  'document.upload',
  'document.download',
  'document.delete',
  /** Written at completion before issue 53 (when the notification was only queued); kept for old rows. */
  'notification.sent',
  /**
   * The provider completed the application and the completion notification was recorded (issue 53
   * item 5): details carry `status` (the webhook's: pending, failed or undelivered) and `staffNotified`.
   */
  'notification.queued',
  /** The receiver accepted the completion notification (2xx): details carry webhookId, attempts, httpStatus. */
  'notification.delivered',
  'notification.resend',
  /** An `application.status_changed` event sent again by an administrator (issue 28): details carry webhookId and resendOf. */
  'status_event.resend',
  /** A document fetched through a notification's signed `downloadUrl` (NOTIFY_DOCUMENTS=links, issue 20). */
  'notification.document_fetched',
  /** Credentialing review (issue 13): details carry applicationId, fromStatus, toStatus. */
  'review.submitted',
  'review.started',
  /** 'Assign' (issue 32 item 3): details carry applicationId, from and to (user ids). */
  'review.assigned',
  'review.information_requested',
  'review.response_submitted',
  'review.approved',
  'review.rejected',
  'review.verification_updated',
  /** 'Start Review' carried a previous cycle's education verification forward (issue 29 item 6): details carry fromItemId. */
  'review.verification_carried_forward',
  /** A later version changed what a verification covered: the item needs re-verification (issue 29). */
  'review.reverification_needed',
  'review.note_added',
  'review.reattested',
  /** An approved provider's credential lapsed: the daily job reopened its verification item (issue 14). */
  'review.credential_lapsed',
  'review.evidence_uploaded',
  'review.evidence_downloaded',
  'review.evidence_deleted',
  'review.nppes_checked',
  /** Before issue 30: the OIG LEIE full file replaced the list. Kept so older entries keep their label. */
  'review.leie_imported',
  /** An exclusion list file was applied (issue 30 item 2): details carry source, kind, counts, a reason. */
  'screening.import_applied',
  'screening.import_discarded',
  /** Screening found a list row for an application (issue 30 item 5): details carry source, strength. */
  'screening.finding_recorded',
  /** A reviewer decided a finding (issue 30 item 4): details carry the decision and reason. */
  'screening.finding_decided',
  /** An approved provider sent a credential update (issue 29 item 4): details carry applicationId, version, sections. */
  'credential.update_submitted',
  /** A reviewer completed the review of a credential update (issue 29 item 4): details carry applicationId, version. */
  'credential.update_reviewed',
  /** Ongoing monitoring recorded a finding on a credential (issue 49 item 2): details carry kind and detail (a list's name, the NPI, a license). */
  'credential.monitoring_finding',
  /** Monitoring findings were resolved (issue 49 item 2): details carry the resolution and how many. */
  'credential.monitoring_resolved',
  /** A credential's standing changed (issue 49 item 2): details carry 'active' or 'suspended' and the reason. */
  'credential.standing_changed',
  /** The committee terminated a credential on a monitoring finding (issue 49 item 2): details carry the end day. */
  'credential.terminated',
  /** A credentialed provider asked for a legal name change (issue 49 item 1): details carry the document id, never the names. */
  'credential.name_change_requested',
  /** 'Complete Update Review' applied a legal name change to the account (issue 49 item 1): details carry the document id. */
  'credential.name_change_accepted',
  /** 'Send for Decision' (issue 32 item 4): details carry the list ('clean_files' or 'committee') and how many reasons. */
  'review.sent_for_decision',
  /** 'Send to Committee' by the medical director (issue 32 item 4): details carry the note's length. */
  'review.sent_to_committee',
  /** 'Request Appeal' by the provider (issue 32 item 6): details carry the statement's length. */
  'review.appeal_requested',
  /** A PDF attached to the appeal being written (issue 50 item 8): details carry its size. */
  'review.appeal_attachment_uploaded',
  /** A PDF removed from the appeal before it was requested (issue 50 item 8). */
  'review.appeal_attachment_removed',
  /** An appeal's PDF read by its provider, staff or a member of the meeting hearing it (issue 50 item 8). */
  'review.appeal_attachment_downloaded',
  /** The committee decided an appeal (issue 32 item 6): details carry the outcome. */
  'review.appeal_decided',
  /** A decision letter downloaded (issue 32 item 6). */
  'review.letter_downloaded',
  /** 'New Meeting' (issue 32 item 5): details carry the scheduled time, member count and quorum. */
  'committee.meeting_created',
  /** A file added to, removed from or moved on an agenda, or its recusals set: details say which. */
  'committee.agenda_changed',
  /** 'Record Decision' (issue 32 item 5): details carry the decision and the votes. */
  'committee.decision_recorded',
  /** The recorder marked who is present at a meeting (issue 50 item 6): details carry how many. */
  'committee.attendance_recorded',
  /** A member joined a meeting (marked themselves present, issue 50 item 6). */
  'committee.member_joined',
  /** A member cast or changed their own signed vote on a file (issue 50 item 2): details carry the vote. */
  'committee.vote_cast',
  /** An administrator saved the organization's settings (issue 50 item 7): details name the fields changed. */
  'settings.changed',
  /** A committee member read a file on their meeting's agenda (issue 50 item 6): details say what (review, version, document, evidence, file summary). */
  'committee.file_viewed',
  'committee.meeting_closed',
  /** The minutes PDF downloaded (issue 32 item 5). */
  'committee.minutes_downloaded',
  /** 'Download File Summary' (issue 33 item 1): details carry the snapshot version. */
  'export.file_summary_downloaded',
  /** 'Export Roster' (issue 33 item 2): details carry the format, the column count and the row count; an API client's download has no user. */
  'export.roster_downloaded',
  /** An administrator registered an API client (issue 33 item 4): resourceId is the client's id; details carry the scopes. */
  'api_client.created',
  /** An API client revoked: its tokens are refused from then on. */
  'api_client.revoked',
  'api_client.secret_rotated',
  /** `POST /oauth/token` issued a token: details carry the client, the method and the scopes. */
  'api_client.token_issued',
  /** A FHIR read or search by an API client (issue 33 item 3): details carry the client, interaction, type and count. */
  'fhir.read',
  /** A Bulk Data `$export` kicked off: details carry the client, the types and `_since`. */
  'fhir.export_requested',
  /** One NDJSON file of a finished `$export` downloaded. */
  'fhir.export_downloaded',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** How the admin audit log names each action (issue 6); a new action needs its label here. */
export const auditActionLabel: Record<AuditAction, string> = {
  'admin.view_provider': 'Viewed provider details',
  'admin.export_expiring_credentials': 'Exported expiring credentials (CSV)',
  'admin.export_audit_log': 'Exported the audit log (CSV)',
  'application.copied_forward': 'Application started from the previous one',
  'application.withdrawn': 'Draft withdrawn by the provider',
  'application.closed_without_decision': 'Application closed without a decision',
  'application.section_confirmed': 'Copied section confirmed',
  'application.section_saved': 'Section saved',
  'review.file_viewed': 'File viewed',
  'document.download': 'Downloaded document',
  'document.upload': 'Uploaded document',
  'document.delete': 'Deleted document',
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.sign_out': 'Signed out',
  'auth.sign_up': 'Signed up',
  'auth.email_verified': 'Email confirmed',
  'auth.password_reset_requested': 'Password reset requested',
  'auth.password_reset': 'Password reset',
  'auth.password_changed': 'Password changed',
  'auth.name_changed': 'Name changed',
  'notification.sent': 'Completion notification sent',
  'notification.queued': 'Completion notification queued',
  'notification.delivered': 'Completion notification delivered',
  'notification.resend': 'Completion notification resent',
  'status_event.resend': 'Status change event resent',
  'notification.document_fetched': 'Notification document fetched',
  'auth.role_changed': 'Role changed',
  'auth.two_factor_enabled': 'Two-factor authentication set up',
  'auth.two_factor_disabled': 'Two-factor authentication turned off',
  'auth.two_factor_reset': 'Two-factor authentication reset',
  'auth.two_factor_failed': 'Wrong authentication code',
  'auth.sign_in_two_factor': 'Signed in with a second factor',
  'auth.backup_code_used': 'Backup code used',
  'auth.backup_codes_regenerated': 'New backup codes made',
  'review.submitted': 'Application completed (submitted)',
  'review.started': 'Review started',
  'review.assigned': 'File assigned',
  'review.sent_for_decision': 'Sent for decision',
  'review.sent_to_committee': 'Sent to the committee by the medical director',
  'review.appeal_requested': 'Appeal requested by the provider',
  'review.appeal_attachment_uploaded': 'File attached to an appeal',
  'review.appeal_attachment_removed': 'File removed from an appeal',
  'review.appeal_attachment_downloaded': 'Appeal file downloaded',
  'review.appeal_decided': 'Appeal decided by the committee',
  'review.letter_downloaded': 'Decision letter downloaded',
  'committee.meeting_created': 'Committee meeting created',
  'committee.agenda_changed': 'Committee agenda changed',
  'committee.decision_recorded': 'Committee decision recorded',
  'committee.attendance_recorded': 'Meeting attendance recorded',
  'committee.member_joined': 'Member joined the meeting',
  'committee.vote_cast': 'Committee member voted',
  'committee.file_viewed': 'Committee member read a file',
  'settings.changed': 'Organization settings changed',
  'committee.meeting_closed': 'Committee meeting closed',
  'committee.minutes_downloaded': 'Committee minutes downloaded',
  'export.file_summary_downloaded': 'File summary downloaded (PDF)',
  'export.roster_downloaded': 'Roster exported',
  'api_client.created': 'API client registered',
  'api_client.revoked': 'API client revoked',
  'api_client.secret_rotated': 'API client secret rotated',
  'api_client.token_issued': 'API token issued',
  'fhir.read': 'FHIR read by an API client',
  'fhir.export_requested': 'FHIR bulk export requested',
  'fhir.export_downloaded': 'FHIR bulk export file downloaded',
  'review.information_requested': 'Information requested',
  'review.response_submitted': 'Provider responded',
  'review.approved': 'Application approved',
  'review.credential_lapsed': 'Credential lapsed: verification reopened',
  'review.rejected': 'Application rejected',
  'review.verification_updated': 'Verification updated',
  'review.verification_carried_forward': 'Verification carried forward from the previous cycle',
  'review.reverification_needed': 'Data changed: verification needed again',
  'review.note_added': 'Note added by the workflow integration',
  'review.reattested': 'Attested again by the provider',
  'review.evidence_uploaded': 'Evidence file attached',
  'review.evidence_downloaded': 'Evidence file downloaded',
  'review.evidence_deleted': 'Evidence file removed',
  'review.nppes_checked': 'NPPES record checked',
  'review.leie_imported': 'OIG LEIE list imported',
  'screening.import_applied': 'Exclusion list file applied',
  'screening.import_discarded': 'Exclusion list file discarded',
  'screening.finding_recorded': 'Exclusion screening found a list row',
  'screening.finding_decided': 'Screening match decided',
  'credential.update_submitted': 'Credential update sent by the provider',
  'credential.update_reviewed': 'Credential update reviewed',
  'credential.monitoring_finding': 'Ongoing monitoring finding recorded',
  'credential.monitoring_resolved': 'Ongoing monitoring finding resolved',
  'credential.standing_changed': 'Credential standing changed',
  'credential.terminated': 'Credential terminated by the committee',
  'credential.name_change_requested': 'Legal name change sent by the provider',
  'credential.name_change_accepted': 'Legal name change accepted',
};
