import { z } from 'zod';
import { attachment } from './attachments';
import { fill } from './market';
import { noteSummary } from './notes';
import { trade } from './trades';

/** GET /api/trade-details/:id: everything /trade/{id} shows, read in one transaction. */
export const tradeDetails = z.strictObject({
  trade,
  /** The older trade just before this one, and the newer one after it. */
  previous_id: z.uuid().nullable(),
  next_id: z.uuid().nullable(),
  notes: z.array(noteSummary.extend({ content: z.string() })),
  attachments: z.array(attachment),
  /** Its fills in the order traded, and whether the trader may change them (manual trades). */
  fills: z.array(fill),
  fills_editable: z.boolean(),
});

export type TradeDetails = z.infer<typeof tradeDetails>;
