// Stripe's webhooks: the messages Zulip's zerver/webhooks/stripe/tests.py expects, the events Zulip
// accepts silently, and payloads it refuses.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnomalousWebhookPayloadError, BadRequestError, InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { amountString, stripe } from '../../../resolvers/webhooks/integrations/stripe.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(stripe, { body, params: { stream: 'test' } });

function event(type: string, object: Record<string, unknown>, previous?: Record<string, unknown>) {
  return {
    id: 'evt_00000000000000',
    object: 'event',
    type,
    data: previous === undefined ? { object } : { object, previous_attributes: previous },
  };
}

describe('stripe: registration', () => {
  it('is found by its URL name', () => {
    expect(integrationNamed('stripe')).toBe(stripe);
    expect(stripe.displayName).toBe('Stripe');
    expect(stripe.eventTypes).toContain('charge.refund.updated');
    expect(new Set(stripe.eventTypes).size).toBe(stripe.eventTypes!.length);
  });
});

describe('stripe: charge.dispute.*', () => {
  it('test_charge_dispute_closed', () => {
    const outcome = translate(event('charge.dispute.closed', { id: 'dp_00000000000000', object: 'dispute', amount: 1000, status: 'won', charge: 'ch_00000000000000' }));
    expectMessage(outcome, 'disputes', '[Dispute](https://dashboard.stripe.com/disputes/dp_00000000000000) closed. Current status: won.', 'charge.dispute.closed');
  });

  it('test_charge_dispute_created', () => {
    const outcome = translate(event('charge.dispute.created', { id: 'dp_00000000000000', status: 'needs_response' }));
    expectMessage(outcome, 'disputes', '[Dispute](https://dashboard.stripe.com/disputes/dp_00000000000000) created. Current status: needs response.');
  });
});

describe('stripe: charge.failed', () => {
  it('test_charge_failed', () => {
    const outcome = translate(event('charge.failed', { id: 'ch_00000000000000', amount: 100, currency: 'aud', customer: null, failure_code: null }));
    expectMessage(outcome, 'charges', '[Charge](https://dashboard.stripe.com/charges/ch_00000000000000) for 1.00 AUD failed', 'charge.failed');
  });

  it('names the failure code', () => {
    const outcome = translate(event('charge.failed', { id: 'ch_1', amount: 2500, currency: 'jpy', customer: 'cus_1', failure_code: 'card_declined' }));
    expectMessage(outcome, 'cus_1', '[Charge](https://dashboard.stripe.com/charges/ch_1) for 2500 JPY failed. Failure code: card_declined');
  });
});

describe('stripe: charge.succeeded', () => {
  it('test_charge_succeeded__card', () => {
    const outcome = translate(event('charge.succeeded', { id: 'ch_000000000000000000000000', amount: 100, currency: 'aud', customer: 'cus_00000000000000', failure_code: null }));
    expectMessage(outcome, 'cus_00000000000000', '[Charge](https://dashboard.stripe.com/charges/ch_000000000000000000000000) for 1.00 AUD succeeded');
  });

  it('test_charge_succeeded__invoice', () => {
    const outcome = translate(event('charge.succeeded', { id: 'py_000000000000000000000000', amount: 100, currency: 'usd', customer: 'cus_00000000000000', failure_code: null }));
    expectMessage(outcome, 'cus_00000000000000', '[Payment](https://dashboard.stripe.com/payments/py_000000000000000000000000) for $1.00 succeeded');
  });
});

describe('stripe: charge.refund.updated', () => {
  it('test_refund_event', () => {
    const outcome = translate(event('charge.refund.updated', { id: 're_1Gib6ZHLwdCOCoR7VrzCnXlj', object: 'refund', amount: 30000000, charge: 'ch_1Gib61HLwdCOCoR71rnkccye', currency: 'inr' }, { metadata: {} }));
    expectMessage(outcome, 'refunds', 'A [refund](https://dashboard.stripe.com/refunds/re_1Gib6ZHLwdCOCoR7VrzCnXlj) for a [charge](https://dashboard.stripe.com/charges/ch_1Gib61HLwdCOCoR71rnkccye) of 300000.00 INR was updated.');
  });

  it('test_pseudo_refund_event', () => {
    const outcome = translate(event('charge.refund.updated', { id: 'pyr_abcde12345ABCDF', amount: 1234, charge: 'py_abcde12345ABCDG', currency: 'eur' }));
    expectMessage(outcome, 'refunds', 'A [refund](https://dashboard.stripe.com/refunds/pyr_abcde12345ABCDF) for a [payment](https://dashboard.stripe.com/payments/py_abcde12345ABCDG) of 12.34 EUR was updated.');
  });
});

