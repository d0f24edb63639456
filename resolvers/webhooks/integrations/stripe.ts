// Stripe's webhooks, as Zulip's zerver/webhooks/stripe renders them: one message per event, in a
// topic named after the customer where the object has one, linking the object on Stripe's dashboard.
// Events Zulip deliberately says nothing about (Stripe Connect, payouts...) are accepted silently.
import { AnomalousWebhookPayloadError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonStr } from '../python.ts';

const DISPLAY_NAME = 'Stripe';

/** Zulip's ALL_EVENT_TYPES (which lists a few twice), once each. */
const EVENT_TYPES = [
  'charge.dispute.closed', 'charge.dispute.created', 'charge.failed', 'charge.succeeded',
  'customer.created', 'customer.deleted', 'customer.discount.created', 'customer.subscription.created',
  'customer.subscription.deleted', 'customer.subscription.trial_will_end', 'customer.subscription.updated',
  'customer.updated', 'invoice.created', 'invoice.updated', 'invoice.payment_failed', 'invoiceitem.created',
  'charge.refund.updated',
];

/** Categories Zulip ignores on purpose: accepted, nothing said. */
const SILENT_CATEGORIES = new Set([
  'application_fee', 'balance', 'checkout_beta', 'coupon', 'payment_intent', 'payout', 'plan', 'product',
  'recipient', 'reporting', 'review', 'sigma', 'sku', 'source', 'subscription_schedule', 'topup', 'transfer',
]);

/** Stripe's ID prefixes: what the object is called and where the dashboard shows it. */
const OBJECTS = new Map<string, [name: string, path: string | null]>([
  ['ch', ['Charge', 'charges']],
  ['cus', ['Customer', 'customers']],
  ['dp', ['Dispute', 'disputes']],
  ['du', ['Dispute', 'disputes']],
  ['file', ['File', 'files']],
  ['link', ['File link', 'file_links']],
  ['pi', ['Payment intent', 'payment_intents']],
  ['po', ['Payout', 'payouts']],
  ['prod', ['Product', 'products']],
  ['re', ['Refund', 'refunds']],
  ['tok', ['Token', 'tokens']],
  // Payment methods live under their customer: no page of their own.
  ['ba', ['Bank account', null]],
  ['card', ['Card', null]],
  ['src', ['Source', null]],
  ['in', ['Invoice', 'invoices']],
  ['ii', ['Invoice item', 'invoiceitems']],
  ['sub', ['Subscription', 'subscriptions']],
  ['si', ['Subscription item', 'subscription_items']],
  ['mbur', ['Usage record', null]],
  // ACH payments and their (pseudo) refunds.
  ['py', ['Payment', 'payments']],
  ['pyr', ['Refund', 'refunds']],
]);

const ZERO_DECIMAL_CURRENCIES = new Set([
  'bif', 'djf', 'jpy', 'krw', 'pyg', 'vnd', 'xaf', 'xpf', 'clp', 'gnf', 'kmf', 'mga', 'rwf', 'vuv', 'xof',
]);

/** An event Zulip accepts without a message. */
class Suppressed extends Error {}

export const stripe: Integration = {
  urlName: 'stripe',
  displayName: DISPLAY_NAME,
  eventTypes: EVENT_TYPES,
  translate(request): WebhookOutcome {
    const payload = request.payload();
    const eventType = payload.get('type').str();
    try {
      const [topic, body] = topicAndBody(payload, eventType);
      // Zulip's sending drops leading newlines (an account update's body is only its list).
      return { eventType, messages: [{ topic, content: body.replace(/^\n+/, '') }] };
    } catch (error) {
      if (error instanceof Suppressed) return { messages: [] };
      throw error;
    }
  },
};

function topicAndBody(payload: WildValue, eventType: string): [string, string] {
  const parts = eventType.split('.');
  if (parts.length !== 2 && parts.length !== 3) throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, eventType);
  const [category, resource, event] = parts.length === 3 ? parts as [string, string, string] : [parts[0]!, parts[0]!, parts[1]!];
  const verbed = event.replaceAll('_', ' ');

  const data = payload.get('data');
  const object = data.get('object');
  let topic = object.opt('customer').optStr() ?? '';
  let body: string | null = null;

  // The attributes the update changed (less those not worth telling), with their new values.
  const changes = (ignored: readonly string[] = []): string => {
    const changed = data.get('previous_attributes').entries().map(([key]) => key).filter((key) => !ignored.includes(key));
    if (changed.length === 0) throw new Suppressed();
    return changed.sort().map((key) => `\n* ${capitalize(key.replaceAll('_', ' '))} is now ${stringify(object.get(key))}`).join('');
  };
  const defaultBody = (ignored: readonly string[] = []): string => {
    const text = `${linkifiedId(object.get('id').str())} ${verbed}`;
    return event === 'updated' ? text + changes(ignored) : text;
  };

  switch (category) {
    case 'account':
      if (resource !== 'account') throw new Suppressed(); // Stripe Connect
      if (event === 'updated') {
        if (!data.has('previous_attributes')) throw new Suppressed();
        topic = 'account updates';
        body = changes();
      }
      break;
    case 'charge':
      if (resource === 'charge') {
        topic ||= 'charges';
        body = `${linkifiedId(object.get('id').str())} for ${amountString(object.get('amount').int(), object.get('currency').str())} ${event}`;
        const failureCode = object.get('failure_code');
        if (failureCode.truthy()) body += `. Failure code: ${failureCode.str()}`;
      } else if (resource === 'dispute') {
        topic = 'disputes';
        body = `${defaultBody()}. Current status: ${object.get('status').str().replaceAll('_', ' ')}.`;
      } else if (resource === 'refund') {
        topic = 'refunds';
        const refund = linkifiedId(object.get('id').str(), true);
        const charge = linkifiedId(object.get('charge').str(), true);
        body = `A ${refund} for a ${charge} of ${amountString(object.get('amount').int(), object.get('currency').str())} was updated.`;
      }
      break;
    case 'customer':
      body = customerBody(object, resource, event, verbed, defaultBody);
      if (resource === 'customer') topic = object.get('id').str();
      break;
    case 'file':
      topic = 'files';
      body = `${defaultBody()} (${object.get('purpose').str().replaceAll('_', ' ')}). \nTitle: ${object.get('title').str()}`;
      break;
    case 'invoice':
      body = invoiceBody(data, object, event, defaultBody);
      break;
    case 'invoiceitem':
      body = defaultBody(['description', 'invoice']);
      if (event === 'created') body += ` for ${amountString(object.get('amount').int(), object.get('currency').str())}`;
      break;
    default:
      if (category.startsWith('issuing') || category.startsWith('order') || SILENT_CATEGORIES.has(category)) throw new Suppressed();
  }
  if (body === null) throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, eventType);
  return [topic, body];
}

