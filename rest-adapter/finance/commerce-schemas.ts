import { z } from 'zod';
import { money } from './schemas';

/**
 * Request and response schemas of the commerce routes (shop, utilities, gift cards, disputes,
 * rewards). Request bodies check types only: the domain validates values and answers 400 with
 * per-field messages.
 */
const when = z.string().describe('ISO 8601 UTC');
const id = z.string().describe('uuid');
const nextCursor = z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last page');
export const pageQuery = z.object({
  limit: z.coerce.number().optional().describe('1 to 100 (default 20)'),
  cursor: z.string().optional().describe('next_cursor of the previous page'),
});
export const idParams = z.object({ id: z.string().describe('uuid') });

const stateChange = z.object({
  from_status: z.string().nullable(),
  to_status: z.string(),
  actor: z.string().describe('user:<id> or admin:<username>'),
  note: z.string().nullable(),
  at: when,
});

export const product = z.object({
  id,
  name: z.string(),
  description: z.string(),
  price: money,
  stock: z.number().int(),
  active: z.boolean(),
  image_content_type: z.string().nullable().describe('The stored image (object store); null without one'),
  created_at: when,
});
export const productPage = z.object({ results: z.array(product), next_cursor: nextCursor });

export const cart = z.object({
  items: z.array(
    z.object({
      id: id.describe('The cart line (for /cart/items/<id>/)'),
      product_id: id,
      name: z.string(),
      unit_price: money.describe("The product's current price"),
      quantity: z.number().int(),
      line_total: money,
      stock: z.number().int().describe('In stock now; not reserved by the cart'),
    }),
  ),
  total: money.nullable().describe('null for an empty cart'),
});

export const addCartItemBody = z.object({
  product_id: z.string(),
  quantity: z.number().describe('1 to 100'),
  expected_price: z.string().optional().describe('The price the client showed (decimal string): 409 price_changed when it is no longer the price'),
});
export const changeCartItemBody = z.object({ quantity: z.number().describe('1 to 100') });

export const order = z.object({
  id,
  status: z.enum(['pending', 'paid', 'fulfilled', 'cancelled', 'refunded']),
  total: money,
  items: z.array(z.object({ product_id: id, name: z.string(), unit_price: money.describe('Price at checkout (snapshot)'), quantity: z.number().int() })),
  history: z.array(stateChange).describe('Every state change, oldest first'),
  payment_transaction_id: z.string().nullable().describe('The ledger transfer that paid it'),
  refund_transaction_id: z.string().nullable().describe('The reversing transfer of a cancelled paid order'),
  created_at: when,
  updated_at: when,
});
export const orderPage = z.object({ results: z.array(order), next_cursor: nextCursor });

const utilityRequest = z.object({
  id,
  kind: z.enum(['airtime', 'data', 'bill']),
  status: z
    .enum(['pending_integration', 'pending', 'successful', 'failed', 'reversed'])
    .describe('pending_integration: validated and stored, nothing dispatched to a provider, no wallet debit'),
  provider: z.string().describe('Operator or biller code'),
  country: z.string(),
  phone_number: z.string().nullable().describe('E.164'),
  account_number: z.string().nullable(),
  plan_id: z.string().nullable(),
  amount: money,
  dispatched: z.boolean().describe('false: nothing was sent to a provider'),
  created_at: when,
});
export { utilityRequest };
export const utilityRequestPage = z.object({ results: z.array(utilityRequest), next_cursor: nextCursor });
export const utilityCatalogue = z.object({
  operators: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      country: z.string(),
      min_amount: money,
      max_amount: money,
      plans: z.array(z.object({ id: z.string(), name: z.string(), price: money, validity_days: z.number().int() })),
    }),
  ),
  billers: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      country: z.string(),
      category: z.string(),
      account_format: z.string(),
      min_amount: money,
      max_amount: money,
    }),
  ),
  states: z.array(z.string()),
});
export const airtimeBody = z.object({
  operator: z.string().describe('Operator code from the catalogue'),
  phone_number: z.string().describe("A number of the operator's country (national or E.164)"),
  amount: z.string().describe("Decimal string within the operator's limits"),
  currency: z.string(),
});
export const dataBody = z.object({ operator: z.string(), phone_number: z.string(), plan_id: z.string().describe('A plan of the operator') });
export const billBody = z.object({
  biller: z.string(),
  account_number: z.string().describe("In the biller's format (meter or smart-card number)"),
  amount: z.string(),
  currency: z.string(),
});