describe('stripe: customer.created', () => {
  it('test_customer_created', () => {
    const outcome = translate(event('customer.created', { id: 'cus_00000000000000', email: null, metadata: {} }));
    expectMessage(outcome, 'cus_00000000000000', '[Customer](https://dashboard.stripe.com/customers/cus_00000000000000) created', 'customer.created');
  });

  it('test_customer_created_email', () => {
    const outcome = translate(event('customer.created', { id: 'cus_00000000000000', email: 'example@abc.com', metadata: {} }));
    expectMessage(outcome, 'cus_00000000000000', '[Customer](https://dashboard.stripe.com/customers/cus_00000000000000) created\nEmail: example@abc.com');
  });

  it('lists the metadata', () => {
    const outcome = translate(event('customer.created', { id: 'cus_1', email: '', metadata: { plan: 'gold', constructor: 'x' } }));
    expectMessage(outcome, 'cus_1', '[Customer](https://dashboard.stripe.com/customers/cus_1) created\nplan: gold\nconstructor: x');
  });
});

describe('stripe: customer.deleted', () => {
  it('test_customer_deleted', () => {
    const outcome = translate(event('customer.deleted', { id: 'cus_00000000000000' }));
    expectMessage(outcome, 'cus_00000000000000', '[Customer](https://dashboard.stripe.com/customers/cus_00000000000000) deleted');
  });
});

describe('stripe: customer.updated', () => {
  it('test_customer_updated__account_balance', () => {
    const outcome = translate(event('customer.updated', { id: 'cus_00000000000000', account_balance: 100, currency: 'usd', delinquent: false }, { account_balance: 0, currency: null, delinquent: true }));
    expectMessage(outcome, 'cus_00000000000000', '[Customer](https://dashboard.stripe.com/customers/cus_00000000000000) updated\n* Account balance is now 100');
  });

  it('says nothing when only ignored attributes changed', () => {
    expect(translate(event('customer.updated', { id: 'cus_1', currency: 'usd' }, { currency: null })).messages).toEqual([]);
  });
});

describe('stripe: customer.discount.created', () => {
  it('test_customer_discount_created', () => {
    const outcome = translate(event('customer.discount.created', { object: 'discount', coupon: { id: '25_00000000000000', name: '25.5% off' }, customer: 'cus_00000000000000' }));
    expectMessage(outcome, 'cus_00000000000000', 'Discount created ([25.5% off](https://dashboard.stripe.com/coupons/25_00000000000000)).');
  });
});

