// Onboarding steps: register's onboarding_steps (the notices not yet dismissed),
// POST /users/me/onboarding_steps and onboarding_steps events.
import { describe, expect, it } from 'vitest';
import { makeUser } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ scheduledPollMs: 0 });

describe('POST /users/me/onboarding_steps', () => {
  it('marks a step seen: register and the event leave it out, for that user only', async () => {
    const carol = await makeUser(t);
    const dave = await makeUser(t);
    const state = (await t.client(carol).post('/register', { fetch_event_types: ['onboarding_steps'] })).body;
    expect(state.navigation_tour_video_url).toBeNull();
    expect(state.onboarding_steps).toContainEqual({ type: 'one_time_notice', name: 'intro_inbox_view_modal' });
    expect(state.onboarding_steps).toContainEqual({ type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' });
    // No tour video is offered, so its notice is never shown.
    expect(state.onboarding_steps.map((s: any) => s.name)).not.toContain('navigation_tour_video');
    const queue = (await registerQueue(t.client(carol), { event_types: ['onboarding_steps'] })).queue_id;
    expect((await t.client(carol).post('/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' })).status).toBe(200);
    // Twice is fine.
    expect((await t.client(carol).post('/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' })).status).toBe(200);
    const after = (await t.client(carol).post('/register', { fetch_event_types: ['onboarding_steps'] })).body.onboarding_steps;
    expect(after).toHaveLength(state.onboarding_steps.length - 1);
    expect(after.map((s: any) => s.name)).not.toContain('intro_inbox_view_modal');
    const events = await allEvents(t.client(carol), queue, { keepHeartbeats: true });
    expect(events[0]).toMatchObject({ type: 'onboarding_steps', onboarding_steps: after });
    const others = (await t.client(dave).post('/register', { fetch_event_types: ['onboarding_steps'] })).body.onboarding_steps;
    expect(others).toEqual(state.onboarding_steps);
  });

  it('refuses unknown steps', async () => {
    const carol = await makeUser(t);
    const res = await t.client(carol).post('/users/me/onboarding_steps', { onboarding_step: 'world_tour' });
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Unknown onboarding_step: world_tour' });
    expect((await t.client(carol).post('/users/me/onboarding_steps', {})).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  });

  it('through GraphQL', async () => {
    const erin = await makeUser(t);
    await ok(t, 'mutation { markOnboardingStepRead(onboardingStep: "intro_resolve_topic") }', {}, erin);
    const steps = (await ok(t, '{ onboardingSteps { type name } }', {}, erin)).onboardingSteps;
    expect(steps.map((s: any) => s.name)).not.toContain('intro_resolve_topic');
    const { error } = await fails(t, 'mutation { markOnboardingStepRead(onboardingStep: "nope") }', {}, erin);
    expect(error.message).toBe('Unknown onboarding_step: nope');
  });
});