export const brand = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  countries: z.array(z.object({ country: z.string(), currency: z.string(), denominations: z.array(z.string()).describe('Decimal strings in `currency`') })),
});
export const brandQuery = z.object({
  search: z.string().optional().describe('Part of the brand name'),
  country: z.string().optional().describe('ISO 3166 alpha-2'),
  category: z.string().optional().describe('shopping, gaming, entertainment or food'),
  currency: z.string().optional(),
});
export const giftCardOrder = z.object({
  id,
  brand_id: z.string(),
  country: z.string(),
  denomination: money,
  quantity: z.number().int(),
  recipient_email: z.string().nullable(),
  fulfilment: z.enum(['pending', 'fulfilled', 'failed']).describe('pending until a provider is wired: no code is issued, nothing charged'),
  created_at: when,
});
export const giftCardOrderPage = z.object({ results: z.array(giftCardOrder), next_cursor: nextCursor });
export const giftCardOrderBody = z.object({
  brand_id: z.string(),
  country: z.string(),
  denomination: z.string().describe('One of the offer’s denominations (decimal string)'),
  quantity: z.number().optional().describe('1 to 10 (default 1)'),
  recipient_email: z.string().optional(),
});

const disputeFields = {
  id,
  transaction_id: id.describe('The disputed ledger transfer'),
  amount: money,
  reason: z.string(),
  description: z.string(),
  status: z.enum(['open', 'under_review', 'resolved', 'rejected', 'cancelled']),
  resolution_note: z.string().nullable(),
  reversal_transaction_id: z.string().nullable().describe("The reversing transfer (resolved in the user's favour)"),
  created_at: when,
  updated_at: when,
};
export const disputeMessage = z.object({ id: z.string(), author_role: z.enum(['user', 'admin']), author: z.string(), body: z.string(), created_at: when });
export const dispute = z.object({
  ...disputeFields,
  attachments: z.array(z.object({ id, filename: z.string(), content_type: z.string(), size: z.number().int() })),
  messages: z.array(disputeMessage),
  history: z.array(stateChange),
});
export const disputePage = z.object({ results: z.array(z.object(disputeFields)), next_cursor: nextCursor });
export const disputeBody = z.object({
  transaction_id: z.string().describe('A ledger transfer that took money out of your wallet'),
  reason: z.string().describe('unauthorised, duplicate, not_received, not_as_described, incorrect_amount or other'),
  description: z.string().describe('10 to 4,000 characters'),
  attachments: z
    .array(
      z.object({
        filename: z.string(),
        content_type: z.string().describe('image/png, image/jpeg or application/pdf'),
        content: z.string().describe('The bytes, base64; at most 5 MiB'),
      }),
    )
    .optional()
    .describe('At most 5 files, stored in the object store'),
});
export const disputeQuery = pageQuery.extend({ status: z.string().optional() });
export const messageBody = z.object({ body: z.string().describe('1 to 4,000 characters') });

export const rewards = z.object({
  points: z.string().describe('Points balance, a whole number: below zero while points of a refunded purchase are owed (nothing can be redeemed then)'),
  referral_code: z.string().describe('Share it: the referred user claims it with POST /api/v1/rewards/referral/'),
  referred_by: z.string().nullable(),
  referral_rewarded: z.boolean(),
  rules: z.object({
    points_per_unit_spent: z.string(),
    referrer_bonus: z.string(),
    referred_bonus: z.string(),
    points_per_unit_redeemed: z.string(),
    minimum_redemption: z.string(),
    point_value: money.describe("What one point is worth, in the node's reference currency (REFERENCE_CURRENCY)"),
  }),
  history: z.array(z.object({ id: z.string(), rule: z.string(), points: z.string(), reference: z.string(), created_at: when })),
});
export const referralBody = z.object({ code: z.string() });
export const redeemBody = z.object({
  points: z.number().describe('A multiple of 100, at least 100'),
  currency: z.string().describe("The wallet currency credited: a fiat currency (the points' value converted at the node's rate, rounded down)"),
});
export const redemption = z.object({ points: z.string(), credited: money });