describe('stripe: customer.subscription.*', () => {
  const subscription = (plan: Record<string, unknown>) => ({
    id: 'sub_E6STM5w5EX3K28', customer: 'cus_00000000000000', billing: 'send_invoice', quantity: 800,
    plan: { id: 'plan_E6SQ6RAtmLVtzg', object: 'plan', ...plan },
  });

  it('test_customer_subscription_created', () => {
    const outcome = translate(event('customer.subscription.created', subscription({ nickname: 'flatrate' })));
    expectMessage(outcome, 'cus_00000000000000', `[Subscription](https://dashboard.stripe.com/subscriptions/sub_E6STM5w5EX3K28) created
Plan: [flatrate](https://dashboard.stripe.com/plans/plan_E6SQ6RAtmLVtzg)
Quantity: 800
Billing method: send invoice`, 'customer.subscription.created');
  });

  it('test_customer_subscription_created_no_nickname', () => {
    const outcome = translate(event('customer.subscription.created', subscription({ nickname: null })));
    expectMessage(outcome, 'cus_00000000000000', `[Subscription](https://dashboard.stripe.com/subscriptions/sub_E6STM5w5EX3K28) created
Plan: https://dashboard.stripe.com/plans/plan_E6SQ6RAtmLVtzg
Quantity: 800
Billing method: send invoice`);
  });

  it('test_customer_subscription_deleted', () => {
    const outcome = translate(event('customer.subscription.deleted', { id: 'sub_00000000000000', customer: 'cus_00000000000000' }));
    expectMessage(outcome, 'cus_00000000000000', '[Subscription](https://dashboard.stripe.com/subscriptions/sub_00000000000000) deleted');
  });

  it('test_customer_subscription_updated', () => {
    const outcome = translate(event('customer.subscription.updated', {
      id: 'sub_E6STM5w5EX3K28', customer: 'cus_00000000000000', billing_cycle_anchor: 1572609600, current_period_end: 1572609600,
      current_period_start: 1544075635, start: 1544075635, status: 'trialing', trial_end: 1572609600, trial_start: 1544075635,
    }, {
      billing_cycle_anchor: 1544075635, current_period_end: 1546754035, current_period_start: 1544075635, start: 1544075635,
      status: 'active', trial_end: null, trial_start: null,
    }));
    expectMessage(outcome, 'cus_00000000000000', `[Subscription](https://dashboard.stripe.com/subscriptions/sub_E6STM5w5EX3K28) updated
* Billing cycle anchor is now <time:2019-11-01T12:00:00+00:00>
* Current period end is now <time:2019-11-01T12:00:00+00:00>
* Current period start is now <time:2018-12-06T05:53:55+00:00>
* Start is now <time:2018-12-06T05:53:55+00:00>
* Status is now trialing
* Trial end is now <time:2019-11-01T12:00:00+00:00>
* Trial start is now <time:2018-12-06T05:53:55+00:00>`);
  });

  describe('trial_will_end', () => {
    afterEach(() => vi.restoreAllMocks());

    it('test_customer_subscription_trial_will_end', () => {
      vi.spyOn(Date, 'now').mockReturnValue((1480892861 - 3 * 3600 * 24 + 100) * 1000);
      const outcome = translate(event('customer.subscription.trial_will_end', { id: 'sub_00000000000000', customer: 'cus_00000000000000', trial_end: 1480892861 }));
      expectMessage(outcome, 'cus_00000000000000', '[Subscription](https://dashboard.stripe.com/subscriptions/sub_00000000000000) trial will end in 3 days');
    });
  });
});

describe('stripe: invoice.*', () => {
  it('test_invoice_created', () => {
    const outcome = translate(event('invoice.created', { id: 'in_1GpmuuHLwdCOCoR7ghzQDQLW', customer: 'cus_HH97asvHvaYQYp', billing_reason: 'manual', total: 0, amount_due: 0, currency: 'inr' }));
    expectMessage(outcome, 'cus_HH97asvHvaYQYp', '[Invoice](https://dashboard.stripe.com/invoices/in_1GpmuuHLwdCOCoR7ghzQDQLW) created (manual)\nTotal: 0.00 INR\nAmount due: 0.00 INR', 'invoice.created');
  });

  it('test_invoice_payment_failed', () => {
    const outcome = translate(event('invoice.payment_failed', { id: 'in_00000000000000', customer: 'cus_00000000000000' }));
    expectMessage(outcome, 'cus_00000000000000', '[Invoice](https://dashboard.stripe.com/invoices/in_00000000000000) payment failed');
  });

  it('test_invoice_paid', () => {
    const outcome = translate(event('invoice.updated', {
      id: 'in_1EjLINHuGUuNWDDZjDf2WNqd', customer: 'cus_FDmrSwQt9Fck5M', paid: true, amount_paid: 1000, amount_remaining: 0, status: 'paid',
    }, { paid: false, status: 'open' }));
    expectMessage(outcome, 'cus_FDmrSwQt9Fck5M', '[Invoice](https://dashboard.stripe.com/invoices/in_1EjLINHuGUuNWDDZjDf2WNqd) is now paid');
  });

  it('lists other changes, less the ignored ones', () => {
    const outcome = translate(event('invoice.updated', { id: 'in_1', customer: 'cus_1', status: 'open', auto_advance: false, number: 'X-1' }, { status: 'draft', number: null, auto_advance: true }));
    expectMessage(outcome, 'cus_1', '[Invoice](https://dashboard.stripe.com/invoices/in_1) updated\n* Auto advance is now False\n* Status is now open');
  });

  it('says nothing when the only change is ignored', () => {
    expect(translate(event('invoice.updated', { id: 'in_1', customer: 'cus_1', lines: {} }, { lines: {} })).messages).toEqual([]);
  });
});

