/** Shop: catalogue, cart, checkout (a pending order), then pay from the wallet; orders with their state. */
import { useState } from 'preact/hooks';
import { api, idempotencyKey, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { dateTime, money, words } from '../format';
import { Details, Empty, ErrorNote, Field, Loading, Page, useAction, useLoad } from '../ui/kit';

type Cart = paths['/api/v1/shop/cart/']['get']['responses'][200]['content']['application/json'];
type Order = paths['/api/v1/shop/checkout/']['post']['responses'][201]['content']['application/json'];

function Catalogue(props: { onCart: (cart: Cart) => void }) {
  const [search, setSearch] = useState('');
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/shop/products/', { params: { query: { search: search || undefined, limit: 50 } } })), [search]);
  const action = useAction();
  const add = (product_id: string, expected_price: string) =>
    action.run(async () => props.onCart(await unwrap(api.POST('/api/v1/shop/cart/items/', { body: { product_id, quantity: 1, expected_price } }))));
  return (
    <section aria-labelledby="catalogue-title">
      <h2 id="catalogue-title">Products</h2>
      <form onSubmit={(e) => (e.preventDefault(), setSearch(new FormData(e.currentTarget).get('product-search') as string))} role="search">
        <Field id="product-search" label="Search products" type="search" />
      </form>
      <ErrorNote error={error ?? action.error} />
      {!data && !error ? <Loading what="products" /> : null}
      {data && !data.results.length ? <Empty>No products found.</Empty> : null}
      <ul class="grid" id="products">
        {(data?.results ?? []).map((p) => (
          <li key={p.id} class="card">
            <h3>{p.name}</h3>
            <p>{p.description}</p>
            <p>
              <strong>{money(p.price)}</strong> <small>{p.stock > 0 ? `${p.stock} in stock` : 'out of stock'}</small>
            </p>
            <button type="button" disabled={p.stock < 1 || action.busy} onClick={() => void add(p.id, p.price.amount)} aria-label={`Add ${p.name} to the cart`}>
              Add to cart
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CartView(props: { cart: Cart | undefined; onCart: (cart: Cart) => void; onOrder: (order: Order) => void }) {
  const action = useAction();
  const setQuantity = (id: string, quantity: number) =>
    action.run(async () =>
      props.onCart(
        quantity < 1
          ? await unwrap(api.DELETE('/api/v1/shop/cart/items/{id}/', { params: { path: { id } } }))
          : await unwrap(api.PATCH('/api/v1/shop/cart/items/{id}/', { params: { path: { id } }, body: { quantity } })),
      ),
    );
  const checkout = () =>
    action.run(async () => props.onOrder(await unwrap(api.POST('/api/v1/shop/checkout/', { headers: { 'Idempotency-Key': idempotencyKey() } }))));
  const items = props.cart?.items ?? [];
  return (
    <section class="card" aria-labelledby="cart-title" id="cart">
      <h2 id="cart-title">Your cart</h2>
      {!items.length ? <Empty>Your cart is empty.</Empty> : null}
      <ul class="list">
        {items.map((line) => (
          <li key={line.id} class="cart-line">
            <span>
              {line.name} × {line.quantity} = {money(line.line_total)}
            </span>
            <span class="stepper">
              <button type="button" class="secondary" aria-label={`One more ${line.name}`} onClick={() => void setQuantity(line.id, line.quantity + 1)}>
                +
              </button>
              <button type="button" class="secondary" aria-label={`One less ${line.name}`} onClick={() => void setQuantity(line.id, line.quantity - 1)}>
                −
              </button>
            </span>
          </li>
        ))}
      </ul>
      {props.cart?.total ? <p>Total: {money(props.cart.total)}</p> : null}
      <ErrorNote id="cart-error" error={action.error} />
      {items.length ? (
        <button type="button" onClick={() => void checkout()} disabled={action.busy}>
          Check out
        </button>
      ) : null}
    </section>
  );
}

export function OrderView(props: { order: Order; onChange: (order: Order) => void }) {
  const { order } = props;
  const action = useAction();
  const act = (what: 'pay' | 'cancel') =>
    action.run(async () =>
      props.onChange(
        await unwrap(api.POST(`/api/v1/shop/orders/{id}/${what}/`, { params: { path: { id: order.id } }, headers: { 'Idempotency-Key': idempotencyKey() } })),
      ),
    );
  return (
    <section class="card narrow" aria-labelledby={`order-${order.id}`} data-order={order.id}>
      <h3 id={`order-${order.id}`}>Order of {dateTime(order.created_at)}</h3>
      <Details
        rows={[
          ...order.items.map((i): [string, string] => [`${i.name} × ${i.quantity}`, `${money(i.unit_price)} each`]),
          ['Total', money(order.total)],
          ['Status', words(order.status)],
        ]}
      />
      <ErrorNote error={action.error} />
      {order.status === 'pending' ? (
        <div class="actions">
          <button type="button" onClick={() => void act('pay')} disabled={action.busy}>
            Pay {money(order.total)}
          </button>
          <button type="button" class="secondary" onClick={() => void act('cancel')} disabled={action.busy}>
            Cancel order
          </button>
        </div>
      ) : null}
      {order.status === 'paid' ? <p role="status">Paid. Thank you!</p> : null}
    </section>
  );
}

export function Shop() {
  const cart = useLoad(() => unwrap(api.GET('/api/v1/shop/cart/')));
  const [current, setCurrent] = useState<Cart | undefined>(undefined);
  const [order, setOrder] = useState<Order | null>(null);
  const orders = useLoad(() => unwrap(api.GET('/api/v1/shop/orders/', { params: { query: { limit: 10 } } })), [order?.status]);
  const shown = current ?? cart.data;
  return (
    <Page title="Shop">
      {order ? <OrderView order={order} onChange={setOrder} /> : null}
      <CartView cart={shown} onCart={setCurrent} onOrder={(o) => (setOrder(o), setCurrent({ items: [], total: null }))} />
      <Catalogue onCart={setCurrent} />
      <h2>Your orders</h2>
      {orders.data && !orders.data.results.length ? <Empty>No orders yet.</Empty> : null}
      <ul class="list">
        {(orders.data?.results ?? []).map((o) => (
          <li key={o.id}>
            {dateTime(o.created_at)} · {money(o.total)} · {words(o.status)}
          </li>
        ))}
      </ul>
    </Page>
  );
}
