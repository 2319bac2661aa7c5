import { badInput } from '../../../../lib/errors';
import type { IdempotentRequests } from '../../../../lib/idempotency';
import { toMinor } from '../../kernel/currencies';
import type { CommerceStore, GiftCardOrderRow } from '../store/commerce-store';
import { GIFT_CARD_BRANDS, type GiftCardBrand } from './catalogue';
import { pageOf, pageRequest } from './common';

export interface BrandFilter {
  search?: string | null;
  country?: string | null;
  category?: string | null;
  currency?: string | null;
}

export interface GiftCardOrderInput {
  brandId: string;
  country: string;
  denomination: string;
  quantity?: number | null;
  recipientEmail?: string | null;
}

const field = (name: string, message: string) => badInput(message, { [name]: [message] });
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The gift-card catalogue (brands, countries, denominations; search and filters) and orders.
 * Fulfilment is pending (the contract): an order is validated and recorded with fulfilment
 * `pending`; no code is issued and the wallet is not charged until a provider is wired.
 */
export class GiftCards {
  constructor(
    private readonly store: CommerceStore,
    private readonly idempotency: IdempotentRequests,
  ) {}

  brands(filter: BrandFilter): GiftCardBrand[] {
    const search = filter.search?.trim().toLowerCase();
    const country = filter.country?.trim().toUpperCase();
    const currency = filter.currency?.trim().toUpperCase();
    return GIFT_CARD_BRANDS.filter(
      (b) =>
        (!search || b.name.toLowerCase().includes(search) || b.id.includes(search)) &&
        (!filter.category || b.category === filter.category) &&
        (!country || b.countries.some((c) => c.country === country)) &&
        (!currency || b.countries.some((c) => c.currency === currency)),
    ).map((b) => ({ ...b, countries: b.countries.filter((c) => (!country || c.country === country) && (!currency || c.currency === currency)) }));
  }

  brand(id: string): GiftCardBrand | undefined {
    return GIFT_CARD_BRANDS.find((b) => b.id === id);
  }

  countries(): { country: string; currencies: string[] }[] {
    const map = new Map<string, Set<string>>();
    for (const b of GIFT_CARD_BRANDS) for (const c of b.countries) map.set(c.country, (map.get(c.country) ?? new Set()).add(c.currency));
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([country, set]) => ({ country, currencies: [...set].sort() }));
  }

  order(userId: string, input: GiftCardOrderInput, key: string | null | undefined): Promise<GiftCardOrderRow> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'orderGiftCard', input }, async () => {
      const brand = this.brand(input.brandId);
      if (!brand) throw field('brand_id', 'Unknown brand.');
      const offer = brand.countries.find((c) => c.country === (input.country ?? '').toUpperCase());
      if (!offer) throw field('country', `${brand.name} is offered in ${brand.countries.map((c) => c.country).join(', ')}.`);
      const denomination = toMinor(input.denomination ?? '', offer.currency);
      if (!offer.denominations.some((d) => toMinor(d, offer.currency) === denomination))
        throw field('denomination', `One of ${offer.denominations.join(', ')} ${offer.currency}.`);
      const quantity = input.quantity ?? 1;
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > 10) throw field('quantity', '1 to 10.');
      const email = input.recipientEmail?.trim() || null;
      if (email && (email.length > 254 || !EMAIL.test(email))) throw field('recipient_email', 'Not an e-mail address.');
      return this.store.insertGiftCardOrder({
        userId,
        brandId: brand.id,
        country: offer.country,
        denomination,
        currency: offer.currency,
        quantity,
        recipientEmail: email,
      });
    });
  }

  async orders(opts: { userId?: string; limit?: number | null; cursor?: string | null }) {
    const page = pageRequest(opts.limit, opts.cursor);
    return pageOf(await this.store.giftCardOrders({ userId: opts.userId, limit: page.limit + 1, position: page.position }), page.limit);
  }
}
