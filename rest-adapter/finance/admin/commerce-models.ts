/** The commerce app's models in the admin console (/admin/commerce/). */
export const COMMERCE_MODELS = [
  { label: 'Products', href: '/admin/commerce/product/' },
  { label: 'Orders', href: '/admin/commerce/order/' },
  { label: 'Utility requests', href: '/admin/commerce/utilityrequest/' },
  { label: 'Gift-card orders', href: '/admin/commerce/giftcardorder/' },
  { label: 'Disputes', href: '/admin/commerce/dispute/' },
  { label: 'Points and referrals', href: '/admin/commerce/reward/' },
];