function customerBody(object: WildValue, resource: string, event: string, verbed: string, defaultBody: (ignored?: readonly string[]) => string): string | null {
  switch (resource) {
    case 'customer': {
      let body = defaultBody(['delinquent', 'currency', 'default_source']);
      if (event === 'created') {
        const email = object.get('email');
        if (email.truthy()) body += `\nEmail: ${email.str()}`;
        const metadata = object.get('metadata');
        if (metadata.truthy()) {
          for (const [key, value] of metadata.entries()) body += `\n${key}: ${value.str()}`;
        }
      }
      return body;
    }
    case 'discount': {
      const coupon = object.get('coupon');
      return `Discount ${verbed} ([${coupon.get('name').str()}](https://dashboard.stripe.com/coupons/${coupon.get('id').str()})).`;
    }
    case 'source':
      return defaultBody();
    case 'subscription': {
      let body = defaultBody();
      if (event === 'trial_will_end') {
        const day = 60 * 60 * 24;
        // Stripe warns three days ahead; rounded to the nearest day.
        body += ` in ${Math.floor((object.get('trial_end').int() - Date.now() / 1000 + day / 2) / day)} days`;
      }
      if (event === 'created') {
        const plan = object.get('plan');
        if (plan.truthy()) {
          const nickname = plan.get('nickname').optStr();
          const url = `https://dashboard.stripe.com/plans/${plan.get('id').str()}`;
          body += nickname === null ? `\nPlan: ${url}` : `\nPlan: [${nickname}](${url})`;
        }
        const quantity = object.get('quantity');
        if (quantity.truthy()) body += `\nQuantity: ${quantity.int()}`;
        if (object.has('billing')) body += `\nBilling method: ${object.get('billing').str().replaceAll('_', ' ')}`;
      }
      return body;
    }
    default:
      return null;
  }
}

function invoiceBody(data: WildValue, object: WildValue, event: string, defaultBody: (ignored?: readonly string[]) => string): string {
  let body: string;
  if (event === 'upcoming') {
    body = 'Upcoming invoice created';
  } else if (event === 'updated' && nowPaid(data, object)) {
    body = `[Invoice](https://dashboard.stripe.com/invoices/${object.get('id').str()}) is now paid`;
  } else {
    body = defaultBody(['lines', 'description', 'number', 'finalized_at', 'status_transitions', 'payment_intent']);
  }
  if (event === 'created') {
    const currency = object.get('currency');
    body += ` (${object.get('billing_reason').str().replaceAll('_', ' ')})`
      + `\nTotal: ${amountString(object.get('total').int(), currency.str())}`
      + `\nAmount due: ${amountString(object.get('amount_due').int(), currency.str())}`;
  }
  return body;
}

/** The update paid the invoice in full (read in Zulip's order, which decides what a bad payload is refused for). */
function nowPaid(data: WildValue, object: WildValue): boolean {
  return data.get('previous_attributes').opt('paid').optBool() === false
    && object.get('paid').bool()
    && object.get('amount_paid').int() !== 0
    && object.get('amount_remaining').int() === 0;
}

/** Cents as Stripe's dashboard writes them: `$1.00`, `1.00 AUD`, `500 JPY`. */
export function amountString(amount: number, currency: string): string {
  let decimal: string;
  if (ZERO_DECIMAL_CURRENCIES.has(currency)) decimal = BigInt(amount).toString();
  else {
    const value = amount * 0.01;
    // toFixed turns to exponents past 1e21, where Python still writes every digit.
    decimal = Math.abs(value) < 1e21 ? value.toFixed(2) : `${BigInt(value)}.00`;
  }
  return currency === 'usd' ? `$${decimal}` : `${decimal} ${currency.toUpperCase()}`;
}

function linkifiedId(id: string, lower = false): string {
  const known = OBJECTS.get(id.split('_')[0]!);
  if (!known) throw new AnomalousWebhookPayloadError(DISPLAY_NAME);
  const name = lower ? known[0].toLowerCase() : known[0];
  return known[1] === null ? name : `[${name}](https://dashboard.stripe.com/${known[1]}/${id})`;
}

/** A changed attribute's new value: Unix times (2017 to 2033) as global times, the rest as Python prints it. */
function stringify(value: WildValue): string {
  const raw = value.raw();
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 1500000000 && raw < 2000000000) {
    return `<time:${new Date(raw * 1000).toISOString().slice(0, 19)}+00:00>`;
  }
  return pythonStr(raw);
}

/** Python's str.capitalize. */
function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}
