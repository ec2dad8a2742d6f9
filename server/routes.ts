/**
 * Feature routes (sections, documents, notifications, admin) registered in one place, so the
 * architecture reads from this list.
 */
import { adminRoutes } from './admin/admin.routes.ts';
import { apiClientRoutes } from './api-clients/api-clients.routes.ts';
import { oauthTokenRoutes } from './api-clients/oauth-token.routes.ts';
import type { AppInstance } from './app-types.ts';
import { sectionConfirmationRoutes } from './applications/section-confirmations.routes.ts';
import { assignmentRoutes } from './assignment/assignment.routes.ts';
import { appealAttachmentRoutes } from './committee/appeal-attachments.routes.ts';
import { appealRoutes } from './committee/appeals.routes.ts';
import { decisionRoutes } from './committee/decisions.routes.ts';
import { meetingRoutes } from './committee/meetings.routes.ts';
import { voteRoutes } from './committee/votes.routes.ts';
import { credentialUpdateRoutes } from './credential-updates/credential-updates.routes.ts';
import { credentialRoutes } from './credentials/credentials.routes.ts';
import { cycleRoutes } from './cycles/cycles.routes.ts';
import { documentRoutes } from './documents/documents.routes.ts';
import { exportRoutes } from './exports/exports.routes.ts';
import { fhirRoutes } from './fhir/fhir.routes.ts';
import { notificationReceiptRoutes } from './notifications/notification-receipts.routes.ts';
import { notificationRoutes } from './notifications/notifications.routes.ts';
import { decisionReportRoutes } from './reports/decision-reports.routes.ts';
import { pipelineReportRoutes } from './reports/pipeline-reports.routes.ts';
import { sectionRoutes } from './sections/sections.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { staffRoutes } from './staff/staff.routes.ts';

export async function featureRoutes(app: AppInstance) {
  // Feature plugins are registered here as they are built.
  await app.register(adminRoutes);
  await app.register(credentialUpdateRoutes);
  await app.register(credentialRoutes);
  await app.register(cycleRoutes);
  await app.register(documentRoutes);
  await app.register(notificationRoutes);
  // Issue 53 item 2: the receiver's atomic record of processed notifications.
  await app.register(notificationReceiptRoutes);
  await app.register(sectionRoutes);
  // Issue 29 item 6: 'Review and Confirm' of a copied section.
  await app.register(sectionConfirmationRoutes);
  // Issue 32 item 2: the 'Staff' tab; item 3: assignment.
  await app.register(staffRoutes);
  // Issue 50 item 7: the organization's name, address and letter signer.
  await app.register(settingsRoutes);
  await app.register(assignmentRoutes);
  // Issue 32 items 4 and 5: decisions and the credentialing committee.
  await app.register(decisionRoutes);
  await app.register(meetingRoutes);
  // Issue 50 items 2, 3, 6: attendance and members' own signed votes.
  await app.register(voteRoutes);
  // Item 6: decision letters and appeals.
  await app.register(appealRoutes);
  await app.register(appealAttachmentRoutes);
  // Issue 33: the file summary PDF and the rosters.
  await app.register(exportRoutes);
  // Issue 33 item 4: API clients (admin) and the OAuth token endpoint of machine clients.
  await app.register(apiClientRoutes);
  await app.register(oauthTokenRoutes);
  // Issue 34 items 2, 4, 5: the pipeline reports (backlog, expirables, screening).
  await app.register(pipelineReportRoutes);
  // Issue 34 items 1, 3, 6: the Turnaround, Timeliness and Workload reports.
  await app.register(decisionReportRoutes);
  // Issue 33 item 3: the FHIR R4 directory API and Bulk Data $export, outside /api (bearer tokens only).
  await app.register(fhirRoutes, { prefix: '/fhir' });
}