describe('stripe: invoiceitem.created', () => {
  it('test_invoiceitem_created', () => {
    const outcome = translate(event('invoiceitem.created', { id: 'ii_00000000000000', customer: 'cus_00000000000000', amount: 1000, currency: 'cad' }));
    expectMessage(outcome, 'cus_00000000000000', '[Invoice item](https://dashboard.stripe.com/invoiceitems/ii_00000000000000) created for 10.00 CAD', 'invoiceitem.created');
  });
});

describe('stripe: events Zulip says nothing about', () => {
  it('test_account_updated_without_previous_attributes_ignore', () => {
    expect(translate(event('account.updated', { id: 'acct_1', object: 'account' })).messages).toEqual([]);
  });

  it('reports account updates that name their changes', () => {
    const outcome = translate(event('account.updated', { id: 'acct_1', payouts_enabled: true }, { payouts_enabled: false }));
    expectMessage(outcome, 'account updates', '* Payouts enabled is now True');
  });

  it.each(['payout.created', 'application_fee.created', 'issuing_card.created', 'order.created', 'account.application.authorized'])('%s', (type) => {
    expect(translate(event(type, { id: 'po_1' })).messages).toEqual([]);
  });
});

describe('stripe: refusals', () => {
  it('refuses an event it does not know', () => {
    expectError(() => translate(event('customer.tax_id.created', { id: 'txi_1' })), UnsupportedWebhookEventTypeError,
      "The 'customer.tax_id.created' event isn't currently supported by the Stripe webhook; ignoring");
    expectError(() => translate(event('ping', { id: 'x' })), UnsupportedWebhookEventTypeError,
      "The 'ping' event isn't currently supported by the Stripe webhook; ignoring");
  });

  it('refuses an ID of no known kind', () => {
    expectError(() => translate(event('customer.created', { id: 'constructor_1', email: null, metadata: {} })), AnomalousWebhookPayloadError,
      'Unable to parse request: Did Stripe generate this event?');
  });

  it('refuses malformed payloads with a 400', () => {
    expectError(() => translate({ data: {} }), BadRequestError, 'payload["type"] is missing');
    expectError(() => translate({ type: 5 }), BadRequestError, 'payload["type"] is not a string');
    expectError(() => translate({ type: 'charge.failed', data: [] }), BadRequestError, 'payload["data"] is not a dict');
    expectError(() => translate(event('charge.failed', { id: 'ch_1', amount: '1', currency: 'usd', failure_code: null })), BadRequestError,
      'payload["data"]["object"]["amount"] is not an integer');
    expectError(() => translate(event('customer.updated', { id: 'cus_1' })), BadRequestError, 'payload["data"]["previous_attributes"] is missing');
    expectError(() => translate(event('customer.updated', { id: 'cus_1' }, { name: 'old' })), BadRequestError, 'payload["data"]["object"]["name"] is missing');
    expectError(() => translate(event('charge.failed', { id: 'ch_1', customer: 7 })), BadRequestError, 'payload["data"]["object"]["customer"] is not a string');
    expectError(() => translate('not json'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate([])).httpStatus).toBe(400);
  });
});

describe('stripe: amounts', () => {
  it('writes cents as the dashboard does', () => {
    expect(amountString(100, 'usd')).toBe('$1.00');
    expect(amountString(-250, 'eur')).toBe('-2.50 EUR');
    expect(amountString(500, 'jpy')).toBe('500 JPY');
    expect(amountString(1e23, 'eur')).toBe('1000000000000000000000.00 EUR');
  });
});
