/** The e-mail worker's attachments: an estimate e-mail carries the estimate's net sheet as a PDF. */
import type { Db } from '../../platform/db.ts';
import { estimatePdf, estimatePdfFilename } from '../net-sheet/public/estimate-pdf.server.ts';
import type { DeliverOptions } from './email-delivery.server.ts';

/**
 * DeliverOptions.attachments for the e-mail worker: an estimate e-mail carries its net sheet as a
 * PDF, the mailed one (no name, no town: finding 2); other kinds carry nothing.
 */
export const estimateAttachments =
  (db: Db, siteUrl: string): NonNullable<DeliverOptions['attachments']> =>
  async ({ kind, estimateUuid }) => {
    if (kind !== 'estimate' || !estimateUuid) return [];
    const pdf = await estimatePdf(db, estimateUuid, siteUrl, 'mail');
    return pdf ? [{ filename: estimatePdfFilename(estimateUuid), contentType: 'application/pdf', content: pdf }] : [];
  };
